/**
 * Redirects are never followed: a 3xx is an APIError carrying its status and
 * Location, nothing reaches the origin it points to, and it is not retried. A
 * custom fetch that follows one anyway has its answer refused.
 */
import { describe, expect, it } from 'vitest';
import { APIError, type Client, type ResponseEvent } from '../../src/index.js';
import { makeClient } from '../helpers/msw.js';
import { CHARGE_PATH, jsonReply, route, TRANSFER_PARAMS, TRANSFERS_PATH } from '../helpers/requests.js';
import { API_KEY, BASE_URL, chargeJson, success, transferJson } from '../helpers/fixtures.js';
import { rejection } from '../helpers/rejection.js';

/** Another origin, which would happily answer: it must never be asked. */
const ELSEWHERE = 'https://elsewhere.lunas.test';
const STATUSES = [301, 302, 303, 307, 308] as const;

/** The other origin's routes, answering every method with a valid transfer or charge. */
function elsewhere() {
  const transfers = route('ALL', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())), ELSEWHERE);
  const charges = route('ALL', CHARGE_PATH, () => jsonReply(200, success(chargeJson())), ELSEWHERE);
  const raw = route('ALL', '/v1/payouts', () => jsonReply(200, success({ id: 'po_1' })), ELSEWHERE);
  return { count: () => transfers.length + charges.length + raw.length };
}

/** The service answering `path` with `status` and a Location on the other origin. */
function redirecting(status: number, path: string) {
  return route('ALL', path, () => new Response(null, { status, headers: { location: `${ELSEWHERE}${path}` } }));
}

const calls: { name: string; path: string; call: (client: Client) => Promise<unknown> }[] = [
  { name: 'transfers.create (POST)', path: TRANSFERS_PATH, call: (c) => c.transfers.create(TRANSFER_PARAMS) },
  { name: 'charges.retrieve (GET)', path: CHARGE_PATH, call: (c) => c.charges.retrieve('ch_123') },
  { name: 'client.get (raw GET)', path: '/v1/payouts', call: (c) => c.get('/v1/payouts') },
  { name: 'client.post (raw POST)', path: '/v1/payouts', call: (c) => c.post('/v1/payouts', { body: { a: 1 } }) },
];

describe('a 3xx from the service', () => {
  for (const status of STATUSES) {
    for (const { name, path, call } of calls) {
      it(`${status} on ${name}: APIError with status and Location, not retried, nothing sent elsewhere`, async () => {
        const other = elsewhere();
        const seen = redirecting(status, path);
        const client = makeClient({ maxRetries: 2 });
        const error = await rejection(call(client), APIError);
        expect(error.status).toBe(status);
        expect(error.headers.get('location')).toBe(`${ELSEWHERE}${path}`);
        expect(error.message).toContain(`failed with ${status}`);
        expect(error.message).toContain(`redirect to ${ELSEWHERE}${path}`);
        expect(seen).toHaveLength(1);
        expect(other.count()).toBe(0);
      });
    }
  }

  it('a Location holding the API key is masked in the message and the headers', async () => {
    elsewhere();
    route(
      'POST',
      TRANSFERS_PATH,
      () => new Response(null, { status: 302, headers: { location: `/x?key=${API_KEY}` } }),
    );
    const error = await rejection(makeClient().transfers.create(TRANSFER_PARAMS), APIError);
    expect(error.message).toContain('redirect to /x?key=[REDACTED]');
    expect(error.headers.get('location')).toBe('/x?key=[REDACTED]');
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });

  it('a 3xx without a Location says so', async () => {
    route('GET', CHARGE_PATH, () => new Response('choose', { status: 300 }));
    const error = await rejection(makeClient().charges.retrieve('ch_123'), APIError);
    expect(error.status).toBe(300);
    expect(error.message).toContain('a redirect with no Location');
  });

  it('the response event carries the status and the error, with willRetry false', async () => {
    elsewhere();
    redirecting(307, TRANSFERS_PATH);
    const client = makeClient();
    const events: ResponseEvent[] = [];
    client.on('response', (event) => events.push(event));
    const error = await rejection(client.transfers.create(TRANSFER_PARAMS), APIError);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: 307, error, willRetry: false });
  });

  it("asks fetch for redirect 'manual', on the Request and in its options", async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const seen: { request: RequestRedirect; init: RequestRedirect | undefined }[] = [];
    const client = makeClient({
      fetch: (input, init) => {
        seen.push({ request: (input as Request).redirect, init: init?.redirect });
        return globalThis.fetch(input, init);
      },
    });
    await client.charges.retrieve('ch_123');
    expect(seen).toEqual([{ request: 'manual', init: 'manual' }]);
  });
});

