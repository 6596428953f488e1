/**
 * The delivery schedule under fake timers: the default waits, the attempt
 * timeout and close() mid-wait, with `fetch` stubbed (the deliveries use
 * nothing but `fetch` and timers, so no server is needed to drive them).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  KEPT_DELIVERIES,
} from '../../src/testing/defaults.js';
import { type DeliverySettings, WebhookDeliveries } from '../../src/testing/webhooks/deliveries.js';
import { type ControlParts, sandboxControls } from '../../src/testing/control/controls.js';
import type { SandboxEvent } from '../../src/testing/index.js';

const event = { id: 'evt_1', type: 'payment_charge.created', created_at: '2025-01-01T00:00:00.000Z', data: {} };

function deliveries(settings: Partial<DeliverySettings> = {}): WebhookDeliveries {
  return new WebhookDeliveries({
    url: 'http://hooks.test/lunas',
    handler: undefined,
    retryDelaysMs: DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
    timeoutMs: DEFAULT_WEBHOOK_TIMEOUT_MS,
    onAttempt: undefined,
    keep: KEPT_DELIVERIES,
    ...settings,
  });
}

/** A fetch that answers `status`, or never answers when `status` is undefined (until aborted). */
function stubFetch(status?: number) {
  const fetch = vi.fn(
    (_url: string, init: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        if (status !== undefined) resolve(new Response(null, { status }));
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the delivery schedule', () => {
  it('retries after 1 s, 5 s, 30 s and 2 min by default, then gives up', async () => {
    const fetch = stubFetch(500);
    const webhooks = deliveries();
    webhooks.send(event as SandboxEvent);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    for (const [retry, delay] of DEFAULT_WEBHOOK_RETRY_DELAYS_MS.entries()) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(fetch).toHaveBeenCalledTimes(retry + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fetch).toHaveBeenCalledTimes(retry + 2);
    }
    const [delivery] = webhooks.all;
    expect(delivery?.state).toBe('failed');
    const starts = delivery!.attempts.map(({ startedAt }) => startedAt.getTime());
    expect(starts.slice(1).map((start, index) => start - starts[index]!)).toEqual([1_000, 5_000, 30_000, 120_000]);
    expect(webhooks.failedAttempts).toBe(5);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(fetch).toHaveBeenCalledTimes(5);
  });

  it('says when the next attempt is due, and settles when the schedule ends', async () => {
    stubFetch(500);
    const webhooks = deliveries({ retryDelaysMs: [60_000] });
    webhooks.send(event as SandboxEvent);
    let settled = false;
    void webhooks.settled().then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(webhooks.all[0]?.retryAt).toEqual(new Date('2025-01-01T00:01:00Z'));
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(settled).toBe(true);
    expect(webhooks.all[0]).toMatchObject({ state: 'failed', retryAt: null });
  });

  it('fails an attempt at the 10 s timeout by default', async () => {
    stubFetch(undefined);
    const webhooks = deliveries({ retryDelaysMs: [] });
    webhooks.send(event as SandboxEvent);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(webhooks.all[0]).toMatchObject({ state: 'pending', attempts: [] });
    await vi.advanceTimersByTimeAsync(1);
    expect(webhooks.all[0]).toMatchObject({
      state: 'failed',
      attempts: [{ status: null, error: 'timed out after 10000 ms', durationMs: 10_000, ok: false }],
    });
  });

  it('close() mid-wait abandons the delivery: no timer left, no more attempts', async () => {
    const fetch = stubFetch(500);
    const webhooks = deliveries();
    webhooks.send(event as SandboxEvent);
    await vi.advanceTimersByTimeAsync(0);
    webhooks.close();
    await webhooks.settled();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(webhooks.all[0]?.state).toBe('abandoned');
    webhooks.send(event as SandboxEvent);
    expect(webhooks.all).toHaveLength(1);
  });
});

describe("the control surface's wait for webhooks", () => {
  it('ends at its timeout with the count still pending, or at close(), and leaves no timer behind', async () => {
    stubFetch(); // the receiver never answers
    const webhooks = deliveries({ timeoutMs: 3_600_000 });
    // The wait reads the deliveries alone.
    const controls = sandboxControls({ webhooks } as unknown as ControlParts);
    webhooks.send(event as SandboxEvent);
    await vi.advanceTimersByTimeAsync(0);
    const timedOut = controls.waitForWebhooks(1_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(vi.getTimerCount()).toBe(2); // the attempt's timeout and the wait's
    await vi.advanceTimersByTimeAsync(1);
    expect(await timedOut).toEqual({ settled: false, pending: 1, failed: [] });
    expect(vi.getTimerCount()).toBe(1);

    const closing = controls.waitForWebhooks(60_000);
    webhooks.close();
    expect(await closing).toEqual({ settled: true, pending: 0, failed: [] });
    expect(vi.getTimerCount()).toBe(0);
    expect(webhooks.all[0]?.state).toBe('abandoned');
  });
});
