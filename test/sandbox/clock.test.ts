/**
 * Time that moves: a pending charge fails at its expires_at, read or not, on
 * the real clock, on fake timers and through advanceClock / expireCharge, in
 * one sweep in time order. Each test is written once and run against
 * startSandbox (over HTTP) and createSandbox (in process).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { SandboxError, type InProcessSandboxOptions, type Sandbox } from '../../src/testing/index.js';
import { rejection } from '../helpers/rejection.js';
import { NODE_WITH_TSX } from '../helpers/tsx.js';
import { eventually } from '../helpers/waiting.js';
import { call, createCharge, inProcessSandbox, sandbox, validCharge } from './helpers.js';
import { webhookReceiver } from './webhook-receiver.js';

const T0 = new Date('2025-03-01T10:00:00.000Z');
/** The sandbox's latest time, written out: what its docs promise. */
const LATEST = Date.parse('9999-01-01T00:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000).toISOString();
const MINUTE = 60_000;

const ENTRIES = [
  ['startSandbox', (options?: InProcessSandboxOptions) => sandbox(options)],
  ['createSandbox', async (options?: InProcessSandboxOptions) => inProcessSandbox(options)],
] as const;

/** Creates a charge expiring at `expiresAt` (ISO) through the API; its id. */
const chargeExpiringAt = async (box: Sandbox, expiresAt: string): Promise<string> =>
  (await createCharge(box, { ...validCharge, expires_at: expiresAt })).body.data.id;

const failedIds = (box: Sandbox) =>
  box.events.filter(({ type }) => type === 'payment_charge.failed').map(({ data }) => data.id);

afterEach(() => {
  vi.useRealTimers();
});

describe.each(ENTRIES)('%s: time that moves', (_entry, open) => {
  it('expires a pending charge at its expires_at on the real clock, unread, and delivers payment_charge.failed', async () => {
    const hook = await webhookReceiver();
    const box = await open({ webhookUrl: hook.url });
    const expiresAt = new Date(Date.now() + 300).toISOString();
    const id = await chargeExpiringAt(box, expiresAt);
    await eventually(() => hook.types().includes('payment_charge.failed'));
    const failed = box.events.at(-1);
    expect(failed).toMatchObject({ type: 'payment_charge.failed', created_at: expiresAt });
    expect(failed?.data).toMatchObject({ id, status: 'failed', expires_at: expiresAt, updated_at: expiresAt });
    expect(box.requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['POST /v1/payments/charges']);
  });

  it('advanceClock moves the clock (now() plus every advance) and fires what fell due, oldest first, before it resolves', async () => {
    const hook = await webhookReceiver();
    const box = await open({ now: () => T0, webhookUrl: hook.url });
    const late = await chargeExpiringAt(box, at(10));
    const early = await chargeExpiringAt(box, at(5));
    const later = await chargeExpiringAt(box, at(60));

    expect(await box.advanceClock(4 * MINUTE)).toEqual([]);
    const fired = await box.advanceClock(26 * MINUTE);
    expect(fired.map(({ type, created_at, data }) => [type, created_at, data.id, data.status])).toEqual([
      ['payment_charge.failed', at(5), early, 'failed'],
      ['payment_charge.failed', at(10), late, 'failed'],
    ]);
    expect(box.events.slice(-2)).toEqual(fired);
    expect(box.charges().map(({ id, status }) => [id, status])).toEqual([
      [late, 'failed'],
      [early, 'failed'],
      [later, 'pending'],
    ]);
    // The clock stays moved: a new charge is created at now() plus the 30 minutes advanced.
    expect((await createCharge(box)).body.data.created_at).toBe(at(30));
    await box.webhooksSettled();
    const deliveredFailures = box.deliveries.filter(({ eventType }) => eventType === 'payment_charge.failed');
    expect(deliveredFailures.map(({ event }) => event)).toEqual(fired);
    expect(deliveredFailures.map(({ state }) => state)).toEqual(['delivered', 'delivered']);
  });

  it('shares one sweep with reads: a read fails everything due in time order, and nothing is recorded twice', async () => {
    let now = T0;
    const box = await open({ now: () => now });
    const first = await chargeExpiringAt(box, at(5));
    const second = await chargeExpiringAt(box, at(10));
    now = new Date(at(20));
    // Reading the later charge first still records the earlier one's failure first.
    expect((await call(box, 'GET', `/v1/payments/charges/${second}`)).body.data.status).toBe('failed');
    expect(failedIds(box)).toEqual([first, second]);
    expect(box.events.slice(-2).map(({ created_at }) => created_at)).toEqual([at(5), at(10)]);
    expect(await box.advanceClock(MINUTE)).toEqual([]);
    await call(box, 'GET', '/v1/payments/charges');
    await expect(box.expireCharge(first)).rejects.toThrow(/is failed/);
    expect(failedIds(box)).toEqual([first, second]);
  });

  it('expireCharge expires a pending charge now, and refuses an unknown or settled one saying why', async () => {
    const hook = await webhookReceiver();
    const box = await open({ now: () => T0, webhookUrl: hook.url });
    const id = await chargeExpiringAt(box, at(15));
    await box.advanceClock(2 * MINUTE);
    const expired = await box.expireCharge(id);
    expect(expired).toMatchObject({ id, status: 'failed', paid_at: null, expires_at: at(2), updated_at: at(2) });
    expect(box.events.at(-1)).toMatchObject({ type: 'payment_charge.failed', created_at: at(2), data: expired });
    expect((await call(box, 'GET', `/v1/payments/charges/${id}`)).body.data).toEqual(expired);
    expect(await box.advanceClock(60 * MINUTE)).toEqual([]);

    const unknown = await rejection(box.expireCharge('ch_missing'), SandboxError);
    expect(unknown.message).toBe('No charge with id "ch_missing"');
    const paid = (await createCharge(box)).body.data.id;
    await box.payCharge(paid);
    const settled = await rejection(box.expireCharge(paid), SandboxError);
    expect(settled.message).toBe(`Charge ${paid} is success, not pending: only a pending charge can expire`);
    await box.webhooksSettled();
    expect(hook.types().filter((type) => type === 'payment_charge.failed')).toHaveLength(1);
  });

  it('advanceClock refuses anything but a whole, positive number of milliseconds, and the clock stays put', async () => {
    const box = await open({ now: () => T0 });
    for (const [ms, shown] of [
      [0, '0'],
      [-1, '-1'],
      [1.5, '1.5'],
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      ['10', '"10"'],
      [undefined, 'undefined'],
    ] as const) {
      const error = await rejection(box.advanceClock(ms as number), TypeError);
      expect(error.message).toBe(`ms must be a positive whole number of milliseconds (got ${shown})`);
    }
    expect(box.now()).toBe(T0.toISOString());
    expect((await createCharge(box)).body.data.created_at).toBe(T0.toISOString());
  });

  it('now() is the sandbox’s time, the now option’s plus every advance, and GET /_sandbox/clock answers it', async () => {
    const box = await open({ now: () => T0 });
    expect(box.now()).toBe(T0.toISOString());
    await box.advanceClock(90 * MINUTE);
    expect(box.now()).toBe(at(90));
    const clock = await call(box, 'GET', '/_sandbox/clock');
    expect([clock.status, clock.body]).toEqual([200, { status: 'success', data: { now: at(90) } }]);
    expect((await call(box, 'GET', '/_sandbox/clock', { key: null })).status).toBe(401);
    expect((await createCharge(box)).body.data.created_at).toBe(box.now());

    const real = await open();
    const before = Date.now();
    const read = Date.parse(real.now());
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThanOrEqual(Date.now());
  });

  it('stops at its latest time, 9999-01-01: past it advanceClock refuses, and up to it every call still works', async () => {
    const box = await open({ now: () => T0 });
    const room = LATEST - T0.getTime();
    // Just short of the last Date, once accepted: then every expiry overflowed, and creates, lists and GET / failed for good.
    const error = await rejection(box.advanceClock(8.64e15 - T0.getTime() - 1), TypeError);
    expect(error.message).toBe(
      "ms would move the sandbox's clock past its latest time, 9999-01-01T00:00:00.000Z: " +
        `from ${T0.toISOString()} it can move at most ${room} ms`,
    );
    await expect(box.advanceClock(room + 1)).rejects.toThrow(TypeError);
    expect(box.now()).toBe(T0.toISOString());

    await box.advanceClock(room);
    expect(box.now()).toBe('9999-01-01T00:00:00.000Z');
    await expect(box.advanceClock(1)).rejects.toThrow(/can move at most 0 ms/);
    const qris = await createCharge(box);
    expect([qris.status, qris.body.data?.expires_at]).toEqual([200, '9999-01-01T00:15:00.000Z']);
    const va = await createCharge(box, { payment_method: 'virtual_account', amount: 50_000 });
    expect([va.status, va.body.data?.expires_at]).toEqual([200, '9999-01-02T00:00:00.000Z']);
    const own = await createCharge(box, { ...validCharge, expires_at: '9999-12-31T23:59:59.999Z' });
    expect(own.status, own.text).toBe(200);
    expect((await call(box, 'GET', '/v1/payments/charges')).body.total_items).toBe(3);
    expect((await call(box, 'GET', `/v1/payments/charges/${qris.body.data.id}`)).status).toBe(200);
    const page = await call(box, 'GET', '/', { key: null });
    expect([page.status, page.text]).toEqual([200, expect.stringContaining('9999-01-01 00:00:00')]);
    expect(box.charges().map(({ status }) => status)).toEqual(['pending', 'pending', 'pending']);
    await box.payCharge(qris.body.data.id);
    expect(box.events.at(-1)?.created_at).toBe('9999-01-01T00:00:00.000Z');
  });

  it('refuses a now option outside its range when it starts, and says so when that clock moves past it later', async () => {
    for (const given of [
      new Date(8.64e15),
      new Date('9999-01-01T00:00:00.001Z'),
      new Date(Date.parse('-000001-12-31T00:00:00Z')),
    ]) {
      const error = await rejection(open({ now: () => given }), TypeError);
      expect(error.message).toBe(
        `The sandbox's time (the now option's ${given.toISOString()}) must fall between ` +
          '0000-01-01T00:00:00.000Z and 9999-01-01T00:00:00.000Z',
      );
    }
    for (const [given, shown] of [
      [new Date(Number.NaN), 'an invalid Date'],
      ['2025-03-01T10:00:00Z', '"2025-03-01T10:00:00Z"'],
      [Date.parse('2025-03-01T10:00:00Z'), String(Date.parse('2025-03-01T10:00:00Z'))],
    ] as const) {
      const error = await rejection(open({ now: () => given as Date }), TypeError);
      expect(error.message).toBe(`The now option must return a valid Date (got ${shown})`);
    }

    let now = new Date('9998-12-31T23:00:00.000Z');
    const box = await open({ now: () => now });
    await box.advanceClock(30 * MINUTE);
    now = new Date('9998-12-31T23:45:00.000Z');
    expect(() => box.now()).toThrow(
      new TypeError(
        "The sandbox's time (the now option's 9998-12-31T23:45:00.000Z plus the 1800000 ms advanced) must fall " +
          'between 0000-01-01T00:00:00.000Z and 9999-01-01T00:00:00.000Z',
      ),
    );
  });

  it('expires on fake timers: moving them past expires_at fails the charge, unread', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const box = await open();
    const id = (await createCharge(box)).body.data.id;
    vi.advanceTimersByTime(15 * MINUTE - 1);
    expect(failedIds(box)).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(failedIds(box)).toEqual([id]);
    expect(box.events.at(-1)?.created_at).toBe(at(15));
  });

  it('leaves no timer behind after close(), and its helpers refuse', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const box = await open();
    await createCharge(box);
    expect(vi.getTimerCount()).toBe(1);
    await box.close();
    expect(vi.getTimerCount()).toBe(0);
    await expect(box.advanceClock(1)).rejects.toThrow(SandboxError);
    await expect(box.expireCharge('ch_missing')).rejects.toThrow(/closed/);
    expect(() => box.charges()).toThrow(SandboxError);
  });
});

