/**
 * Recording msw routes for the transport, retry, error, client and security
 * unit tests: one handler per route that keeps every request it received
 * (method, URL, headers, body, time) and answers through a callback that is
 * told the attempt number.
 */
import { http, HttpResponse } from 'msw';
import { BASE_URL, server } from './msw.js';

/** A request as the handler saw it. `at` is `Date.now()` when it arrived (fake under fake timers). */
export interface SeenRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
  at: number;
}

/** Answers the `attempt`-th request (1-based) of a route. */
export type Reply = (attempt: number, request: Request) => Response | Promise<Response>;

/**
 * Registers a handler for `method` on `base + path` and returns the live list
 * of requests it receives.
 */
export function route(method: 'GET' | 'POST', path: string, reply: Reply, base: string = BASE_URL): SeenRequest[] {
  const seen: SeenRequest[] = [];
  const on = method === 'GET' ? http.get : http.post;
  server.use(
    on(`${base}${path}`, async ({ request }) => {
      seen.push({
        method: request.method,
        url: new URL(request.url),
        headers: new Headers(request.headers),
        body: await request.clone().text(),
        at: Date.now(),
      });
      return reply(seen.length, request);
    }),
  );
  return seen;
}

/** A JSON response with a status and headers. */
export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return HttpResponse.json(body as never, { status, headers });
}

/** A raw text response with a status and headers. */
export function textReply(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new HttpResponse(text, { status, headers });
}

/** The path `client.charges.retrieve(CHARGE_ID)` requests. */
export const CHARGE_ID = 'ch_123';
export const CHARGE_PATH = `/v1/payments/charges/${CHARGE_ID}`;
export const TRANSFERS_PATH = '/v1/transfers';
export const CHARGES_PATH = '/v1/payments/charges';

/** Valid `client.transfers.create` parameters. */
export const TRANSFER_PARAMS = { destination_account_id: 'acc_partner', amount: '150000.00', currency: 'idr' } as const;

/** UUID version 4, as RFC 9562 lays it out. */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The rejection of `promise`, failing the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

/** Lets pending network work (msw handlers, body reads) run under real timers. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
