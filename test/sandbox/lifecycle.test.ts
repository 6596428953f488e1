import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { call, createCharge, sandbox, validCharge } from './helpers.js';
import { eventually, sleep } from '../helpers/waiting.js';
import { ISO_UTC } from '../helpers/formats.js';

const retrieve = async (box: Awaited<ReturnType<typeof sandbox>>, id: string) =>
  (await call(box, 'GET', `/v1/payments/charges/${id}`)).body.data;

describe('charge lifecycle', () => {
  it('records payment_charge.created with the charge as retrieve serves it', async () => {
    const box = await sandbox();
    const { id } = (await createCharge(box)).body.data;
    expect(box.events).toHaveLength(1);
    const [event] = box.events;
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
      type: 'payment_charge.created',
      created_at: expect.stringMatching(ISO_UTC),
      data: await retrieve(box, id),
    });
  });

  it('payCharge: pending -> success with paid_at, updated_at and a succeeded event', async () => {
    let now = new Date('2025-03-01T10:00:00.000Z');
    const box = await sandbox({ now: () => now });
    const { id } = (await createCharge(box)).body.data;
    now = new Date('2025-03-01T10:05:00.000Z');
    const paid = await box.payCharge(id);
    expect(paid).toMatchObject({
      id,
      status: 'success',
      paid_at: '2025-03-01T10:05:00.000Z',
      updated_at: '2025-03-01T10:05:00.000Z',
      created_at: '2025-03-01T10:00:00.000Z',
    });
    expect(paid).not.toHaveProperty('payment_url');
    expect(await retrieve(box, id)).toEqual(paid);
    expect(box.events.map((event) => event.type)).toEqual(['payment_charge.created', 'payment_charge.succeeded']);
    expect(box.events[1]).toMatchObject({ created_at: '2025-03-01T10:05:00.000Z', data: paid });
    expect(box.events[0]?.data.status).toBe('pending');
  });

  it('failCharge: pending -> failed with a failed event and no paid_at', async () => {
    const box = await sandbox();
    const { id } = (await createCharge(box)).body.data;
    const failed = await box.failCharge(id);
    expect(failed).toMatchObject({ id, status: 'failed', paid_at: null });
    expect((await retrieve(box, id)).status).toBe('failed');
    expect(box.events.map((event) => event.type)).toEqual(['payment_charge.created', 'payment_charge.failed']);
  });

  it('refuses to settle a charge twice or one that does not exist, recording nothing', async () => {
    const box = await sandbox();
    const { id } = (await createCharge(box)).body.data;
    await box.payCharge(id);
    await expect(box.payCharge(id)).rejects.toThrow(/is success, not pending/);
    await expect(box.failCharge(id)).rejects.toThrow(/not pending/);
    await expect(box.payCharge('ch_missing')).rejects.toThrow(/No charge/);
    expect(box.events).toHaveLength(2);
  });

  it("credits the caller's account with a paid charge's amount less its fee, and a failed one with nothing", async () => {
    const box = await sandbox();
    const { id } = (await createCharge(box)).body.data;
    await box.failCharge((await createCharge(box)).body.data.id);
    expect(box.balance('acc_merchant')).toBe('1000000.00');
    await box.payCharge(id);
    // 10000.00 less its 0.7 % qris fee, 70.00.
    expect(box.balance('acc_merchant')).toBe('1009930.00');
  });
});

describe('expiry', () => {
  it('reads an unpaid charge as failed from its expires_at, recording the failed event once', async () => {
    let now = new Date('2025-03-01T10:00:00.000Z');
    const box = await sandbox({ now: () => now });
    const { id, expires_at } = (await createCharge(box)).body.data;
    expect(expires_at).toBe('2025-03-01T10:15:00.000Z');

    now = new Date('2025-03-01T10:14:59.999Z');
    expect((await retrieve(box, id)).status).toBe('pending');

    now = new Date('2025-03-01T10:15:00.000Z');
    const expired = await retrieve(box, id);
    expect(expired).toMatchObject({ status: 'failed', paid_at: null, updated_at: '2025-03-01T10:15:00.000Z' });
    await retrieve(box, id);
    const listed = (await call(box, 'GET', '/v1/payments/charges')).body.data;
    expect(listed[0]).toEqual(expired);
    expect(box.events.map((event) => event.type)).toEqual(['payment_charge.created', 'payment_charge.failed']);
    expect(box.events[1]?.data).toEqual(expired);
  });

  it('expires charges seen through the list too', async () => {
    let now = new Date('2025-03-01T10:00:00.000Z');
    const box = await sandbox({ now: () => now });
    await createCharge(box, { payment_method: 'virtual_account', amount: 1 });
    now = new Date('2025-03-02T10:00:00.000Z');
    const listed = (await call(box, 'GET', '/v1/payments/charges')).body.data;
    expect(listed[0].status).toBe('failed');
    expect(box.events.at(-1)?.type).toBe('payment_charge.failed');
  });

  it('cannot pay an expired charge', async () => {
    let now = new Date('2025-03-01T10:00:00.000Z');
    const box = await sandbox({ now: () => now });
    const { id } = (await createCharge(box, { ...validCharge, expires_at: '2025-03-01T10:01:00Z' })).body.data;
    now = new Date('2025-03-01T10:02:00.000Z');
    await expect(box.payCharge(id)).rejects.toThrow(/is failed/);
    expect(box.events.map((event) => event.type)).toEqual(['payment_charge.created', 'payment_charge.failed']);
  });

  it('leaves paid charges alone after their expiry', async () => {
    let now = new Date('2025-03-01T10:00:00.000Z');
    const box = await sandbox({ now: () => now });
    const { id } = (await createCharge(box)).body.data;
    await box.payCharge(id);
    now = new Date('2025-03-09T00:00:00.000Z');
    expect((await retrieve(box, id)).status).toBe('success');
    expect(box.events).toHaveLength(2);
  });
});