describe('a custom fetch that follows a redirect anyway', () => {
  it('an answer that says it was redirected is refused, for a POST (303) and a GET (301)', async () => {
    const other = elsewhere();
    redirecting(303, TRANSFERS_PATH);
    // Sends the request again with another client's defaults, as a wrapper built on one may.
    const following: typeof fetch = async (input) => {
      const request = input as Request;
      const { method, headers } = request;
      return globalThis.fetch(request.url, { method, headers, body: await request.text(), redirect: 'follow' });
    };
    const client = makeClient({ fetch: following, maxRetries: 2 });
    const error = await rejection(client.transfers.create(TRANSFER_PARAMS), APIError);
    expect(other.count()).toBe(1); // The custom fetch went there; lunas cannot stop that...
    expect(error.message).toContain(`answered from ${ELSEWHERE}${TRANSFERS_PATH}`); // ...but believes none of it.
    expect(error.message).toContain('lunas never follows redirects');
    expect(error.status).toBe(200);

    redirecting(301, CHARGE_PATH);
    const refused = await rejection(client.charges.retrieve('ch_123'), APIError);
    expect(refused.message).toContain(`answered from ${ELSEWHERE}${CHARGE_PATH}`);
    expect(other.count()).toBe(2);
  });

  it('an answer from a URL other than the one asked for is refused, even unflagged', async () => {
    const fromElsewhere: typeof fetch = async () => {
      const response = new Response(JSON.stringify(success(chargeJson())), { status: 200 });
      Object.defineProperty(response, 'url', { value: `${ELSEWHERE}${CHARGE_PATH}` });
      return response;
    };
    const error = await rejection(makeClient({ fetch: fromElsewhere }).charges.retrieve('ch_123'), APIError);
    expect(error.message).toContain(`answered from ${ELSEWHERE}${CHARGE_PATH}`);
  });

  it('an answer whose url is the one asked for, or empty, is believed', async () => {
    const echo =
      (url: string): typeof fetch =>
      async () => {
        const response = new Response(JSON.stringify(success(chargeJson())), { status: 200 });
        if (url !== '') Object.defineProperty(response, 'url', { value: url });
        return response;
      };
    for (const url of ['', `${BASE_URL}${CHARGE_PATH}`]) {
      const charge = await makeClient({ fetch: echo(url) }).charges.retrieve('ch_123');
      expect(charge.id).toBe('ch_123');
    }
  });

  it("a browser's opaque redirect (type opaqueredirect, status 0) is a redirect too", async () => {
    const opaque: typeof fetch = async () => {
      const response = new Response(null);
      Object.defineProperties(response, { type: { value: 'opaqueredirect' }, status: { value: 0 } });
      return response;
    };
    const client = makeClient({ fetch: opaque, maxRetries: 2 });
    let attempts = 0;
    client.on('request', () => attempts++);
    const error = await rejection(client.transfers.create(TRANSFER_PARAMS), APIError);
    expect(error.status).toBe(0);
    expect(error.message).toContain('an opaque redirect');
    expect(attempts).toBe(1);
  });
});
