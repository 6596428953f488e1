/**
 * The SDK and the payment page over real HTTP: the `payment_url` a created
 * charge carries is the sandbox's page, and what its form does is what
 * `client.charges.retrieve` then reads.
 */
import { describe, expect, it } from 'vitest';
import { formTokenOf } from '../sandbox/helpers.js';
import { start } from './helpers.js';

/**
 * The customer pressing a button on the page, with JavaScript off: its form
 * with its token, read from the page unless a tab opened earlier holds it.
 */
async function press(paymentUrl: string, action: 'pay' | 'fail', token?: string): Promise<Response> {
  token ??= formTokenOf(await (await fetch(paymentUrl)).text());
  return fetch(paymentUrl, { method: 'POST', body: new URLSearchParams({ token, action }), redirect: 'manual' });
}

describe('qr_code_url', () => {
  it('is an SVG image of the QR code a created qris charge carries', async () => {
    const { sandbox, client } = await start();
    const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
    expect(charge.qr_code_url).toBe(`${sandbox.url}/qr/${charge.id}.svg`);
    const image = await fetch(charge.qr_code_url!);
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await image.text()).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
  });
});

describe('payment_url', () => {
  it('is the sandbox page, served without the key; Pay there is what retrieve and the events then show', async () => {
    const { sandbox, client } = await start();
    const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000, client_reference_id: 'o-7' });
    expect(charge.payment_url).toBe(`${sandbox.url}/pay/${charge.id}`);

    const page = await fetch(charge.payment_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1 class="amount">Rp 25.000</h1>');

    const pressed = await press(charge.payment_url, 'pay');
    expect(pressed.status).toBe(303);
    expect(new URL(pressed.headers.get('location')!, charge.payment_url).href).toBe(charge.payment_url);

    const paid = await client.charges.retrieve(charge.id);
    expect(paid).toMatchObject({ id: charge.id, status: 'success', client_reference_id: 'o-7' });
    expect(paid.paid_at).toEqual(expect.any(String));
    expect(sandbox.events.map((event) => [event.type, event.data.status])).toEqual([
      ['payment_charge.created', 'pending'],
      ['payment_charge.succeeded', 'success'],
    ]);
    expect(sandbox.events[1]?.data.paid_at).toBe(paid.paid_at);
    // The page's requests are recorded beside the API's, without the key.
    expect(sandbox.requests.map((request) => [request.method, request.path, request.authorized])).toEqual([
      ['POST', '/v1/payments/charges', true],
      ['GET', `/pay/${charge.id}`, false],
      ['GET', `/pay/${charge.id}`, false],
      ['POST', `/pay/${charge.id}`, false],
      ['GET', `/v1/payments/charges/${charge.id}`, true],
    ]);
  });

  it('Fail there leaves the charge failed, and payCharge afterwards is refused as for any settled charge', async () => {
    const { sandbox, client } = await start();
    const charge = await client.charges.create({ payment_method: 'virtual_account', amount: 40_000 });
    const secondTab = formTokenOf(await (await fetch(charge.payment_url)).text());
    expect((await press(charge.payment_url, 'fail')).status).toBe(303);
    expect(await client.charges.retrieve(charge.id)).toMatchObject({ status: 'failed', paid_at: null });
    await expect(sandbox.payCharge(charge.id)).rejects.toThrow(/is failed, not pending/);
    expect((await press(charge.payment_url, 'pay', secondTab)).status).toBe(409);
    expect(sandbox.events.map((event) => event.type)).toEqual(['payment_charge.created', 'payment_charge.failed']);
  });
});
