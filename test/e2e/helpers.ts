/**
 * Shared set-up of the end-to-end suite: a real sandbox on 127.0.0.1 and a
 * client pointed at it, both imported by package name as merchants do.
 */
import { afterEach, expect, type TestContext } from 'vitest';
import { Client, type ClientOptions } from 'lunas-sdk';
import { startSandbox, type Sandbox, type SandboxOptions } from 'lunas-sdk/testing';

const running: Sandbox[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

export interface Harness {
  sandbox: Sandbox;
  client: Client;
  /** `x-request-id` of every response the client's fetch received, in order ('' when absent). */
  requestIds: string[];
}

/**
 * Starts a sandbox that is closed after the current test, and a client for it.
 * The client's fetch is the global one, wrapped only to note each response's
 * `x-request-id` so tests can compare it with what the SDK reports.
 *
 * Concurrent tests pass their context's `onTestFinished`, so each closes only
 * its own sandbox.
 */
export async function start(
  options?: SandboxOptions,
  clientOptions: ClientOptions = {},
  onTestFinished?: TestContext['onTestFinished'],
): Promise<Harness> {
  const sandbox = await startSandbox(options);
  if (onTestFinished) onTestFinished(() => sandbox.close());
  else running.push(sandbox);
  const requestIds: string[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    requestIds.push(response.headers.get('x-request-id') ?? '');
    return response;
  };
  const client = new Client({
    apiKey: sandbox.apiKey,
    baseURL: sandbox.url,
    logLevel: 'off',
    fetch: recordingFetch,
    ...clientOptions,
  });
  return { sandbox, client, requestIds };
}

/** Starts a sandbox closed by the caller (for `beforeAll`/`afterAll` files). */
export async function startShared(options?: SandboxOptions): Promise<{ sandbox: Sandbox; client: Client }> {
  const sandbox = await startSandbox(options);
  const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url, logLevel: 'off' });
  return { sandbox, client };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ErrorClass<E> = abstract new (...args: any[]) => E;

/** Awaits a promise that must reject with an instance of `Class`, and returns the error. */
export async function rejection<E>(promise: Promise<unknown>, Class: ErrorClass<E>): Promise<E> {
  let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await promise };
  } catch (error) {
    outcome = { ok: false, error };
  }
  if (outcome.ok) throw new Error(`expected a rejection with ${Class.name}, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(Class);
  return outcome.error as E;
}

/** Polls `check` until it returns true, or fails after `ms`. */
export async function eventually(check: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** ISO 8601 UTC with milliseconds and a trailing Z, as the sandbox writes timestamps. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const REQUEST_ID = /^req_[0-9a-f]{24}$/;

/** A transfer body that succeeds against the default accounts. */
export const transferTo = (amount: number | string, destination = 'acc_partner') =>
  ({ destination_account_id: destination, amount, currency: 'idr' }) as const;

/** Balances are decimal strings; turn one into integer cents for exact arithmetic. */
export function cents(amount: string): bigint {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(amount);
  if (!match) throw new Error(`not a two-decimal amount: ${amount}`);
  const value = BigInt(match[2]!) * 100n + BigInt(match[3]!);
  return match[1] === '-' ? -value : value;
}
