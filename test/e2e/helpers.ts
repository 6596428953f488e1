/**
 * Shared set-up of the end-to-end suite: a real sandbox on 127.0.0.1 and a
 * client pointed at it, both imported by package name as merchants do.
 */
import { afterEach, type TestContext } from 'vitest';
import { Client, type ClientOptions } from 'lunas-sdk';
import { startSandbox, type Sandbox, type SandboxOptions } from 'lunas-sdk/testing';

const running: Sandbox[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

/** A sandbox, a client for it, and the request ids its responses carried. */
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
