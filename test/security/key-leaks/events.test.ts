/**
 * The API key in no request or response event, however it is rendered: a
 * success, a retried failure and a final error with the service echoing it, a
 * connection failure whose cause carries the request's headers, a derived
 * client's other key; a call whose query holds it emits none.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { APIConnectionError, AuthenticationError, RequestValidationError } from '../../../src/index.js';
import { makeClient } from '../../helpers/msw.js';
import { type RecordedEvent, recordEvents, responseEvents } from '../../helpers/recorders.js';
import {
  CHARGE_PATH,
  countRequests,
  jsonReply,
  route,
  TRANSFER_PARAMS,
  TRANSFERS_PATH,
} from '../../helpers/requests.js';
import { API_KEY, CHARGE_ID, success, transferJson } from '../../helpers/fixtures.js';
import { rejection } from '../../helpers/rejection.js';

describe('the API key is in no event', () => {
  const deep = { depth: 10, showHidden: true } as const;

  function expectNoKey(seen: RecordedEvent[]): void {
    expect(seen.length).toBeGreaterThan(0);
    for (const { event } of seen) {
      for (const text of [JSON.stringify(event), inspect(event, deep), String(event.url)]) {
        expect(text).not.toContain(API_KEY);
      }
    }
  }

  it('in a success, a retried failure, and the final error, even when the service echoes the key', async () => {
    route('GET', CHARGE_PATH, (attempt) =>
      attempt === 1
        ? jsonReply(
            503,
            { status: 'error', message: `proxy saw Authorization: Bearer ${API_KEY}` },
            { 'retry-after-ms': '0', 'x-echo': `Bearer ${API_KEY}` },
          )
        : jsonReply(401, { status: 'error', message: `Invalid key ${API_KEY}` }, { 'x-echo': API_KEY }),
    );
    const client = makeClient();
    const seen = recordEvents(client);
    await expect(client.charges.retrieve(CHARGE_ID)).rejects.toBeInstanceOf(AuthenticationError);
    expect(responseEvents(seen).map((event) => event.status)).toEqual([503, 401]);
    expectNoKey(seen);
  });

  it('in a connection failure whose cause carries the request’s headers', async () => {
    const client = makeClient({
      maxRetries: 0,
      fetch: (_input, init) =>
        Promise.reject(
          Object.assign(new Error(`connect failed for Bearer ${API_KEY}`), { headers: new Headers(init?.headers) }),
        ),
    });
    const seen = recordEvents(client);
    await expect(client.charges.retrieve(CHARGE_ID)).rejects.toBeInstanceOf(APIConnectionError);
    expectNoKey(seen);
  });

  it('in no event at all, when a raw call’s query holds the key: refused before sending', async () => {
    const sent = countRequests();
    const client = makeClient();
    const seen = recordEvents(client);
    await rejection(client.get('/v1/echo', { query: { token: API_KEY } }), RequestValidationError);
    expect(seen).toEqual([]);
    expect(sent.count()).toBe(0);
  });

  it('in a successful POST', async () => {
    route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const client = makeClient();
    const seen = recordEvents(client);
    await client.transfers.create(TRANSFER_PARAMS);
    expectNoKey(seen);
  });
});

describe('withOptions() clients share the listeners', () => {
  it('a derived client with another key still keeps that key out of the events', async () => {
    const otherKey = 'sk_test_other_9d1e';
    const requests = route('GET', CHARGE_PATH, () =>
      jsonReply(401, { status: 'error', message: `bad key ${otherKey}` }, { 'x-echo': otherKey }),
    );
    const parent = makeClient({ maxRetries: 0 });
    const seen = recordEvents(parent);
    await expect(parent.withOptions({ apiKey: otherKey }).charges.retrieve(CHARGE_ID)).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    expect(requests[0]!.headers.get('authorization')).toBe(`Bearer ${otherKey}`);
    expect(seen).toHaveLength(2);
    for (const { event } of seen) expect(inspect(event, { depth: 10 }) + JSON.stringify(event)).not.toContain(otherKey);
  });
});
