/**
 * Recording msw routes for the transport, retry, error, client and security
 * unit tests: one handler per route that keeps every request it received
 * (method, URL, headers, body, time) and answers through a callback that is
 * told the attempt number.
 */
import { http, HttpResponse } from 'msw';
import { BASE_URL, CHARGE_ID } from './fixtures.js';
import { server } from './msw.js';
import { seeRequest, type SeenRequest } from './seen-request.js';

/** Answers the `attempt`-th request (1-based) of a route. */
export type Reply = (attempt: number, request: Request) => Response | Promise<Response>;

/**
 * Registers a handler for `method` (`ALL`: any) on `base + path` and returns the
 * live list of requests it receives.
 */
export function route(
  method: 'GET' | 'POST' | 'ALL',
  path: string,
  reply: Reply,
  base: string = BASE_URL,
): SeenRequest[] {
  const seen: SeenRequest[] = [];
  const on = { GET: http.get, POST: http.post, ALL: http.all }[method];
  server.use(
    on(`${base}${path}`, async ({ request }) => {
      seen.push(await seeRequest(request));
      return reply(seen.length, request);
    }),
  );
  return seen;
}

/** Answers every request to the base URL (any method, any path) with `body` as JSON; returns what was sent. */
export function capture(body: unknown, status = 200): SeenRequest[] {
  return route('ALL', '/*', () => jsonReply(status, body));
}

/**
 * Counts every request to the base URL (any method, any path) and answers 400
 * (never retried), so a test can prove nothing was sent.
 */
export function countRequests(): { count: () => number; urls: string[] } {
  const seen = route('ALL', '/*', () =>
    jsonReply(400, { status: 'fail', data: { message: 'should not have been sent' } }),
  );
  return {
    count: () => seen.length,
    get urls() {
      return seen.map((request) => `${request.method} ${request.url.href}`);
    },
  };
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
export const CHARGE_PATH = `/v1/payments/charges/${CHARGE_ID}`;
/** The path `client.transfers.create` and `list` request. */
export const TRANSFERS_PATH = '/v1/transfers';
/** The path `client.charges.create` and `list` request. */
export const CHARGES_PATH = '/v1/payments/charges';

/** Valid `client.transfers.create` parameters. */
export const TRANSFER_PARAMS = { destination_account_id: 'acc_partner', amount: '150000.00', currency: 'idr' } as const;
