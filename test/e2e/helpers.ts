/**
 * Shared set-up of the end-to-end suite: a real sandbox on 127.0.0.1 and a
 * client pointed at it, both imported by package name as merchants do.
 *
 * The clients pass no `fetch`, so they send through global `fetch`, as a
 * merchant's do. `LUNAS_TEST_TRANSPORT=undici` (`npm run test:e2e:undici`)
 * gives them `fetch: undiciFetch` from lunas-sdk/undici instead: the opt-in
 * fast path over undici's `request`.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, type TestContext } from 'vitest';
import { Client, type ClientOptions } from 'lunas-sdk';
import { startSandbox, type Sandbox, type SandboxOptions } from 'lunas-sdk/testing';
import { undiciFetch } from 'lunas-sdk/undici';

/** The transport the suite's clients send through: none given (global fetch), or undiciFetch. */
const transport: ClientOptions = process.env.LUNAS_TEST_TRANSPORT === 'undici' ? { fetch: undiciFetch } : {};
if (![undefined, '', 'fetch', 'undici'].includes(process.env.LUNAS_TEST_TRANSPORT)) {
  throw new Error(`LUNAS_TEST_TRANSPORT must be 'fetch' or 'undici', not ${process.env.LUNAS_TEST_TRANSPORT}`);
}

/**
 * Calls `record` with the `x-request-id` ('' when absent) of each response
 * from `origin`, as the HTTP client received it: undici's diagnostics channel,
 * which both Node's global fetch and the `undici` package publish to, so no
 * `fetch` of the test's own changes the transport under test. Returns the unsubscribe.
 */
function recordRequestIds(origin: string, record: (id: string) => void): () => void {
  const onHeaders = (message: unknown) => {
    const { request, response } = message as { request: { origin?: unknown }; response: { headers: Buffer[] } };
    if (String(request.origin) !== origin) return;
    let id = '';
    for (let i = 0; i + 1 < response.headers.length; i += 2) {
      if (String(response.headers[i]).toLowerCase() === 'x-request-id') id = String(response.headers[i + 1]);
    }
    record(id);
  };
  subscribe('undici:request:headers', onHeaders);
  return () => unsubscribe('undici:request:headers', onHeaders);
}

const running: { close(): Promise<void> }[] = [];

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
 * `requestIds` notes each response's `x-request-id` as the HTTP client got it,
 * so tests can compare it with what the SDK reports.
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
  const requestIds: string[] = [];
  const stopRecording = recordRequestIds(new URL(sandbox.url).origin, (id) => requestIds.push(id));
  const closing = { close: () => (stopRecording(), sandbox.close()) };
  if (onTestFinished) onTestFinished(() => closing.close());
  else running.push(closing);
  const client = new Client({
    apiKey: sandbox.apiKey,
    baseURL: sandbox.url,
    logLevel: 'off',
    ...transport,
    ...clientOptions,
  });
  return { sandbox, client, requestIds };
}

/** Starts a sandbox closed by the caller (for `beforeAll`/`afterAll` files). */
export async function startShared(options?: SandboxOptions): Promise<{ sandbox: Sandbox; client: Client }> {
  const sandbox = await startSandbox(options);
  const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url, logLevel: 'off', ...transport });
  return { sandbox, client };
}

/** The client options of the transport under test: spread them into a client a test builds itself. */
export const transportOptions: ClientOptions = transport;

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
