/**
 * Webhook events that are not the sandbox's shape, confirmed against a real
 * sandbox over HTTP: the contract requires only `type` and `data.id`, so a
 * service sending less than the sandbox does must still be confirmed.
 */
import { describe, expect, it } from 'vitest';
import { EventValidationError, isChargeEvent, type WebhookBody } from 'lunas-sdk';
import { start } from './helpers.js';
import { rejection } from '../helpers/rejection.js';

describe('client.webhooks.confirm with events slimmer than the sandbox sends', () => {
  it('a slim event ({ type, data: { id } }) for a real charge is confirmed with one read over HTTP', async () => {
    const { sandbox, client } = await start();
    const created = await client.charges.create({ payment_method: 'qris', amount: 10_000, client_reference_id: 'o-1' });
    await sandbox.payCharge(created.id);

    const before = sandbox.requests.length;
    const slim = { type: 'payment_charge.succeeded', data: { id: created.id } };
    const { event, charge } = await client.webhooks.confirm(JSON.stringify(slim));

    expect(event).toEqual(slim);
    expect(isChargeEvent(event) && event.data.id).toBe(created.id);
    expect(charge).toMatchObject({ id: created.id, status: 'success', amount: '10000.00', client_reference_id: 'o-1' });
    expect(sandbox.requests.slice(before).map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /v1/payments/charges/${created.id}`,
    ]);
  });

  it('the body as a web framework hands it over: await request.arrayBuffer(), or a DataView of it', async () => {
    const { sandbox, client } = await start();
    const created = await client.charges.create({ payment_method: 'virtual_account', amount: 20_000 });
    const delivery = () =>
      new Request('http://127.0.0.1/webhooks/lunas', {
        method: 'POST',
        body: JSON.stringify({ type: 'payment_charge.created', data: { id: created.id }, note: 'extra' }),
      });

    const fromArrayBuffer = await client.webhooks.confirm(await delivery().arrayBuffer());
    const fromDataView = await client.webhooks.confirm(new DataView(await delivery().arrayBuffer()));
    for (const { event, charge } of [fromArrayBuffer, fromDataView]) {
      expect(event).toEqual({ type: 'payment_charge.created', data: { id: created.id }, note: 'extra' });
      expect(charge?.status).toBe('pending');
    }
    expect(sandbox.requests.filter((request) => request.method === 'GET')).toHaveLength(2);
  });

  it('a Request itself, or an id that cannot name a charge, is an EventValidationError and nothing is sent', async () => {
    const { sandbox, client } = await start();
    const before = sandbox.requests.length;
    const request = new Request('http://127.0.0.1/webhooks/lunas', { method: 'POST', body: '{}' });
    const error = await rejection(client.webhooks.confirm(request as unknown as WebhookBody), EventValidationError);
    expect(error.message).toContain('await request.text()');

    for (const id of ['..', '.', '', 'ch_\uD800']) {
      const body = JSON.stringify({ type: 'payment_charge.succeeded', data: { id } });
      const refused = await rejection(client.webhooks.confirm(body), EventValidationError);
      expect(refused.issues.map((issue) => issue.path)).toEqual(['data.id']);
    }
    expect(sandbox.requests.length).toBe(before);
  });
});
