/**
 * A marketplace and the sandbox's clock, end to end with the SDK over real
 * HTTP: sellers added and funded on a running sandbox, customers' payments
 * settling into the merchant's account less their fees, transfers on to the
 * sellers; and a clock moved forward, which charges' `expires_at` must follow.
 */
import { describe, expect, it } from 'vitest';
import { BadRequestError } from 'lunas-sdk';
import { rejection } from '../helpers/rejection.js';
import { cents, start } from './helpers.js';

const HOUR = 3_600_000;

describe('a marketplace with the SDK', () => {
  it('settles paid charges into the merchant’s account less their fees, and pays sellers added on the fly', async () => {
    const { sandbox, client } = await start({
      accounts: [{ id: 'acc_market', name: 'Pasar', balance: '0.00' }],
      account: 'acc_market',
    });
    sandbox.addAccount({ id: 'acc_kopi', name: 'Toko Kopi' });
    sandbox.addAccount({ id: 'acc_batik', name: 'Batik Sari', balance: '15000' });

    const va = await client.charges.create({ payment_method: 'virtual_account', amount: '250000.50' });
    const qris = await client.charges.create({ payment_method: 'qris', amount: 333.33 });
    await sandbox.payCharge(va.id);
    expect(cents(sandbox.balance('acc_market'))).toBe(cents(va.amount) - cents(va.fee));
    expect(sandbox.balance('acc_market')).toBe('246000.50');

    // The customer presses Pay on the payment page, as a browser does with JavaScript off.
    const page = await fetch(qris.payment_url!);
    const token = /name="token" value="([0-9a-f]{64})"/.exec(await page.text())![1]!;
    const pressed = await fetch(qris.payment_url!, {
      method: 'POST',
      body: new URLSearchParams({ token, action: 'pay' }),
      redirect: 'manual',
    });
    expect(pressed.status).toBe(303);
    expect(await client.charges.retrieve(qris.id)).toMatchObject({ status: 'success', fee: '2.33' });
    // 333.33 less its fee, 0.7 % rounded to the cent (2.33331 -> 2.33).
    expect(sandbox.balance('acc_market')).toBe('246331.50');

    const payout = await client.transfers.create({
      destination_account_id: 'acc_kopi',
      amount: 200_000,
      currency: 'idr',
    });
    expect(payout).toMatchObject({ destination_account_name: 'Toko Kopi', status: 'succeeded' });
    await client.transfers.create({ destination_account_id: 'acc_batik', amount: '46331.50', currency: 'idr' });
    expect(sandbox.accounts()).toEqual([
      { id: 'acc_market', name: 'Pasar', balance: '0.00', active: true },
      { id: 'acc_kopi', name: 'Toko Kopi', balance: '200000.00', active: true },
      { id: 'acc_batik', name: 'Batik Sari', balance: '61331.50', active: true },
    ]);

    // Out of money, the merchant is refused; a test tops the account up and the transfer goes through.
    await expect(
      client.transfers.create({ destination_account_id: 'acc_kopi', amount: 1, currency: 'idr' }),
    ).rejects.toMatchObject({ status: 403 });
    expect(sandbox.fund('acc_market', 1).balance).toBe('1.00');
    await client.transfers.create({ destination_account_id: 'acc_kopi', amount: 1, currency: 'idr' });
    expect(sandbox.balance('acc_kopi')).toBe('200001.00');
  });

  it('drives the same from another process: the control routes add, fund and list accounts', async () => {
    const { sandbox, client } = await start();
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${sandbox.url}/_sandbox/${path}`, {
        method,
        headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { data: unknown } }));

    expect(await send('POST', 'accounts', { id: 'acc_seller' })).toEqual({
      status: 200,
      body: { status: 'success', data: { id: 'acc_seller', name: 'acc_seller', balance: '0.00', active: true } },
    });
    await client.transfers.create({ destination_account_id: 'acc_seller', amount: '1250.75', currency: 'idr' });
    expect((await send('POST', 'accounts/acc_seller/fund', { amount: '249.25' })).body.data).toMatchObject({
      balance: '1500.00',
    });
    expect((await send('GET', 'accounts')).body.data).toEqual(sandbox.accounts());
  });
});

describe('the sandbox’s clock with the SDK', () => {
  it('refuses a charge expiring before the sandbox’s time, naming it, once the clock was advanced', async () => {
    const { sandbox, client } = await start();
    await sandbox.advanceClock(24 * HOUR);
    const error = await rejection(
      client.charges.create({ payment_method: 'qris', amount: 10_000, expires_at: new Date(Date.now() + 12 * HOUR) }),
      BadRequestError,
    );
    expect(error.status).toBe(400);
    expect(error.fields.expires_at).toEqual([
      expect.stringMatching(/^Expires at must be after the sandbox's current time, \d{4}-\d\d-\d\dT[\d:.]+Z$/),
    ]);
    expect(sandbox.charges()).toEqual([]);

    const expiresAt = new Date(Date.parse(sandbox.now()) + 12 * HOUR);
    const charge = await client.charges.create({ payment_method: 'qris', amount: 10_000, expires_at: expiresAt });
    expect(charge).toMatchObject({ status: 'pending', expires_at: expiresAt.toISOString() });
    expect(Date.parse(charge.created_at)).toBeGreaterThan(Date.now() + 23 * HOUR);
  });

  it('keeps serving at its latest time, 9999-01-01: creates, lists and retrieves read four-digit years', async () => {
    const T0 = new Date('2025-03-01T10:00:00.000Z');
    const { sandbox, client } = await start({ now: () => T0 });
    await sandbox.advanceClock(Date.parse('9999-01-01T00:00:00.000Z') - T0.getTime());
    const charge = await client.charges.create({ payment_method: 'virtual_account', amount: 50_000 });
    expect(charge).toMatchObject({ created_at: '9999-01-01T00:00:00.000Z', expires_at: '9999-01-02T00:00:00.000Z' });
    expect((await client.charges.list().toArray({ limit: 10 })).map(({ id }) => id)).toEqual([charge.id]);
    await sandbox.payCharge(charge.id);
    expect(await client.charges.retrieve(charge.id)).toMatchObject({
      status: 'success',
      paid_at: '9999-01-01T00:00:00.000Z',
    });
    await expect(sandbox.advanceClock(1)).rejects.toThrow(TypeError);
  });
});
