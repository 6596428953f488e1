/**
 * A client whose `fetch` option is a plain function (no msw, no socket): it
 * records every request and answers from a callback. For property-based and
 * fuzz suites that make thousands of calls, and for the checks of what a call
 * is given, refused before anything is sent ({@link refused}).
 */
import { expect } from 'vitest';
import { Client, type ClientOptions, RequestValidationError } from '../../src/index.js';
import { API_KEY, BASE_URL, chargeJson, createdChargeJson, listPage, success, transferJson } from './fixtures.js';
import { seeRequest, type SeenRequest } from './seen-request.js';

/** Answers one request; may return a Response or throw like a failing fetch. */
export type Responder = (request: SeenRequest, attempt: number) => Response | Promise<Response>;

/** A client wired to a fake `fetch`, and what that fetch received. */
export interface WireClient {
  client: Client;
  /** Every request received, in order; empty it with `sent.length = 0`. */
  sent: SeenRequest[];
}

/** A client on {@link BASE_URL} whose requests go to `respond`. Retries off unless asked. */
export function wireClient(respond: Responder, options: ClientOptions = {}): WireClient {
  const sent: SeenRequest[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const seen = await seeRequest(new Request(input, init));
    sent.push(seen);
    return respond(seen, sent.length);
  };
  const client = new Client({
    apiKey: API_KEY,
    baseURL: BASE_URL,
    logLevel: 'off',
    maxRetries: 0,
    fetch,
    ...options,
  });
  return { client, sent };
}

/**
 * A wire client answering every call as the service would (a charge, a list of
 * charges, a created charge or a transfer); `status` per attempt, where 503
 * forces a retry.
 */
export function answering(status: (attempt: number) => number = () => 200): WireClient {
  return wireClient((request, attempt) => {
    if (status(attempt) !== 200)
      return new Response('{}', { status: status(attempt), headers: { 'retry-after-ms': '0' } });
    if (request.method === 'GET' && request.url.pathname.endsWith('/charges')) return listResponse([chargeJson()]);
    if (request.method === 'GET') return successResponse(chargeJson());
    return successResponse(request.url.pathname === '/v1/transfers' ? transferJson() : createdChargeJson());
  });
}

/** The RequestValidationError a call rejects with; it must not throw synchronously. */
export async function refused(call: () => Promise<unknown>): Promise<RequestValidationError> {
  let pending: Promise<unknown> | undefined;
  expect(() => (pending = call())).not.toThrow();
  const error = await pending!.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(RequestValidationError);
  return error as RequestValidationError;
}

/** {@link success} as a JSON response. */
export function successResponse(data: unknown, status = 200): Response {
  return Response.json(success(data), { status });
}

/** {@link listPage} as a JSON response. */
export function listResponse(data: unknown[], page = 1, pageSize = 10, total = data.length): Response {
  return Response.json(listPage(data, page, pageSize, total));
}

/** Integer cents as the two-decimal string responses carry: 150000n -> "1500.00". */
export function formatCents(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** Number of Unicode code points (a lone surrogate counts as one). */
export function codePointLength(text: string): number {
  return [...text].length;
}
