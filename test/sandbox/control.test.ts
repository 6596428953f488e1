/**
 * The control surface under /_sandbox/: the handle's helpers over HTTP, behind
 * the API key, answering exactly what the helpers return. Each test is written
 * once and run against startSandbox (real HTTP on 127.0.0.1) and createSandbox
 * (its fetch).
 */
import { describe, expect, it } from 'vitest';
import type { InProcessSandboxOptions, Sandbox } from '../../src/testing/index.js';
import { VERSION } from '../../src/version.js';
import { call, createCharge, createTransfer, inProcessSandbox, sandbox, type CallOptions } from './helpers.js';
import { webhookReceiver } from './webhook-receiver.js';
import { sleep } from '../helpers/waiting.js';

const T0 = new Date('2025-03-01T10:00:00.000Z');

const ENTRIES = [
  ['startSandbox', (options?: InProcessSandboxOptions) => sandbox(options)],
  ['createSandbox', async (options?: InProcessSandboxOptions) => inProcessSandbox(options)],
] as const;

/** What a helper's result is once sent as JSON (Dates become ISO strings). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

const control = (box: Sandbox, method: 'GET' | 'POST', path: string, options?: CallOptions) =>
  call(box, method, `/_sandbox/${path}`, options);

/** The `data` of a successful control answer; fails the test on anything else. */
async function data(box: Sandbox, method: 'GET' | 'POST', path: string, options?: CallOptions): Promise<unknown> {
  const response = await control(box, method, path, options);
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('lunas-sandbox-version')).toBe(VERSION);
  expect(response.body.status).toBe('success');
  return response.body.data;
}

