import { createServer, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { EventValidationError, type LunasEvent, NotFoundError, parseEvent } from 'lunas-sdk';
import { listenForTest } from '../helpers/recorders.js';
import { start } from './helpers.js';
import { eventually } from '../helpers/waiting.js';
import { ISO_UTC } from '../helpers/formats.js';
import { rejection } from '../helpers/rejection.js';

/** The rest of an event's data, which the types leave unknown: the sandbox sends the whole charge. */
const dataOf = (event: LunasEvent) => event.data as Record<string, unknown>;

describe('charge lifecycle', () => {
  it('payCharge: retrieve shows success with paid_at, and the events are recorded', async () => {
    const { sandbox, client } = await start();
    const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
    expect(sandbox.events.map((event) => event.type)).toEqual(['payment_charge.created']);

    const settled = await sandbox.payCharge(charge.id);
    expect(settled.status).toBe('success');
    const paid = await client.charges.retrieve(charge.id);
    expect(paid.status).toBe('success');
    expect(paid.paid_at).toMatch(ISO_UTC);
    expect(paid.paid_at).toBe(settled.paid_at);
    expect(Date.parse(paid.updated_at)).toBeGreaterThanOrEqual(Date.parse(charge.created_at));

    expect(sandbox.events.map((event) => [event.type, event.data.id, event.data.status])).toEqual([
      ['payment_charge.created', charge.id, 'pending'],
      ['payment_charge.succeeded', charge.id, 'success'],
    ]);
    // A settled charge cannot be settled again.
    await expect(sandbox.payCharge(charge.id)).rejects.toThrow();
    await expect(sandbox.failCharge(charge.id)).rejects.toThrow();
    expect(sandbox.events).toHaveLength(2);
  });

  it('failCharge: retrieve and list show failed without paid_at', async () => {
    const { sandbox, client } = await start();
    const charge = await client.charges.create({ payment_method: 'virtual_account', amount: 50_000 });
    await sandbox.failCharge(charge.id);

    const failed = await client.charges.retrieve(charge.id);
    expect(failed.status).toBe('failed');
    expect(failed.paid_at).toBeNull();
    const page = await client.charges.list();
    expect(page.data.map((item) => [item.id, item.status])).toEqual([[charge.id, 'failed']]);
    expect(sandbox.events.map((event) => event.type)).toEqual(['payment_charge.created', 'payment_charge.failed']);
    expect(sandbox.events[1]?.data.id).toBe(charge.id);
  });

  it('expiry: a charge read after its expires_at is failed, with one failed event', async () => {
    let now = new Date('2025-01-01T00:00:00.000Z');
    const { sandbox, client } = await start({ now: () => now });
    const qris = await client.charges.create({ payment_method: 'qris', amount: 10_000 });
    const custom = await client.charges.create({
      payment_method: 'virtual_account',
      amount: 10_000,
      expires_at: new Date(now.getTime() + 60 * 60_000),
    });
    expect(qris.created_at).toBe('2025-01-01T00:00:00.000Z');
    expect(Date.parse(qris.expires_at)).toBeGreaterThan(now.getTime());
    expect(custom.expires_at).toBe('2025-01-01T01:00:00.000Z');

    // One millisecond before expiry: still pending.
    now = new Date(Date.parse(qris.expires_at) - 1);
    expect((await client.charges.retrieve(qris.id)).status).toBe('pending');

    now = new Date(Date.parse(qris.expires_at) + 60_000);
    const expired = await client.charges.retrieve(qris.id);
    expect(expired.status).toBe('failed');
    expect(expired.paid_at).toBeNull();
    expect((await client.charges.retrieve(custom.id)).status).toBe('pending');
    await expect(sandbox.payCharge(qris.id)).rejects.toThrow();

    now = new Date('2025-01-01T01:00:00.000Z');
    const page = await client.charges.list();
    expect(page.data.map((item) => [item.id, item.status])).toEqual([
      [custom.id, 'failed'],
      [qris.id, 'failed'],
    ]);

    const failedEvents = sandbox.events.filter((event) => event.type === 'payment_charge.failed');
    expect(failedEvents.map((event) => event.data.id)).toEqual([qris.id, custom.id]);
    // Reading again records nothing more.
    await client.charges.retrieve(qris.id);
    expect(sandbox.events.filter((event) => event.type === 'payment_charge.failed')).toHaveLength(2);
  });

  it('a charge paid before expiry stays success after it', async () => {
    let now = new Date('2025-06-01T12:00:00.000Z');
    const { sandbox, client } = await start({ now: () => now });
    const charge = await client.charges.create({ payment_method: 'qris', amount: 10_000 });
    now = new Date(now.getTime() + 60_000);
    await sandbox.payCharge(charge.id);
    now = new Date(now.getTime() + 24 * 60 * 60_000);
    const read = await client.charges.retrieve(charge.id);
    expect(read.status).toBe('success');
    expect(read.paid_at).toBe('2025-06-01T12:01:00.000Z');
  });

  it('seeded charges record no events', async () => {
    const { sandbox } = await start();
    sandbox.seedCharges(5);
    expect(sandbox.events).toEqual([]);
  });
});

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A local webhook receiver on 127.0.0.1, closed after the test. */
async function receiver(status = 204): Promise<{ url: string; deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(status).end();
    });
  });
  return { url: `${await listenForTest(server)}/hooks/lunas`, deliveries };
}