describe.each(ENTRIES)('%s: a charge’s own expires_at', (_entry, open) => {
  /** The field errors of a create refused with 400. */
  async function refusedFields(box: Sandbox, body: Record<string, unknown>): Promise<Record<string, string[]>> {
    const response = await createCharge(box, body);
    expect(response.status, response.text).toBe(400);
    expect(response.body.status).toBe('fail');
    return response.body.data;
  }

  it('must come after the sandbox’s time: at or before it, the create is refused with a field error showing that time', async () => {
    const box = await open({ now: () => T0 });
    const message = `Expires at must be after the sandbox's current time, ${T0.toISOString()}`;
    for (const expiresAt of [T0.toISOString(), at(-1), '2025-03-01T17:00:00+07:00']) {
      expect(await refusedFields(box, { ...validCharge, expires_at: expiresAt }), expiresAt).toEqual({
        expires_at: [message],
      });
    }
    // Reported with every other failure, as every field error is.
    expect(await refusedFields(box, { payment_method: 'qris', amount: 0, expires_at: at(-60) })).toEqual({
      amount: ['Amount must be greater than 0'],
      expires_at: [message],
    });
    const created = await createCharge(box, { ...validCharge, expires_at: '2025-03-01T10:00:00.001Z' });
    expect([created.status, created.body.data?.expires_at]).toEqual([200, '2025-03-01T10:00:00.001Z']);
    expect(box.events.map(({ type }) => type)).toEqual(['payment_charge.created']);
  });

  it('after advanceClock, an expires_at from the real clock that the sandbox has passed is refused, not born expired', async () => {
    const box = await open();
    await box.advanceClock(24 * 60 * MINUTE);
    const realTomorrowMorning = new Date(Date.now() + 12 * 60 * MINUTE).toISOString();
    const fields = await refusedFields(box, { ...validCharge, expires_at: realTomorrowMorning });
    expect(fields.expires_at).toEqual([
      expect.stringMatching(/^Expires at must be after the sandbox's current time, /),
    ]);
    const shownTime = Date.parse(fields.expires_at![0]!.split(', ').at(-1)!);
    expect(shownTime).toBeGreaterThan(Date.parse(realTomorrowMorning));
    expect(box.charges()).toEqual([]);

    const fromSandbox = new Date(Date.parse(box.now()) + 12 * 60 * MINUTE).toISOString();
    const created = await createCharge(box, { ...validCharge, expires_at: fromSandbox });
    expect(created.status, created.text).toBe(200);
    expect(Date.parse(created.body.data.expires_at)).toBeGreaterThan(Date.parse(created.body.data.created_at));
    expect(box.charges()[0]?.status).toBe('pending');
  });

  it('must fall within year 9999, so every time served keeps four digits; seedCharges keeps both rules', async () => {
    const box = await open({ now: () => T0 });
    for (const expiresAt of ['9999-12-31T23:59:59-00:01', '9999-12-31T23:00:00-23:59']) {
      expect(await refusedFields(box, { ...validCharge, expires_at: expiresAt }), expiresAt).toEqual({
        expires_at: ['Expires at must be at most 9999-12-31T23:59:59.999Z'],
      });
    }
    expect(() => box.seedCharges(2, { expires_at: at(-5) })).toThrow(
      new TypeError(
        `Invalid charge template: {"expires_at":["Expires at must be after the sandbox's current time, ${T0.toISOString()}"]}`,
      ),
    );
    expect(box.charges()).toEqual([]);
    box.seedCharges(1, { expires_at: at(5) });
    expect(box.charges().map(({ expires_at }) => expires_at)).toEqual([at(5)]);
  });
});

describe('createSandbox: time that moves', () => {
  it("moves with vitest's default fake timers, the timer re-armed for each next expiry", async () => {
    vi.useFakeTimers({ now: T0 });
    const box = inProcessSandbox();
    const first = await chargeExpiringAt(box, at(5));
    const second = await chargeExpiringAt(box, at(20));
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(failedIds(box)).toEqual([first]);
    await box.advanceClock(10 * MINUTE); // 10:10 on the fake clock, 10:20 for the sandbox
    expect(failedIds(box)).toEqual([first, second]);
    expect(box.events.at(-1)?.created_at).toBe(at(20));
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the expiry timer', () => {
  it('keeps no process alive: a sandbox left open with a charge pending for 15 minutes lets node exit', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'lunas-expiry-'));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    const program = join(folder, 'left-open.mts');
    await writeFile(
      program,
      `
      import { createSandbox } from ${JSON.stringify(resolve('src/testing/index.ts'))};
      const box = createSandbox();
      const response = await box.fetch(box.url + '/v1/payments/charges', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + box.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ payment_method: 'qris', amount: 10000 }),
      });
      console.log(response.status);
    `,
    );
    const [node, ...loader] = NODE_WITH_TSX;
    const child = spawn(node, [...loader, program], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code, signal] = await once(child, 'exit');
    clearTimeout(timeout);
    expect({ code, signal, stdout: stdout.trim() }).toEqual({ code: 0, signal: null, stdout: '200' });
  }, 30_000);
});
