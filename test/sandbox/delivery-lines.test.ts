/** The command's lines about deliveries, from the records alone. */
import { describe, expect, it } from 'vitest';
import { deliveryLines, deliveryListing } from '../../src/testing/webhooks/delivery-lines.js';
import { fakeCharge, type WebhookAttempt, type WebhookDelivery } from '../../src/testing/index.js';

const at = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms);
const failed = (start: number, status: number | null = 500): WebhookAttempt => ({
  startedAt: at(start),
  durationMs: 20,
  status,
  error: status === null ? 'fetch failed (connect ECONNREFUSED 127.0.0.1:9)' : null,
  ok: false,
});
const delivery = (overrides: Partial<WebhookDelivery>): WebhookDelivery => ({
  event: { id: 'evt_1', type: 'payment_charge.succeeded', created_at: at(0).toISOString(), data: fakeCharge() },
  eventId: 'evt_1',
  eventType: 'payment_charge.succeeded',
  redelivery: false,
  state: 'pending',
  attempts: [],
  retryAt: null,
  ...overrides,
});

describe('deliveryLines', () => {
  it('names the wait before a retry as a person reads it', () => {
    for (const [delay, said] of [
      [1_000, '1 s'],
      [30_000, '30 s'],
      [120_000, '2 min'],
      [250, '250 ms'],
      [1_500, '1.5 s'],
    ] as const) {
      const lines = deliveryLines(delivery({ attempts: [failed(0)], retryAt: at(20 + delay) }));
      expect(lines).toEqual([
        `webhook payment_charge.succeeded evt_1 attempt 1 failed: HTTP 500 (20 ms); retrying in ${said}`,
      ]);
    }
  });

  it('prints the error of an unanswered attempt, then the delivery given up, with its attempts and time', () => {
    const lines = deliveryLines(delivery({ state: 'failed', attempts: [failed(0), failed(1_020, null)] }));
    expect(lines).toEqual([
      'webhook payment_charge.succeeded evt_1 attempt 2 failed: fetch failed (connect ECONNREFUSED 127.0.0.1:9) (20 ms); giving up',
      'webhook payment_charge.succeeded evt_1 failed: fetch failed (connect ECONNREFUSED 127.0.0.1:9), 2 attempts, 1040 ms',
    ]);
  });

  it('prints one line for a delivery on its first attempt, marking a redelivery', () => {
    const ok: WebhookAttempt = { startedAt: at(0), durationMs: 7, status: 200, error: null, ok: true };
    expect(deliveryLines(delivery({ state: 'delivered', redelivery: true, attempts: [ok] }))).toEqual([
      'webhook payment_charge.succeeded evt_1 (redelivery) delivered: HTTP 200, 1 attempt, 7 ms',
    ]);
    expect(deliveryLines(delivery({}))).toEqual([]);
  });

  it('names where a redirect pointed, escaping what a terminal would act on', () => {
    const redirected: WebhookAttempt = { ...failed(0, 302), location: 'https://shop.example/hooks\u001b[2J' };
    expect(deliveryLines(delivery({ state: 'failed', attempts: [redirected] }))).toEqual([
      'webhook payment_charge.succeeded evt_1 attempt 1 failed: HTTP 302 to https://shop.example/hooks\\u001b[2J (20 ms); giving up',
      'webhook payment_charge.succeeded evt_1 failed: HTTP 302 to https://shop.example/hooks\\u001b[2J, 1 attempt, 20 ms',
    ]);
  });

  it('escapes DEL and C1 in where a redirect pointed too: an 8-bit CSI or OSC acts on some terminals', () => {
    const location = 'https://shop.example/\u009d52;c;aGk=\u009c\u009b2J\u007f';
    const redirected: WebhookAttempt = { ...failed(0, 302), location };
    const lines = [
      ...deliveryLines(delivery({ state: 'failed', attempts: [redirected] })),
      ...deliveryListing(delivery({ state: 'failed', attempts: [redirected] })),
    ];
    expect(lines.join('\n')).not.toMatch(/[\u007f-\u009f]/);
    expect(lines[0]).toContain('HTTP 302 to https://shop.example/\\u009d52;c;aGk=\\u009c\\u009b2J\\u007f (20 ms)');
    expect(lines.at(-1)).toContain('HTTP 302 to https://shop.example/\\u009d52;c;aGk=\\u009c\\u009b2J\\u007f (20 ms)');
  });
});
