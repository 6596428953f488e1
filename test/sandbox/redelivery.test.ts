/** Duplicates, concurrency and out-of-order on purpose: redeliver, holdWebhooks and releaseWebhooks. */
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/testing/index.js';
import { createCharge, sandbox } from './helpers.js';
import { webhookReceiver } from './webhook-receiver.js';

describe('redeliver', () => {
  it('sends a recorded event again as a new delivery, with the same bytes', async () => {
    const hook = await webhookReceiver();
    const box = await sandbox({ webhookUrl: hook.url });
    await createCharge(box);
    await box.webhooksSettled();
    const [event] = box.events;
    box.redeliver(event!.id);
    await box.webhooksSettled();
    expect(box.deliveries.map(({ eventId, redelivery, state }) => [eventId, redelivery, state])).toEqual([
      [event!.id, false, 'delivered'],
      [event!.id, true, 'delivered'],
    ]);
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1]?.text).toBe(hook.received[0]?.text);
    expect(hook.received[1]?.event).toEqual(event);
  });

  it('makes duplicates concurrently: both are in flight at once', async () => {
    // The first request is held until the second arrives, which only concurrent deliveries do.
    const hook = await webhookReceiver((index) => (index === 1 ? 'hold' : 204));
    const box = await sandbox({ webhookUrl: hook.url, webhookTimeoutMs: 60_000 });
    await createCharge(box);
    await box.webhooksSettled();
    box.redeliver(box.events[0]!.id, { times: 2, concurrently: true });
    await box.webhooksSettled();
    expect(box.deliveries.slice(1).map(({ state, attempts }) => [state, attempts.length])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
    expect(hook.received.map(({ event }) => event.id)).toEqual(Array(3).fill(box.events[0]!.id));
  });

  it('makes duplicates one after another by default, each after the previous one settled', async () => {
    const hook = await webhookReceiver((index) => (index === 1 ? 500 : 204));
    const box = await sandbox({ webhookUrl: hook.url, webhookRetryDelaysMs: [5] });
    await createCharge(box);
    await box.webhooksSettled();
    box.redeliver(box.events[0]!.id, { times: 2 });
    // Both are recorded at once as pending; the second waits for the first, retry included.
    expect(box.deliveries.slice(1).map(({ state }) => state)).toEqual(['pending', 'pending']);
    await box.webhooksSettled();
    expect(box.deliveries.slice(1).map(({ attempts }) => attempts.map(({ status }) => status))).toEqual([
      [500, 204],
      [204],
    ]);
  });

  it('refuses an unknown event with SandboxError and bad options with TypeError, sending nothing', async () => {
    const hook = await webhookReceiver();
    const box = await sandbox({ webhookUrl: hook.url });
    await createCharge(box);
    await box.webhooksSettled();
    const id = box.events[0]!.id;
    expect(() => box.redeliver('evt_unknown')).toThrow(SandboxError);
    expect(() => box.redeliver('evt_unknown')).toThrow('No event "evt_unknown" was recorded by this sandbox');
    const untyped = box.redeliver as (...args: unknown[]) => void;
    expect(() => untyped(42)).toThrow(TypeError);
    expect(() => untyped(id, { times: 0 })).toThrow('times must be an integer from 1 to 100');
    expect(() => untyped(id, { times: 1.5 })).toThrow(TypeError);
    expect(() => untyped(id, { concurrently: 'yes' })).toThrow('concurrently must be a boolean');
    expect(() => untyped(id, { concurrent: true })).toThrow(/did you mean "concurrently"\?/);
    expect(() => untyped(id, 2)).toThrow('options must be an object');
    expect(box.deliveries).toHaveLength(1);
    expect(hook.received).toHaveLength(1);
  });
});

describe('holdWebhooks and releaseWebhooks', () => {
  it('delivers held events newest first with order: reversed, one at a time', async () => {
    const hook = await webhookReceiver();
    const box = await sandbox({ webhookUrl: hook.url });
    box.holdWebhooks();
    const { id } = (await createCharge(box)).body.data;
    await box.payCharge(id);
    await box.webhooksSettled(); // held events are not waited for
    expect(box.deliveries).toEqual([]);
    expect(hook.received).toEqual([]);

    box.releaseWebhooks({ order: 'reversed' });
    await box.webhooksSettled();
    expect(hook.types()).toEqual(['payment_charge.succeeded', 'payment_charge.created']);
    expect(box.deliveries.map(({ eventType, state }) => [eventType, state])).toEqual([
      ['payment_charge.succeeded', 'delivered'],
      ['payment_charge.created', 'delivered'],
    ]);
  });

  it('delivers in recorded order by default, and stops holding', async () => {
    const hook = await webhookReceiver();
    const box = await sandbox({ webhookUrl: hook.url });
    box.holdWebhooks();
    const { id } = (await createCharge(box)).body.data;
    await box.payCharge(id);
    box.releaseWebhooks();
    await box.webhooksSettled();
    expect(hook.types()).toEqual(['payment_charge.created', 'payment_charge.succeeded']);
    await createCharge(box); // no longer held
    await box.webhooksSettled();
    expect(hook.received).toHaveLength(3);
  });

  it('releases all at once with concurrently: true', async () => {
    const hook = await webhookReceiver((index) => (index === 0 ? 'hold' : 204));
    const box = await sandbox({ webhookUrl: hook.url, webhookTimeoutMs: 60_000 });
    box.holdWebhooks();
    const { id } = (await createCharge(box)).body.data;
    await box.payCharge(id);
    box.releaseWebhooks({ concurrently: true });
    await box.webhooksSettled();
    expect(box.deliveries.map(({ state, attempts }) => [state, attempts.length])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
  });

  it('checks its options and drops held events at close', async () => {
    const hook = await webhookReceiver();
    const box = await sandbox({ webhookUrl: hook.url });
    box.holdWebhooks();
    await createCharge(box);
    const untyped = box.releaseWebhooks as (options: unknown) => void;
    expect(() => untyped({ order: 'shuffled' })).toThrow("order must be 'recorded' or 'reversed'");
    expect(() => untyped({ ordr: 'reversed' })).toThrow(/did you mean "order"\?/);
    expect(() => untyped({ concurrently: 1 })).toThrow(TypeError);
    await box.close();
    await box.webhooksSettled();
    expect(box.deliveries).toEqual([]);
    expect(hook.received).toEqual([]);
  });
});
