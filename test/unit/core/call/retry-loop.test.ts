/**
 * A client's queue (`maxConcurrentRequests`, core/call/retry-loop.ts's Queue):
 * turns granted in the order they were asked for, a waiter whose signal aborts
 * leaving the queue at once, the free count right whatever mix of the two, and
 * long queues with aborted waiters among them. The scenarios that once looped
 * forever run in a fresh Node.js process with a time budget, so a regression
 * fails its test instead of hanging the runner at 100% CPU.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Queue } from '../../../../src/core/call/retry-loop.js';

const run = promisify(execFile);

/**
 * Runs `script` (ESM; `SDK` and `QUEUE` are the URLs of the SDK's source and
 * of retry-loop.ts, the Queue's module) in a fresh Node.js process, killed after `budgetMs`, and
 * returns its last line as JSON. A script that never ends rejects once killed.
 */
async function inFreshProcess(script: string, budgetMs: number): Promise<unknown> {
  const sdk = new URL('../../../../src/index.ts', import.meta.url).href;
  const queue = new URL('../../../../src/core/call/retry-loop.ts', import.meta.url).href;
  const prelude = `const SDK = ${JSON.stringify(sdk)};\nconst QUEUE = ${JSON.stringify(queue)};\n`;
  const args = ['--import', 'tsx', '--input-type=module', '-e', prelude + script];
  const { stdout } = await run(process.execPath, args, {
    encoding: 'utf8',
    timeout: budgetMs,
    killSignal: 'SIGKILL',
  }).catch((error: { killed?: boolean }) => {
    throw error.killed ? new Error(`the script was still running after ${budgetMs} ms, and was killed`) : error;
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/** What a turn's promise settled with so far: `granted`, `aborted`, or `waiting`. */
function watch(turn: boolean | Promise<boolean>): { state: 'granted' | 'aborted' | 'waiting' } {
  const seen = { state: 'waiting' as 'granted' | 'aborted' | 'waiting' };
  void Promise.resolve(turn).then((granted) => (seen.state = granted ? 'granted' : 'aborted'));
  return seen;
}

/** Lets every settled turn's reaction run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * 3,000 waiters behind three held turns, the odd ones aborted: a third of
 * them by one shared signal and those in the first half each by its own,
 * before any turn comes back; the rest, each by its own, once 100 turns have
 * been granted (far ahead of them). Turns are given back one at a time until
 * every waiter has settled and every turn held is back. Prints how many were
 * granted and aborted, whether only the even ones were granted and in order,
 * and which of four more turns were free.
 */
const bigQueue = `
  const { Queue } = await import(QUEUE);
  const limit = 3;
  const total = 3000;
  const queue = new Queue(limit);
  for (let i = 0; i < limit; i++) if (queue.take(undefined) !== true) throw new Error('no free turn');
  const shared = new AbortController();
  const early = [];
  const late = [];
  const granted = [];
  let aborted = 0;
  const waits = [];
  for (let i = 0; i < total; i++) {
    let signal;
    if (i % 2 === 1) {
      if (i % 3 === 0) signal = shared.signal;
      else {
        const controller = new AbortController();
        (i < total / 2 ? early : late).push(controller);
        signal = controller.signal;
      }
    }
    waits.push(Promise.resolve(queue.take(signal)).then((ok) => (ok ? granted.push(i) : aborted++)));
  }
  shared.abort();
  for (const controller of early) controller.abort();
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  await tick();
  let held = limit;
  while (held > 0) {
    const before = granted.length;
    queue.release();
    held--;
    await tick();
    held += granted.length - before;
    if (before < 100 && granted.length >= 100) {
      for (const controller of late) controller.abort();
      await tick();
    }
  }
  await Promise.all(waits);
  const free = [];
  for (let i = 0; i <= limit; i++) free.push(queue.take(undefined) === true);
  const inOrder = granted.every((n, k) => n % 2 === 0 && (k === 0 || granted[k - 1] < n));
  console.log(JSON.stringify({ granted: granted.length, aborted, inOrder, free }));`;

describe('Queue', () => {
  it('hands out free turns at once, then grants them in the order they were asked for', async () => {
    const queue = new Queue(2);
    expect(queue.take(undefined)).toBe(true);
    expect(queue.take(undefined)).toBe(true);
    const granted: number[] = [];
    const waits = [1, 2, 3].map((n) => {
      const turn = queue.take(undefined);
      expect(turn).toBeInstanceOf(Promise);
      return Promise.resolve(turn).then((ok) => ok && granted.push(n));
    });
    await settle();
    expect(granted).toEqual([]);
    queue.release();
    await settle();
    expect(granted).toEqual([1]);
    queue.release();
    queue.release();
    await Promise.all(waits);
    expect(granted).toEqual([1, 2, 3]);
    // Each release passed a turn on: 2 and 3 hold both now, and their releases free both, and no more.
    queue.release();
    queue.release();
    expect(queue.take(undefined)).toBe(true);
    expect(queue.take(undefined)).toBe(true);
    expect(queue.take(undefined)).toBeInstanceOf(Promise);
  });

  it('a waiter whose signal aborts gets no turn, and the turn given back goes to the next in line', async () => {
    const queue = new Queue(1);
    expect(queue.take(undefined)).toBe(true);
    const controller = new AbortController();
    const aborted = watch(queue.take(controller.signal));
    const next = watch(queue.take(undefined));
    controller.abort();
    await settle();
    expect(aborted.state).toBe('aborted');
    expect(next.state).toBe('waiting');
    // The one release goes to the waiter behind the aborted one.
    queue.release();
    await settle();
    expect(next.state).toBe('granted');
    // Its turn given back, the turn is free: the aborted waiter took none.
    queue.release();
    expect(queue.take(undefined)).toBe(true);
  });

  it('a signal aborted before asking takes no turn, even a free one', () => {
    const queue = new Queue(1);
    expect(queue.take(AbortSignal.abort())).toBe(false);
    expect(queue.take(undefined)).toBe(true);
  });

  it('an abort after the turn was granted changes nothing', async () => {
    const queue = new Queue(1);
    expect(queue.take(undefined)).toBe(true);
    const controller = new AbortController();
    const waiter = watch(queue.take(controller.signal));
    queue.release();
    controller.abort();
    await settle();
    expect(waiter.state).toBe('granted');
    queue.release();
    expect(queue.take(undefined)).toBe(true);
  });

  it('3,000 waiters, every other one aborted, some by one shared signal: the rest granted in order, every turn back', async () => {
    const result = await inFreshProcess(bigQueue, 15_000);
    expect(result).toEqual({ granted: 1500, aborted: 1500, inOrder: true, free: [true, true, true, false] });
  });
});

describe('maxConcurrentRequests with many aborted calls queued', () => {
  /**
   * A client whose `fetch` answers `{ pong: true }` (after 600 ms once the
   * first call has loaded ky, so every later call queues in the turn it is
   * made); `slow` calls without a signal take every turn, and 1,100 calls
   * queued behind them abort by `signal` before the first turn comes back.
   * Prints how many calls ended in each way.
   */
  const scenario = (options: string, slow: number, signal: string, before = '') => `
    const { Client } = await import(SDK);
    let ms = 0;
    const fetch = () =>
      new Promise((resolve) =>
        setTimeout(
          () => resolve(new Response(JSON.stringify({ status: 'success', data: { pong: true } }), { headers: { 'content-type': 'application/json' } })),
          ms,
        ),
      );
    const client = new Client({ apiKey: 'sk_test_send_slots', baseURL: 'https://api.lunas.example/v1', logLevel: 'off', maxRetries: 0, fetch, ${options} });
    await client.get('/v1/ping');
    ms = 600;
    ${before}
    const outcome = (call) => call.then(() => 'ok', (error) => error.name);
    const slow = Array.from({ length: ${slow} }, () => outcome(client.get('/v1/ping')));
    const queued = Array.from({ length: 1100 }, () => outcome(client.get('/v1/ping', { signal: ${signal} })));
    const count = {};
    for (const name of await Promise.all([...slow, ...queued])) count[name] = (count[name] ?? 0) + 1;
    console.log(JSON.stringify(count));`;

  it('1,100 calls with AbortSignal.timeout(250) behind two slow ones at 2 all settle', async () => {
    const result = await inFreshProcess(scenario('maxConcurrentRequests: 2', 2, 'AbortSignal.timeout(250)'), 15_000);
    expect(result).toEqual({ ok: 2, APIUserAbortError: 1100 });
  });

  it('1,100 calls sharing one signal, aborted behind 64 slow ones at the default, all settle', async () => {
    const before = 'const controller = new AbortController(); setTimeout(() => controller.abort(), 250);';
    const result = await inFreshProcess(scenario('', 64, 'controller.signal', before), 15_000);
    expect(result).toEqual({ ok: 64, APIUserAbortError: 1100 });
  });
});
