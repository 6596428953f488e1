/** Webhook deliveries over real HTTP: retries, records, redelivery, order, settling and closing. */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SandboxError, type WebhookDelivery } from '../../src/testing/index.js';
import { listenForTest } from '../helpers/recorders.js';
import { eventually } from '../helpers/waiting.js';
import { createCharge, sandbox } from './helpers.js';
import { webhookReceiver } from './webhook-receiver.js';

/** Short waits so a retried delivery settles quickly; the schedule's length is what is tested. */
const quick = { webhookRetryDelaysMs: [5, 5, 5] };

const statuses = (delivery: WebhookDelivery | undefined) => delivery?.attempts.map((attempt) => attempt.status);

describe('webhook deliveries', () => {
  it('records a delivery per event, delivered on the first 2xx', async () => {
    const hook = await webhookReceiver();
    const box = await sandbox({ webhookUrl: hook.url });
    const { id } = (await createCharge(box)).body.data;
    await box.payCharge(id);
    await box.webhooksSettled();

    expect(
      box.deliveries.map(({ eventId, eventType, state, redelivery, retryAt }) => ({
        eventId,
        eventType,
        state,
        redelivery,
        retryAt,
      })),
    ).toEqual(
      box.events.map((event) => ({
        eventId: event.id,
        eventType: event.type,
        state: 'delivered',
        redelivery: false,
        retryAt: null,
      })),
    );
    for (const delivery of box.deliveries) {
      const [attempt, ...more] = delivery.attempts;
      expect(more).toEqual([]);
      expect(attempt).toMatchObject({ status: 204, error: null, ok: true });
      expect(attempt?.startedAt).toBeInstanceOf(Date);
      expect(attempt?.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(new Set(hook.received.map(({ event }) => event.id))).toEqual(new Set(box.events.map(({ id }) => id)));
    expect(box.webhookFailures).toBe(0);
  });

  it('takes webhookUrl as a URL object too', async () => {
    const hook = await webhookReceiver();
    const box = await sandbox({ webhookUrl: new URL(hook.url) });
    await createCharge(box);
    await box.webhooksSettled();
    expect(box.deliveries.map(({ state }) => state)).toEqual(['delivered']);
    expect(hook.received.map(({ event }) => event.id)).toEqual(box.events.map(({ id }) => id));
  });

  it('retries a failing endpoint on the schedule until it answers 2xx, with the same event each time', async () => {
    const hook = await webhookReceiver((index) => (index < 2 ? 500 : 200));
    const box = await sandbox({ webhookUrl: hook.url, ...quick });
    await createCharge(box);
    await box.webhooksSettled();

    const [delivery] = box.deliveries;
    expect(delivery?.state).toBe('delivered');
    expect(statuses(delivery)).toEqual([500, 500, 200]);
    expect(delivery?.attempts.map(({ ok }) => ok)).toEqual([false, false, true]);
    expect(box.webhookFailures).toBe(2);
    expect(hook.received).toHaveLength(3);
    expect(new Set(hook.received.map(({ text }) => text)).size).toBe(1);
    expect(hook.received.map(({ headers }) => headers['lunas-event-id'])).toEqual(Array(3).fill(delivery?.eventId));
  });

  it('gives up after the last retry, and webhookFailures counts every failed attempt', async () => {
    const hook = await webhookReceiver(() => 503);
    const box = await sandbox({ webhookUrl: hook.url, webhookRetryDelaysMs: [1, 1] });
    await createCharge(box);
    await box.webhooksSettled();
    expect(box.deliveries).toMatchObject([{ state: 'failed', retryAt: null }]);
    expect(statuses(box.deliveries[0])).toEqual([503, 503, 503]);
    expect(box.webhookFailures).toBe(3);
  });

  it('never retries with an empty schedule', async () => {
    const hook = await webhookReceiver(() => 500);
    const box = await sandbox({ webhookUrl: hook.url, webhookRetryDelaysMs: [] });
    await createCharge(box);
    await box.webhooksSettled();
    expect(statuses(box.deliveries[0])).toEqual([500]);
    expect(box.deliveries[0]?.state).toBe('failed');
  });

  it('counts an attempt that outlasts webhookTimeoutMs as failed, and retries it', async () => {
    const hook = await webhookReceiver((index) => (index === 0 ? 'hang' : 204));
    const box = await sandbox({ webhookUrl: hook.url, webhookTimeoutMs: 50, ...quick });
    await createCharge(box);
    await box.webhooksSettled();
    const [timedOut, answered] = box.deliveries[0]?.attempts ?? [];
    expect(timedOut).toMatchObject({ status: null, error: 'timed out after 50 ms', ok: false });
    expect(answered).toMatchObject({ status: 204, error: null, ok: true });
    expect(box.deliveries[0]?.state).toBe('delivered');
  });

  it('records the network error of an unreachable endpoint', async () => {
    const server = createServer();
    const origin = await listenForTest(server);
    await new Promise((resolve) => server.close(resolve));
    const box = await sandbox({ webhookUrl: `${origin}/hooks`, webhookRetryDelaysMs: [1] });
    const response = await createCharge(box);
    expect(response.status).toBe(200);
    await box.webhooksSettled();
    const [delivery] = box.deliveries;
    expect(delivery?.state).toBe('failed');
    expect(delivery?.attempts).toHaveLength(2);
    for (const attempt of delivery?.attempts ?? []) {
      expect(attempt.status).toBeNull();
      expect(attempt.error).toMatch(/ECONNREFUSED/);
    }
  });

  it('hands out copies: changing one changes nothing recorded', async () => {
    const hook = await webhookReceiver();
    const box = await sandbox({ webhookUrl: hook.url });
    await createCharge(box);
    await box.webhooksSettled();
    const copy = box.deliveries[0]!;
    copy.state = 'failed';
    copy.attempts.length = 0;
    expect(box.deliveries[0]).toMatchObject({ state: 'delivered', attempts: [{ status: 204 }] });
  });

  it('calls onWebhookAttempt after every attempt; what it throws stops nothing', async () => {
    const hook = await webhookReceiver((index) => (index === 0 ? 500 : 204));
    const seen: string[] = [];
    const box = await sandbox({
      webhookUrl: hook.url,
      ...quick,
      onWebhookAttempt: (delivery) => {
        seen.push(`${delivery.state} ${String(statuses(delivery))}`);
        throw new Error('a broken logger');
      },
    });
    await createCharge(box);
    await box.webhooksSettled();
    expect(seen).toEqual(['pending 500', 'delivered 500,204']);
    expect(box.deliveries[0]?.state).toBe('delivered');
  });

  it('records nothing and settles at once without webhookUrl', async () => {
    const box = await sandbox();
    await createCharge(box);
    await box.webhooksSettled();
    expect(box.deliveries).toEqual([]);
    expect(box.webhookFailures).toBe(0);
    expect(() => box.redeliver(box.events[0]!.id)).toThrow(SandboxError);
    expect(() => box.holdWebhooks()).toThrow(/needs a webhook URL/);
    expect(() => box.releaseWebhooks()).toThrow(SandboxError);
  });
});

describe('closing with deliveries pending', () => {
  it('abandons a delivery waiting for a retry, and webhooksSettled resolves', async () => {
    const hook = await webhookReceiver(() => 500);
    const box = await sandbox({ webhookUrl: hook.url, webhookRetryDelaysMs: [3_600_000] });
    await createCharge(box);
    await eventually(() => box.deliveries[0]?.attempts.length === 1);
    expect(box.deliveries[0]?.retryAt).toBeInstanceOf(Date);
    const settled = box.webhooksSettled();
    await box.close();
    await settled;
    expect(box.deliveries).toMatchObject([{ state: 'abandoned', retryAt: null, attempts: [{ status: 500 }] }]);
    await box.webhooksSettled();
    expect(hook.received).toHaveLength(1);
  });

  it('aborts an attempt in flight without recording it', async () => {
    const hook = await webhookReceiver(() => 'hang');
    const box = await sandbox({ webhookUrl: hook.url });
    await createCharge(box);
    await eventually(() => hook.received.length === 1);
    const settled = box.webhooksSettled();
    await box.close();
    await settled;
    expect(box.deliveries).toMatchObject([{ state: 'abandoned', attempts: [] }]);
    expect(box.webhookFailures).toBe(0);
  });

  it('refuses the delivery helpers after close, and keeps the records readable', async () => {
    const hook = await webhookReceiver();
    const box = await sandbox({ webhookUrl: hook.url });
    await createCharge(box);
    await box.webhooksSettled();
    await box.close();
    expect(() => box.redeliver(box.events[0]!.id)).toThrow(/closed, so redeliver\(\)/);
    expect(() => box.holdWebhooks()).toThrow(SandboxError);
    expect(() => box.releaseWebhooks()).toThrow(SandboxError);
    expect(box.deliveries).toHaveLength(1);
  });
});
