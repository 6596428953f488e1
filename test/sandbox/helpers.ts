import { onTestFinished } from 'vitest';
import {
  createSandbox,
  startSandbox,
  type InProcessSandbox,
  type InProcessSandboxOptions,
  type Sandbox,
  type SandboxOptions,
} from '../../src/testing/index.js';

/** Parsed JSON of a response; tests index into it freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  body: Json;
}

export interface CallOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, instead of `body`. */
  raw?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
  /** The bearer key to send; `null` sends no Authorization header. Default: the sandbox's key. */
  key?: string | null;
  signal?: AbortSignal;
}

/** Starts a sandbox that is closed after the current test. */
export async function sandbox(options?: SandboxOptions): Promise<Sandbox> {
  const started = await startSandbox(options);
  onTestFinished(() => started.close());
  return started;
}

/** Creates an in-process sandbox that is closed after the current test. */
export function inProcessSandbox(options?: InProcessSandboxOptions): InProcessSandbox {
  const created = createSandbox(options);
  onTestFinished(() => created.close());
  return created;
}

/**
 * One request with plain fetch: over real HTTP, or through `target.fetch` for
 * an in-process sandbox.
 */
export async function call(
  target: Sandbox | InProcessSandbox,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? target.apiKey : options.key;
  if (key !== null) headers.authorization ??= `Bearer ${key}`;
  let payload: string | Uint8Array<ArrayBuffer> | undefined = options.raw;
  if (payload === undefined && options.body !== undefined) payload = JSON.stringify(options.body);
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const send = 'fetch' in target ? target.fetch : fetch;
  const response = await send(target.url + path, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  let body: Json;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

export const validCharge = { payment_method: 'qris', amount: 10000 } as const;

export const createCharge = (target: Sandbox, body: unknown = validCharge): Promise<ApiResponse> =>
  call(target, 'POST', '/v1/payments/charges', { body });

export const createTransfer = (
  target: Sandbox,
  body: Record<string, unknown>,
  idempotencyKey?: string,
): Promise<ApiResponse> =>
  call(target, 'POST', '/v1/transfers', {
    body,
    ...(idempotencyKey === undefined ? {} : { headers: { 'idempotency-key': idempotencyKey } }),
  });

/** The token in a payment page's form (its hidden `token` field), as a browser would send it back. */
export function formTokenOf(html: string): string {
  const token = /<input type="hidden" name="token" value="([0-9a-f]{64})">/.exec(html)?.[1];
  if (token === undefined) throw new Error('The page has no form token');
  return token;
}