describe('webhooks', () => {
  it('delivers each event to webhookUrl, and parseEvent reads it with the right type and charge', async () => {
    const hook = await receiver();
    const { sandbox, client } = await start({ webhookUrl: hook.url });

    const paid = await client.charges.create({
      payment_method: 'qris',
      amount: 10_000,
      client_reference_id: 'order-1',
    });
    const failed = await client.charges.create({ payment_method: 'virtual_account', amount: '20000.5' });
    await sandbox.payCharge(paid.id);
    await sandbox.failCharge(failed.id);

    await eventually(() => hook.deliveries.length === 4);
    const events = hook.deliveries.map((delivery) => parseEvent(delivery.body.toString('utf8')));
    // Each event is delivered on its own, so they may arrive in any order; compare as sets.
    const summary = events.map((event) => `${event.type} ${String(dataOf(event).id)}`).sort();
    expect(summary).toEqual(
      [
        `payment_charge.created ${paid.id}`,
        `payment_charge.created ${failed.id}`,
        `payment_charge.succeeded ${paid.id}`,
        `payment_charge.failed ${failed.id}`,
      ].sort(),
    );

    for (const [index, delivery] of hook.deliveries.entries()) {
      const event = events[index]!;
      expect(delivery.headers['content-type']).toMatch(/^application\/json/);
      expect(delivery.headers['lunas-event-id']).toBe(event.id);
      expect(event.created_at).toMatch(ISO_UTC);
    }

    const succeeded = events.find((event) => event.type === 'payment_charge.succeeded');
    if (succeeded?.type !== 'payment_charge.succeeded') throw new Error('no succeeded event');
    // The sandbox's own shape: the charge as retrieve returns it, kept as it came.
    expect(dataOf(succeeded)).toMatchObject({ status: 'success', amount: '10000.00', client_reference_id: 'order-1' });
    expect(dataOf(succeeded).paid_at).toMatch(ISO_UTC);

    const failure = events.find((event) => event.type === 'payment_charge.failed');
    if (failure?.type !== 'payment_charge.failed') throw new Error('no failed event');
    expect(dataOf(failure)).toMatchObject({ status: 'failed', amount: '20000.50' });

    // The same events as the sandbox recorded, by id.
    expect(new Set(events.map((event) => event.id))).toEqual(new Set(sandbox.events.map((event) => event.id)));
    expect(sandbox.webhookFailures).toBe(0);
  });

  it('parseEvent accepts the raw bytes and the recorded objects alike', async () => {
    const hook = await receiver();
    const { sandbox, client } = await start({ webhookUrl: hook.url });
    const charge = await client.charges.create({ payment_method: 'qris', amount: 1_000 });
    await eventually(() => hook.deliveries.length === 1);

    const fromBytes = parseEvent(new Uint8Array(hook.deliveries[0]!.body));
    const fromObject = parseEvent(sandbox.events[0]!);
    expect(fromBytes).toEqual(fromObject);
    expect(fromBytes.type).toBe('payment_charge.created');
    expect(dataOf(fromBytes).id).toBe(charge.id);
    expect(() => parseEvent(hook.deliveries[0]!.body.subarray(0, 20).toString())).toThrow(EventValidationError);
  });

  it('counts failed deliveries without breaking the API', async () => {
    const hook = await receiver(500);
    const { sandbox, client } = await start({ webhookUrl: hook.url, webhookRetryDelaysMs: [] });
    const charge = await client.charges.create({ payment_method: 'qris', amount: 1_000 });
    await sandbox.payCharge(charge.id);
    await sandbox.webhooksSettled();
    expect(sandbox.webhookFailures).toBe(2);
    expect(hook.deliveries).toHaveLength(2);
    expect((await client.charges.retrieve(charge.id)).status).toBe('success');
  });
});