describe.each(ENTRIES)('%s: the control surface', (_entry, open) => {
  it('serves charges, events, deliveries, transfers and a balance exactly as the helpers return them', async () => {
    const hook = await webhookReceiver();
    const box = await open({ webhookUrl: hook.url });
    const paid = (await createCharge(box)).body.data.id;
    await createCharge(box, { payment_method: 'virtual_account', amount: '25000.50' });
    await box.payCharge(paid);
    await createTransfer(box, { destination_account_id: 'acc_partner', amount: '1500.25', currency: 'idr' });
    await box.webhooksSettled();

    expect(await data(box, 'GET', 'charges')).toEqual(asJson(box.charges()));
    expect(box.charges()).toHaveLength(2);
    expect(await data(box, 'GET', 'events')).toEqual(asJson(box.events));
    expect(await data(box, 'GET', 'deliveries')).toEqual(asJson(box.deliveries));
    expect(box.deliveries).toHaveLength(3);
    expect(await data(box, 'GET', 'transfers')).toEqual(asJson(box.transfers()));
    expect(await data(box, 'GET', 'balances/acc_partner')).toBe('1500.25');
    expect(await data(box, 'GET', 'balances/acc_merchant')).toBe(box.balance('acc_merchant'));
    const unknown = await control(box, 'GET', 'balances/acc_nobody');
    expect([unknown.status, unknown.body]).toEqual([
      404,
      { status: 'error', message: 'No account with id "acc_nobody"' },
    ]);
  });

  it('pays, fails and expires a charge as the helpers do, refusing an unknown or settled one', async () => {
    const box = await open({ now: () => T0 });
    const [toPay, toFail, toExpire] = [
      (await createCharge(box)).body.data.id,
      (await createCharge(box)).body.data.id,
      (await createCharge(box)).body.data.id,
    ];
    const byId = (id: string) => box.charges().find((charge) => charge.id === id);

    expect(await data(box, 'POST', `charges/${toPay}/pay`)).toEqual(asJson(byId(toPay)));
    expect(byId(toPay)?.status).toBe('success');
    expect(await data(box, 'POST', `charges/${toFail}/fail`)).toEqual(asJson(byId(toFail)));
    expect(byId(toFail)?.status).toBe('failed');
    expect(await data(box, 'POST', `charges/${toExpire}/expire`, { body: {} })).toEqual(asJson(byId(toExpire)));
    expect(byId(toExpire)).toMatchObject({ status: 'failed', expires_at: T0.toISOString() });
    expect(box.events.slice(-3).map(({ type, data: { id } }) => [type, id])).toEqual([
      ['payment_charge.succeeded', toPay],
      ['payment_charge.failed', toFail],
      ['payment_charge.failed', toExpire],
    ]);

    const settled = await control(box, 'POST', `charges/${toPay}/expire`);
    expect([settled.status, settled.body.message]).toEqual([
      409,
      `Charge ${toPay} is success, not pending: only a pending charge can expire`,
    ]);
    const missing = await control(box, 'POST', 'charges/ch_missing/pay');
    expect([missing.status, missing.body.message]).toEqual([404, 'No charge with id "ch_missing"']);
    const extra = await control(box, 'POST', `charges/${toPay}/fail`, { body: { reason: 'x' } });
    expect([extra.status, extra.body.status]).toEqual([400, 'error']);
    expect(extra.body.message).toContain('reason');
    expect(box.events).toHaveLength(6);
  });

  it('redelivers an event with times and concurrently, refusing bad options, an unknown event and no webhook URL', async () => {
    const hook = await webhookReceiver();
    const box = await open({ webhookUrl: hook.url });
    await createCharge(box);
    await box.webhooksSettled();
    const [created] = box.events;
    expect(await data(box, 'POST', `events/${created?.id}/redeliver`, { body: { times: 2, concurrently: true } })).toBe(
      null,
    );
    await box.webhooksSettled();
    expect(box.deliveries.map(({ eventId, redelivery }) => [eventId, redelivery])).toEqual([
      [created?.id, false],
      [created?.id, true],
      [created?.id, true],
    ]);
    expect(hook.received).toHaveLength(3);

    const badTimes = await control(box, 'POST', `events/${created?.id}/redeliver`, { body: { times: 0 } });
    expect([badTimes.status, badTimes.body.message]).toEqual([400, 'times must be an integer from 1 to 100']);
    const unknown = await control(box, 'POST', 'events/evt_missing/redeliver');
    expect([unknown.status, unknown.body.message]).toEqual([
      404,
      'No event "evt_missing" was recorded by this sandbox',
    ]);
    expect(box.deliveries).toHaveLength(3);

    const quiet = await open();
    await createCharge(quiet);
    const noUrl = await control(quiet, 'POST', `events/${quiet.events[0]?.id}/redeliver`);
    expect(noUrl.status).toBe(409);
    expect(noUrl.body.message).toMatch(/needs a webhook URL/);
  });

  it('advances the clock, answering the events that fell due, and refuses a body without a whole ms', async () => {
    const box = await open({ now: () => T0 });
    const id = (await createCharge(box)).body.data.id;
    for (const body of [{}, { ms: -1 }, { ms: '60000' }, { ms: 1, by: 'minutes' }]) {
      const refused = await control(box, 'POST', 'clock/advance', { body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    const notJson = await control(box, 'POST', 'clock/advance', {
      raw: 'ms=1',
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.status).toBe(415);
    expect(await data(box, 'POST', 'clock/advance', { body: { ms: 60_000 } })).toEqual([]);
    const fired = await data(box, 'POST', 'clock/advance', { body: { ms: 14 * 60_000 } });
    expect(fired).toEqual(asJson(box.events.slice(-1)));
    expect(box.events.at(-1)).toMatchObject({ type: 'payment_charge.failed', data: { id, status: 'failed' } });
  });

  it('waits for webhooks: at once when none is pending, until the receiver answers, or timeoutMs with the count', async () => {
    const hook = await webhookReceiver((index) => (index === 0 ? 'hold' : 204));
    const box = await open({ webhookUrl: hook.url });
    expect(await data(box, 'POST', 'webhooks/wait', { body: { timeoutMs: 0 } })).toEqual({
      settled: true,
      pending: 0,
      failed: [],
    });
    const id = (await createCharge(box)).body.data.id;
    // The receiver holds payment_charge.created until it answers a later request.
    expect(await data(box, 'POST', 'webhooks/wait', { body: { timeoutMs: 50 } })).toEqual({
      settled: false,
      pending: 1,
      failed: [],
    });
    let answered = false;
    const waiting = data(box, 'POST', 'webhooks/wait').then((result) => {
      answered = true;
      return result;
    });
    await sleep(150);
    expect(answered).toBe(false);
    await box.payCharge(id);
    expect(await waiting).toEqual({ settled: true, pending: 0, failed: [] });
    expect(box.deliveries.map(({ state }) => state)).toEqual(['delivered', 'delivered']);
  });

  it('refuses a wait whose timeoutMs is not a whole number of milliseconds up to an hour, or misspelt', async () => {
    const box = await open();
    for (const [body, message] of [
      [{ timeoutMs: -1 }, 'timeoutMs must be an integer from 0 to 3600000 (an hour)'],
      [{ timeoutMs: 3_600_001 }, 'timeoutMs must be an integer from 0 to 3600000 (an hour)'],
      [{ timeoutMs: '5' }, 'timeoutMs must be an integer from 0 to 3600000 (an hour)'],
      [{ timeout: 5 }, 'Unknown sandbox option "timeout": did you mean "timeoutMs"?'],
    ] as const) {
      const refused = await control(box, 'POST', 'webhooks/wait', { body });
      expect([refused.status, refused.body], JSON.stringify(body)).toEqual([400, { status: 'error', message }]);
      expect(refused.headers.get('lunas-sandbox-version')).toBe(VERSION);
    }
  });

  it('ends a wait when the sandbox closes, rather than holding it to its timeout', async () => {
    const hook = await webhookReceiver(() => 'hang');
    const box = await open({ webhookUrl: hook.url, webhookTimeoutMs: 60_000 });
    await createCharge(box);
    const waiting = control(box, 'POST', 'webhooks/wait', { body: { timeoutMs: 60_000 } });
    await sleep(100);
    const closing = box.close();
    await expect(waiting).rejects.toThrow(TypeError);
    await closing;
    expect(box.deliveries.map(({ state }) => state)).toEqual(['abandoned']);
  });

  it('arms a fault the API then shows, "Infinity" until cleared, and refuses what inject refuses', async () => {
    const box = await open();
    expect(await data(box, 'POST', 'faults', { body: { kind: 'status', status: 503, path: '/v1/payouts' } })).toEqual({
      kind: 'status',
      status: 503,
      path: '/v1/payouts',
      times: 1,
    });
    expect((await call(box, 'GET', '/v1/payments/methods')).status).toBe(200);
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(503);
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(200);

    expect(await data(box, 'POST', 'faults', { body: { kind: 'html', status: 502, times: 'Infinity' } })).toEqual({
      kind: 'html',
      status: 502,
      times: 'Infinity',
    });
    for (let i = 0; i < 3; i++) expect((await call(box, 'GET', '/v1/payouts')).status).toBe(502);
    expect(await data(box, 'POST', 'faults/clear')).toBe(null);
    expect(await data(box, 'POST', 'faults', { body: { kind: 'status', status: 429, every: 2, times: 2 } })).toEqual({
      kind: 'status',
      status: 429,
      every: 2,
      times: 2,
    });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(box, 'GET', '/v1/payouts')).status);
    expect(statuses).toEqual([200, 429, 200, 429, 200]);
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(200);

    for (const [body, message] of [
      [{ kind: 'status', status: 99 }, 'Fault status: status must be an integer from 200 to 599'],
      [{ kind: 'explode' }, 'Fault kind must be one of: status, html, delay, hang, drop, lost-response, malformed'],
      [{ kind: 'drop', times: 0 }, 'Fault times must be a positive integer or Infinity'],
      [{ kind: 'drop', every: 0 }, 'Fault every must be a positive integer: 10 hits one in ten matching requests'],
      [{ kind: 'drop', tims: 2 }, 'Unknown drop fault field "tims": did you mean "times"?'],
      [
        { kind: 'drop', times: null },
        'times must be a whole number of at least 1, or "Infinity" (JSON.stringify writes Infinity as null)',
      ],
    ] as const) {
      const refused = await control(box, 'POST', 'faults', { body });
      expect([refused.status, refused.body.message], JSON.stringify(body)).toEqual([400, message]);
    }
    const extra = await control(box, 'POST', 'faults/clear', { body: { all: true } });
    expect(extra.status).toBe(400);
    // Nothing refused was armed.
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(200);
  });

  it('is never reachable without the API key, and answers 404 and 405 like the API', async () => {
    const box = await open();
    const id = (await createCharge(box)).body.data.id;
    for (const [method, path] of [
      ['POST', `charges/${id}/pay`],
      ['POST', `charges/${id}/expire`],
      ['POST', 'clock/advance'],
      ['GET', 'events'],
      ['GET', 'balances/acc_merchant'],
      ['GET', 'nowhere'],
      ['POST', 'webhooks/wait'],
      ['POST', 'faults'],
      ['POST', 'faults/clear'],
    ] as const) {
      for (const key of [null, 'sk_test_wrong']) {
        const refused = await control(box, method, path, { key, ...(method === 'POST' ? { body: { ms: 1 } } : {}) });
        expect([refused.status, refused.body], `${method} ${path} with ${key}`).toEqual([
          401,
          { status: 'error', message: 'Invalid or missing API key' },
        ]);
      }
    }
    expect(box.charges()[0]?.status).toBe('pending');
    expect(box.events).toHaveLength(1);
    expect((await control(box, 'GET', 'nowhere')).status).toBe(404);
    const wrongMethod = await control(box, 'GET', `charges/${id}/pay`);
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('is neither faulted nor recorded: it is the sandbox’s own channel, not the service’s traffic', async () => {
    const box = await open();
    box.inject({ kind: 'status', status: 503, times: Number.POSITIVE_INFINITY });
    expect(await data(box, 'GET', 'events')).toEqual([]);
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(503);
    expect(box.requests.map(({ path }) => path)).toEqual(['/v1/payouts']);
  });
});
