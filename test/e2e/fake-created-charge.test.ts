/**
 * fakeCreatedCharge: a create response as the service sends it, with
 * `payment_url` and, for qris, `qr_code_url` (the virtual account's number
 * for virtual_account), which an msw handler answers `charges.create` with
 * and the SDK validates as its own; and the same fields as the sandbox's own
 * create response over HTTP.
 */
import { describe, expect, it } from 'vitest';
import { fakeCreatedCharge, successEnvelope } from 'lunas-sdk/testing';
import { makeClient } from '../helpers/msw.js';
import { route, jsonReply, CHARGES_PATH } from '../helpers/requests.js';
import { thrown } from '../helpers/rejection.js';

describe('fakeCreatedCharge', () => {
  it('answers charges.create through msw, and the SDK accepts it: qris with its QR code', async () => {
    const fake = fakeCreatedCharge({ amount: 25_000 });
    const seen = route('POST', CHARGES_PATH, () => jsonReply(200, successEnvelope(fake)));
    const charge = await makeClient().charges.create({ payment_method: 'qris', amount: 25_000 });
    expect(seen).toHaveLength(1);
    expect(charge).toMatchObject({ id: fake.id, status: 'pending', amount: '25000.00' });
    expect(charge.payment_url).toBe(fake.payment_url);
    expect(charge.payment_url).toMatch(new RegExp(`/pay/${fake.id}$`));
    expect(charge.qr_code_url).toMatch(new RegExp(`/qr/${fake.id}\\.svg$`));
  });

  it('a virtual_account charge carries its account number and no QR code', async () => {
    const fake = fakeCreatedCharge({
      payment_method: 'virtual_account',
      channel: 'bca',
      payment_method_options: { virtual_account: { account_number: '8808123456789012' } },
    });
    route('POST', CHARGES_PATH, () => jsonReply(200, successEnvelope(fake)));
    const charge = await makeClient().charges.create({ payment_method: 'virtual_account', amount: 10_000 });
    expect(charge.payment_method_options?.virtual_account?.account_number).toBe('8808123456789012');
    expect(charge.qr_code_url).toBeUndefined();
    expect('qr_code_url' in fake).toBe(false);
    expect(charge.payment_url).toBe(fake.payment_url);
  });

  it('takes its URLs as overrides, and refuses what a create response never is', () => {
    const fake = fakeCreatedCharge({
      payment_url: 'https://pay.example.test/p/1',
      qr_code_url: 'https://pay.example.test/q/1.png',
    });
    expect([fake.payment_url, fake.qr_code_url]).toEqual([
      'https://pay.example.test/p/1',
      'https://pay.example.test/q/1.png',
    ]);
    expect(thrown(() => fakeCreatedCharge({ status: 'success' }), TypeError).message).toMatch(
      /^The status override must be pending/,
    );
    expect(
      thrown(
        () => fakeCreatedCharge({ payment_method: 'virtual_account', qr_code_url: 'https://x.test/q.png' }),
        TypeError,
      ).message,
    ).toMatch(/qr_code_url/);
    expect(thrown(() => fakeCreatedCharge({ paymnet_url: 'x' } as never), TypeError).message).toContain('payment_url');
  });
});