describe('client.webhooks.confirm with real deliveries', () => {
  it('confirms each delivered event with the charge as the API reports it now', async () => {
    const hook = await receiver();
    const { sandbox, client } = await start({ webhookUrl: hook.url });
    const charge = await client.charges.create({ payment_method: 'qris', amount: 10_000 });
    await sandbox.payCharge(charge.id);
    await eventually(() => hook.deliveries.length === 2);

    const before = sandbox.requests.length;
    const confirmations = await Promise.all(hook.deliveries.map((delivery) => client.webhooks.confirm(delivery.body)));
    expect(confirmations.map(({ event }) => event.type).sort()).toEqual([
      'payment_charge.created',
      'payment_charge.succeeded',
    ]);
    // Whatever each event said then, the charge read back is the current one.
    for (const { event, charge: confirmed } of confirmations) {
      expect(dataOf(event).id).toBe(charge.id);
      expect(confirmed?.id).toBe(charge.id);
      expect(confirmed?.status).toBe('success');
    }
    const created = confirmations.find(({ event }) => event.type === 'payment_charge.created')!;
    expect(dataOf(created.event).status).toBe('pending');
    expect(sandbox.requests.slice(before).map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /v1/payments/charges/${charge.id}`,
      `GET /v1/payments/charges/${charge.id}`,
    ]);
  });

  it('a forged event: a charge that does not exist rejects with NotFoundError; a pending one stays pending', async () => {
    const hook = await receiver();
    const { sandbox, client } = await start({ webhookUrl: hook.url });
    const paid = await client.charges.create({ payment_method: 'qris', amount: 10_000 });
    const unpaid = await client.charges.create({ payment_method: 'virtual_account', amount: 20_000 });
    await sandbox.payCharge(paid.id);
    await eventually(() => hook.deliveries.length === 3);
    const genuine = hook.deliveries
      .map((delivery) => JSON.parse(delivery.body.toString('utf8')) as { type: string; data: { id: string } })
      .find((event) => event.type === 'payment_charge.succeeded')!;

    const nonexistent = { ...genuine, data: { ...genuine.data, id: 'ch_000000000000000000000000' } };
    const error = await rejection(client.webhooks.confirm(JSON.stringify(nonexistent)), NotFoundError);
    expect(error.status).toBe(404);

    const claimsPaid = { ...genuine, data: { ...genuine.data, id: unpaid.id } };
    const { event, charge } = await client.webhooks.confirm(Buffer.from(JSON.stringify(claimsPaid)));
    expect(event.type).toBe('payment_charge.succeeded');
    expect(charge?.status).toBe('pending');
    expect(charge?.paid_at).toBeNull();
  });

  it('an event of a type lunas does not know is returned without a request', async () => {
    const { sandbox, client } = await start();
    const result = await client.webhooks.confirm({
      id: 'evt_1',
      type: 'payout.paid',
      created_at: new Date().toISOString(),
      data: { id: 'po_1' },
    });
    expect(result.charge).toBeUndefined();
    expect(result.event.type).toBe('payout.paid');
    expect(sandbox.requests).toEqual([]);
  });
});
