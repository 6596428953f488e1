/**
 * Everything a helper returns is the caller's copy: editing it, however deep,
 * changes nothing the sandbox holds, serves or sends. Run against
 * createSandbox and startSandbox (the API over real HTTP).
 */
import { describe, expect, it } from 'vitest';
import type { InProcessSandboxOptions, Sandbox, WebhookHandler } from '../../src/testing/index.js';
import { call, createCharge, createTransfer, inProcessSandbox, sandbox, type Json } from './helpers.js';

const ENTRIES = [
  ['createSandbox', async (options?: InProcessSandboxOptions) => inProcessSandbox(options)],
  ['startSandbox', (options?: InProcessSandboxOptions) => sandbox(options)],
] as const;

/** Every string and number inside `value` replaced, and every array emptied: a caller editing all it got. */
function vandalise(value: Json): void {
  if (Array.isArray(value)) {
    value.forEach(vandalise);
    value.length = 0;
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (value instanceof Date) {
    value.setTime(0);
    return;
  }
  for (const key of Object.keys(value)) {
    const field = value[key];
    if (typeof field === 'string') value[key] = 'edited';
    else if (typeof field === 'number' || typeof field === 'boolean') value[key] = -1;
    else vandalise(field);
  }
}

/** A snapshot to compare with after the vandalism. */
const snapshot = <T>(value: T): T => structuredClone(value);

async function chargeVia(box: Sandbox, body?: unknown): Promise<string> {
  const created = await createCharge(box, body);
  expect(created.status, created.text).toBe(200);
  return created.body.data.id as string;
}

describe.each(ENTRIES)('%s: what the helpers return is a copy', (_entry, open) => {
  it('events and the charge payCharge, failCharge and expireCharge resolve to', async () => {
    const box = await open();
    const paid = await box.payCharge(
      await chargeVia(box, {
        payment_method: 'qris',
        amount: 10_000,
        items: [{ name: 'Tea', price: 10_000, quantity: 1 }],
      }),
    );
    const failed = await box.failCharge(await chargeVia(box));
    const expired = await box.expireCharge(await chargeVia(box));
    const events = snapshot(box.events);
    const charges = snapshot(box.charges());
    const served = (await call(box, 'GET', `/v1/payments/charges/${paid.id}`)).body.data;

    for (const result of [paid, failed, expired, box.events]) vandalise(result);
    const [first] = box.events;
    vandalise(first);

    expect(box.events).toEqual(events);
    expect(box.charges()).toEqual(charges);
    expect((await call(box, 'GET', `/v1/payments/charges/${served.id}`)).body.data).toEqual(served);
  });

  it('the events advanceClock resolves to', async () => {
    const box = await open();
    await chargeVia(box);
    const due = await box.advanceClock(16 * 60_000);
    expect(due.map(({ type }) => type)).toEqual(['payment_charge.failed']);
    const events = snapshot(box.events);
    vandalise(due);
    expect(box.events).toEqual(events);
  });

  it('charges(), transfers() and requests', async () => {
    const box = await open();
    await chargeVia(box, {
      payment_method: 'virtual_account',
      amount: 25_000,
      customer_details: { name: 'Ani' },
      items: [{ name: 'Rice', price: 25_000, quantity: 1 }],
    });
    await createTransfer(box, { destination_account_id: 'acc_partner', amount: 100, currency: 'idr' });
    await call(box, 'GET', '/v1/payments/charges?page=1&pagesize=5');
    const [charges, transfers, requests] = [snapshot(box.charges()), snapshot(box.transfers()), snapshot(box.requests)];

    vandalise(box.charges());
    vandalise(box.transfers());
    vandalise(box.requests);
    const [charge] = box.charges();
    vandalise(charge);

    expect(box.charges()).toEqual(charges);
    expect(box.transfers()).toEqual(transfers);
    expect(box.requests).toEqual(requests);
  });

  it('deliveries, and the event redeliver() sends is the one recorded, whatever a test edited', async () => {
    const received: string[] = [];
    const webhook: WebhookHandler = async (request) => {
      received.push(await request.text());
      return new Response(null, { status: 204 });
    };
    const box = await open({ webhook });
    await chargeVia(box);
    await box.webhooksSettled();
    const deliveries = snapshot(box.deliveries);
    const [event] = box.events;

    vandalise(box.deliveries);
    vandalise(box.events[0]);
    vandalise(box.deliveries[0]?.event);
    box.redeliver(event!.id);
    await box.webhooksSettled();

    expect(box.deliveries[0]).toEqual(deliveries[0]);
    expect(received).toEqual([JSON.stringify(event), JSON.stringify(event)]);
  });
});