describe('seedCharges', () => {
  it('creates charges by the POST rules without events', async () => {
    const box = await sandbox();
    box.seedCharges(3, { payment_method: 'virtual_account', amount: '12.5', customer_details: { name: 'Ani' } });
    const { body } = await call(box, 'GET', '/v1/payments/charges');
    expect(body.total_items).toBe(3);
    expect(body.data[0]).toMatchObject({
      payment_method: 'virtual_account',
      amount: '12.50',
      fee: '4000.00',
      status: 'pending',
      payment_method_options: { virtual_account: { account_name: 'Ani' } },
    });
    expect(new Set(body.data.map((charge: { id: string }) => charge.id)).size).toBe(3);
    expect(box.events).toHaveLength(0);
  });

  it('defaults to qris charges of 10000.00', async () => {
    const box = await sandbox();
    box.seedCharges(1);
    expect((await call(box, 'GET', '/v1/payments/charges')).body.data[0]).toMatchObject({
      payment_method: 'qris',
      amount: '10000.00',
      fee: '70.00',
    });
  });

  it('throws with the field messages for an invalid template, creating nothing', async () => {
    const box = await sandbox();
    expect(() => box.seedCharges(2, { amount: 0 })).toThrow(/Amount must be greater than 0/);
    expect(() => box.seedCharges(-1)).toThrow(TypeError);
    expect((await call(box, 'GET', '/v1/payments/charges')).body.total_items).toBe(0);
  });
});

describe('webhook delivery', () => {
  const receivers: { close: () => void }[] = [];
  afterEach(() => {
    for (const receiver of receivers.splice(0)) receiver.close();
  });

  async function receiver(status = 200) {
    const received: { headers: IncomingHttpHeaders; body: string; method: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body, method: req.method ?? '' });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receivers.push({ close: () => server.close() });
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
  }

  it('POSTs every event as JSON with its id in lunas-event-id', async () => {
    const hook = await receiver();
    const box = await sandbox({ webhookUrl: hook.url });
    const { id } = (await createCharge(box)).body.data;
    await box.payCharge(id);
    await eventually(() => hook.received.length === 2);
    const bodies = hook.received.map((delivery) => JSON.parse(delivery.body));
    expect(bodies.map((event) => event.type).sort()).toEqual(['payment_charge.created', 'payment_charge.succeeded']);
    for (const delivery of hook.received) {
      const event = JSON.parse(delivery.body);
      expect(delivery.method).toBe('POST');
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['lunas-event-id']).toBe(event.id);
      expect(box.events).toContainEqual(event);
    }
    expect(box.webhookFailures).toBe(0);
  });

  it('counts failed deliveries without disturbing the API', async () => {
    const hook = await receiver(500);
    const box = await sandbox({ webhookUrl: hook.url, webhookRetryDelaysMs: [] });
    const response = await createCharge(box);
    expect(response.status).toBe(200);
    await box.webhooksSettled();
    expect(box.webhookFailures).toBe(1);
    expect(hook.received).toHaveLength(1);
  });

  it('counts an unreachable receiver as a failure', async () => {
    const hook = await receiver();
    receivers.pop()?.close();
    await sleep(20);
    const box = await sandbox({ webhookUrl: hook.url, webhookRetryDelaysMs: [] });
    expect((await createCharge(box)).status).toBe(200);
    await box.webhooksSettled();
    expect(box.webhookFailures).toBe(1);
  });
});
