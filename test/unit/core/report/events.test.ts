/**
 * core/report/events.ts: request and response events (`client.on` /
 * `client.off`): one pair per attempt, the fields each carries, retries,
 * failures without a response, listeners that throw or misbehave (never
 * breaking or delaying the call), and listeners shared with withOptions()
 * clients. No event holds the key: test/security/key-leaks/events.test.ts.
 */
import { delay, http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOSTILE_THROWS } from '../../../helpers/hostile.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  Client,
  type ClientOptions,
  InternalServerError,
  LunasError,
  type Logger,
  NotFoundError,
  type RequestEvent,
  RequestValidationError,
  type ResponseEvent,
  ResponseValidationError,
} from '../../../../src/index.js';
import { makeClient, server } from '../../../helpers/msw.js';
import { makeItems, serveList } from '../../../helpers/pages.js';
import {
  recordEvents,
  responseEvents,
  watchUnhandledRejections,
  expectPairedEvents,
  failOnUnhandledRejections,
} from '../../../helpers/recorders.js';
import {
  CHARGE_PATH,
  countRequests,
  jsonReply,
  route,
  TRANSFER_PARAMS,
  TRANSFERS_PATH,
} from '../../../helpers/requests.js';
import { API_KEY, BASE_URL, CHARGE_ID, chargeJson, success, transferJson } from '../../../helpers/fixtures.js';
import { rejection } from '../../../helpers/rejection.js';
import { sleep } from '../../../helpers/waiting.js';
import { UUID_V4 } from '../../../helpers/formats.js';
import { successResponse, wireClient } from '../../../helpers/wire.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function recordingLogger() {
  const lines: { level: string; text: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, text: message });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { lines, logger };
}

const CHARGE_URL = `${BASE_URL}${CHARGE_PATH}`;

describe('one request and one response event per attempt', () => {
  it('a GET: request before it is sent, response when it ends, with every field', async () => {
    const client = makeClient();
    const seen = recordEvents(client);
    let eventsWhenServed: string[] = [];
    route('GET', CHARGE_PATH, () => {
      eventsWhenServed = seen.map((entry) => entry.name);
      return jsonReply(200, success(chargeJson()), { 'x-request-id': 'req_abc' });
    });

    const charge = await client.charges.retrieve(CHARGE_ID);

    expect(charge.id).toBe(CHARGE_ID);
    expect(eventsWhenServed).toEqual(['request']);
    expect(seen.map((entry) => entry.name)).toEqual(['request', 'response']);
    expect(seen[0]!.event).toEqual({ method: 'GET', url: CHARGE_URL, attempt: 1, idempotencyKey: undefined });
    const response = responseEvents(seen)[0]!;
    expect(response).toEqual({
      method: 'GET',
      url: CHARGE_URL,
      attempt: 1,
      idempotencyKey: undefined,
      status: 200,
      requestId: 'req_abc',
      durationMs: expect.any(Number) as number,
      error: undefined,
      willRetry: false,
    });
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('requestId is undefined when the service sent no x-request-id', async () => {
    const client = makeClient();
    const seen = recordEvents(client);
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    await client.charges.retrieve(CHARGE_ID);
    expect(responseEvents(seen)[0]!.requestId).toBeUndefined();
  });

  it('durationMs covers reading the body, not just its headers', async () => {
    server.use(
      http.get(CHARGE_URL, () => {
        const text = JSON.stringify(success(chargeJson()));
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(encoder.encode(text.slice(0, 10)));
            await sleep(250);
            controller.enqueue(encoder.encode(text.slice(10)));
            controller.close();
          },
        });
        return new HttpResponse(body, { headers: { 'content-type': 'application/json' } });
      }),
    );
    const client = makeClient();
    const seen = recordEvents(client);
    await client.charges.retrieve(CHARGE_ID);
    expect(responseEvents(seen)[0]!.durationMs).toBeGreaterThanOrEqual(200);
  });

  it('the wait for a turn on the wire is in no event: a queued call’s request comes with its turn, its durationMs its own', async () => {
    // The first call holds the client's one turn for 400 ms; the second answers at once.
    route('GET', CHARGE_PATH, async (attempt) => {
      if (attempt === 1) await sleep(400);
      return jsonReply(200, success(chargeJson()));
    });
    const client = makeClient({ maxConcurrentRequests: 1 });
    const seen = recordEvents(client);
    const started = performance.now();
    const first = client.charges.retrieve(CHARGE_ID);
    const second = client.charges.retrieve(CHARGE_ID).then(() => performance.now() - started);
    await first;
    const wall = await second;

    const [slow, queued] = responseEvents(seen);
    expect(slow!.durationMs).toBeGreaterThanOrEqual(350);
    // Its exchange took a few milliseconds; the 400 ms it waited for the turn are not in it.
    expect(wall).toBeGreaterThan(350);
    expect(queued!.durationMs).toBeLessThan(300);
    expect(seen.map((entry) => entry.name)).toEqual(['request', 'response', 'request', 'response']);
  });

  it('a POST retried after a 503: two pairs, willRetry true then false, one Idempotency-Key', async () => {
    const requests = route('POST', TRANSFERS_PATH, (attempt) =>
      attempt === 1
        ? jsonReply(503, { status: 'error', message: 'busy' }, { 'retry-after-ms': '0', 'x-request-id': 'req_1' })
        : jsonReply(200, success(transferJson()), { 'x-request-id': 'req_2' }),
    );
    const client = makeClient();
    const seen = recordEvents(client);

    await client.transfers.create(TRANSFER_PARAMS);

    const sentKey = requests[0]!.headers.get('idempotency-key');
    expect(sentKey).toMatch(UUID_V4);
    expect(requests[1]!.headers.get('idempotency-key')).toBe(sentKey);
    expect(seen.map((entry) => `${entry.name} ${entry.event.attempt}`)).toEqual([
      'request 1',
      'response 1',
      'request 2',
      'response 2',
    ]);
    for (const { event } of seen) {
      expect(event.idempotencyKey).toBe(sentKey);
      expect(event.method).toBe('POST');
      expect(event.url).toBe(`${BASE_URL}${TRANSFERS_PATH}`);
    }
    const [first, second] = responseEvents(seen);
    expect([first!.status, first!.requestId, first!.willRetry]).toEqual([503, 'req_1', true]);
    expect(first!.error).toBeInstanceOf(InternalServerError);
    expect([second!.status, second!.requestId, second!.willRetry, second!.error]).toEqual([
      200,
      'req_2',
      false,
      undefined,
    ]);
  });

  it('the caller’s idempotencyKey is the one the events carry', async () => {
    route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    const client = makeClient();
    const seen = recordEvents(client);
    await client.transfers.create(TRANSFER_PARAMS, { idempotencyKey: 'settle-inv-42' });
    expect(seen.map((entry) => entry.event.idempotencyKey)).toEqual(['settle-inv-42', 'settle-inv-42']);
  });

  it('a final failure: the response event carries the status and the error the call rejects with', async () => {
    route('GET', CHARGE_PATH, () =>
      jsonReply(404, { status: 'fail', data: { message: 'Charge not found' } }, { 'x-request-id': 'req_404' }),
    );
    const client = makeClient();
    const seen = recordEvents(client);
    const error = await rejection(client.charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(NotFoundError);
    const [response] = responseEvents(seen);
    expect(response).toMatchObject({ status: 404, requestId: 'req_404', willRetry: false });
    expect(response!.error).toBe(error);
  });

  it('a 2xx that is not a valid envelope ends with a ResponseValidationError and its status', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, { status: 'success' }));
    const client = makeClient();
    const seen = recordEvents(client);
    await expect(client.charges.retrieve(CHARGE_ID)).rejects.toBeInstanceOf(ResponseValidationError);
    const [response] = responseEvents(seen);
    expect(response!.status).toBe(200);
    expect(response!.error).toBeInstanceOf(ResponseValidationError);
    expect(response!.willRetry).toBe(false);
  });

  it('a timeout: status undefined, an APIConnectionTimeoutError, one pair per attempt', async () => {
    route('GET', CHARGE_PATH, async () => {
      await delay(5_000);
      return jsonReply(200, success(chargeJson()));
    });
    const client = makeClient({ timeout: 100, maxRetries: 1 });
    const seen = recordEvents(client);
    const error = await rejection(client.charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(seen.map((entry) => entry.name)).toEqual(['request', 'response', 'request', 'response']);
    const [first, last] = responseEvents(seen);
    expect([first!.status, first!.requestId, first!.willRetry]).toEqual([undefined, undefined, true]);
    expect(first!.error).toBeInstanceOf(APIConnectionTimeoutError);
    expect([last!.status, last!.willRetry]).toEqual([undefined, false]);
    expect(last!.error).toBe(error);
    expect(first!.durationMs).toBeGreaterThanOrEqual(90);
  });

  it('a connection failure: status undefined and an APIConnectionError', async () => {
    const client = makeClient({
      maxRetries: 0,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    const seen = recordEvents(client);
    await expect(client.charges.retrieve(CHARGE_ID)).rejects.toBeInstanceOf(APIConnectionError);
    const [response] = responseEvents(seen);
    expect(response!.status).toBeUndefined();
    expect(response!.error).toBeInstanceOf(APIConnectionError);
    expect(response!.willRetry).toBe(false);
  });

  it('the caller’s abort: a response event with an APIUserAbortError, not retried', async () => {
    route('GET', CHARGE_PATH, async () => {
      await delay(5_000);
      return jsonReply(200, success(chargeJson()));
    });
    const client = makeClient();
    const seen = recordEvents(client);
    const controller = new AbortController();
    const call = rejection(client.charges.retrieve(CHARGE_ID, { signal: controller.signal }));
    await sleep(50);
    controller.abort();
    expect(await call).toBeInstanceOf(APIUserAbortError);
    const [response] = responseEvents(seen);
    expect(response!.error).toBeInstanceOf(APIUserAbortError);
    expect([response!.status, response!.willRetry]).toEqual([undefined, false]);
  });

  it('every page of a walk has its pair, its url carrying the page query', async () => {
    serveList('/v1/payouts', { items: makeItems(15) });
    const client = makeClient();
    const seen = recordEvents(client);
    for await (const payout of client.payouts.list({ pagesize: 10 })) void payout;
    expect(seen.filter((entry) => entry.name === 'request').map((entry) => entry.event.url)).toEqual([
      `${BASE_URL}/v1/payouts?page=1&pagesize=10`,
      `${BASE_URL}/v1/payouts?page=2&pagesize=10`,
    ]);
    expect(responseEvents(seen).map((event) => event.status)).toEqual([200, 200]);
  });

  it('a look-ahead page cancelled by leaving the loop ends with an APIUserAbortError event', async () => {
    serveList('/v1/payouts', {
      items: makeItems(30),
      before: (request) => (request.page === 2 ? sleep(5_000) : undefined),
    });
    const client = makeClient();
    const seen = recordEvents(client);
    for await (const payout of client.payouts.list({ pagesize: 10 })) {
      void payout;
      await sleep(50); // page 2 is requested ahead meanwhile
      break;
    }
    for (let i = 0; i < 100 && responseEvents(seen).length < 2; i++) await sleep(10);
    expect(seen.map((entry) => `${entry.name} ${new URL(entry.event.url).searchParams.get('page')}`)).toEqual([
      'request 1',
      'response 1',
      'request 2',
      'response 2',
    ]);
    const cancelled = responseEvents(seen)[1]!;
    expect(cancelled.error).toBeInstanceOf(APIUserAbortError);
    expect([cancelled.status, cancelled.willRetry]).toEqual([undefined, false]);
  });

  it('the url is the one sent, percent-encoded, under a base URL with a path', async () => {
    const base = 'https://gateway.lunas.test/lunas';
    const seenURLs: string[] = [];
    server.use(
      http.all(`${base}/*`, ({ request }) => {
        seenURLs.push(request.url);
        return HttpResponse.json(success(chargeJson()));
      }),
    );
    const client = makeClient({ baseURL: base });
    const seen = recordEvents(client);
    await client.get('/v1/cafés/€', { query: { q: 'a b&c' } });
    await client.charges.retrieve('ch 1/2');
    const urls = seen.filter((entry) => entry.name === 'request').map((entry) => entry.event.url);
    expect(urls).toEqual(seenURLs);
    expect(urls[0]).toBe(`${base}/v1/caf%C3%A9s/%E2%82%AC?q=a+b%26c`);
    expect(urls[1]).toBe(`${base}/v1/payments/charges/ch%201%2F2`);
  });
});

describe('nothing sent, no events', () => {
  it.each<[string, (client: Client) => Promise<unknown>]>([
    ['invalid create params', (client) => client.transfers.create({ ...TRANSFER_PARAMS, amount: 0 })],
    ['an invalid request option', (client) => client.charges.retrieve(CHARGE_ID, { timeout: -1 })],
    ['an empty id', (client) => client.charges.retrieve('')],
    ['an invalid page size', (client) => client.charges.list({ pagesize: 500 })],
    ['an invalid toArray limit', (client) => client.charges.list().toArray({ limit: 0 })],
    ['a raw path to another host', (client) => client.get('https://evil.example/x')],
    ['a raw body JSON cannot carry', (client) => client.post('/v1/transfers', { body: { amount: 1n } })],
  ])('%s: RequestValidationError and not one event', async (_label, call) => {
    const requests = countRequests();
    const client = makeClient();
    const seen = recordEvents(client);
    await expect(call(client)).rejects.toBeInstanceOf(RequestValidationError);
    expect(seen).toEqual([]);
    expect(requests.count()).toBe(0);
  });
});

describe('listeners never break or delay the call', () => {
  function build(options: ClientOptions = {}) {
    const { lines, logger } = recordingLogger();
    return { lines, client: makeClient({ logger, logLevel: 'warn', ...options }) };
  }

  it('a listener that throws is logged at warn, and the call and the other listeners go on', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const { lines, client } = build();
    const after: string[] = [];
    client.on('request', () => {
      throw new Error('request listener broke');
    });
    client.on('response', () => {
      throw new TypeError('response listener broke');
    });
    client.on('request', (event) => after.push(`request ${event.attempt}`));
    client.on('response', (event) => after.push(`response ${event.status}`));

    const charge = await client.charges.retrieve(CHARGE_ID);

    expect(charge.id).toBe(CHARGE_ID);
    expect(after).toEqual(['request 1', 'response 200']);
    expect(lines.map((line) => line.level)).toEqual(['warn', 'warn']);
    expect(lines[0]!.text).toContain("'request' event listener");
    expect(lines[0]!.text).toContain('request listener broke');
    expect(lines[1]!.text).toContain("'response' event listener");
    expect(lines[1]!.text).toContain('TypeError: response listener broke');
  });

  it('a listener that throws does not stop a retry, nor change the error of a failed call', async () => {
    route('GET', CHARGE_PATH, (attempt) =>
      attempt < 3
        ? jsonReply(503, { status: 'error', message: 'busy' }, { 'retry-after-ms': '0' })
        : jsonReply(404, { status: 'fail', data: { message: 'Charge not found' } }),
    );
    const { lines, client } = build();
    client.on('response', () => {
      throw new Error('boom');
    });
    await expect(client.charges.retrieve(CHARGE_ID)).rejects.toBeInstanceOf(NotFoundError);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(3);
  });

  it('a thrown non-Error is logged too', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const { lines, client } = build();
    client.on('request', () => {
      throw 'plain string';
    });
    await client.charges.retrieve(CHARGE_ID);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toContain('plain string');
  });

  it('an async listener that rejects is logged, with no unhandled rejection', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const unhandled = watchUnhandledRejections();
    try {
      const { lines, client } = build();
      client.on('response', async () => {
        await sleep(5);
        throw new Error('metrics backend down');
      });
      const charge = await client.charges.retrieve(CHARGE_ID);
      expect(charge.id).toBe(CHARGE_ID);
      await sleep(50);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.level).toBe('warn');
      expect(lines[0]!.text).toContain('metrics backend down');
      expect(unhandled.reasons).toEqual([]);
    } finally {
      unhandled.stop();
    }
  });

  it('an async listener that never settles does not delay the call', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const { client } = build();
    client.on('request', () => new Promise<void>(() => undefined));
    client.on('response', () => new Promise<void>(() => undefined));
    const outcome = await Promise.race([
      client.charges.retrieve(CHARGE_ID).then((charge) => charge.id),
      sleep(2_000).then(() => 'still waiting'),
    ]);
    expect(outcome).toBe(CHARGE_ID);
  });

  it('below warn, a failing listener is not logged (and still breaks nothing)', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const { lines, client } = build({ logLevel: 'error' });
    client.on('request', () => {
      throw new Error('quiet');
    });
    await client.charges.retrieve(CHARGE_ID);
    expect(lines).toEqual([]);
  });

  it('a listener’s error message is logged with the key masked', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const { lines, client } = build();
    client.on('request', () => {
      throw new Error(`cannot use ${API_KEY}`);
    });
    await client.charges.retrieve(CHARGE_ID);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).not.toContain(API_KEY);
  });
});

describe('on and off', () => {
  it('off stops a listener; the others keep being called; on and off chain', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const client = makeClient();
    const kept: number[] = [];
    const removed: number[] = [];
    const keep = (event: ResponseEvent) => void kept.push(event.attempt);
    const remove = (event: ResponseEvent) => void removed.push(event.attempt);
    expect(client.on('response', keep).on('response', remove)).toBe(client);
    await client.charges.retrieve(CHARGE_ID);
    expect(client.off('response', remove)).toBe(client);
    await client.charges.retrieve(CHARGE_ID);
    expect(kept).toEqual([1, 1]);
    expect(removed).toEqual([1]);
  });

  it('off for a listener that was never added changes nothing', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const client = makeClient();
    const seen = recordEvents(client);
    client.off('request', () => undefined);
    await client.charges.retrieve(CHARGE_ID);
    expect(seen).toHaveLength(2);
  });

  it.each([['requests'], ['Response'], ['error'], [''], [undefined]])(
    'an unknown event name (%s) throws a LunasError naming the two events',
    (name) => {
      const client = makeClient();
      const listener = () => undefined;
      for (const call of [
        () => client.on(name as 'request', listener),
        () => client.off(name as 'request', listener),
      ]) {
        expect(call).toThrow(LunasError);
        expect(call).toThrow(/'request' or 'response'/);
      }
    },
  );

  it.each([[null], ['log'], [{ handleEvent() {} }]])(
    'a listener that is not a function (%s) throws a LunasError',
    (listener) => {
      const client = makeClient();
      expect(() => client.on('response', listener as never)).toThrow(LunasError);
      expect(() => client.on('response', listener as never)).toThrow(/function/);
    },
  );
});

describe('withOptions() clients share the listeners', () => {
  it('in both directions, and off on either removes it for both', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const parent = makeClient();
    const child = parent.withOptions({ timeout: 5_000 });
    const grandchild = child.withOptions({ maxRetries: 0 });
    const onParent: string[] = [];
    const onChild: string[] = [];
    const parentListener = (event: RequestEvent) => void onParent.push(`${event.method} ${event.attempt}`);
    parent.on('request', parentListener);
    child.on('request', (event) => void onChild.push(`${event.method} ${event.attempt}`));

    await child.charges.retrieve(CHARGE_ID);
    await parent.charges.retrieve(CHARGE_ID);
    await grandchild.charges.retrieve(CHARGE_ID);
    expect(onParent).toHaveLength(3);
    expect(onChild).toHaveLength(3);

    child.off('request', parentListener);
    await parent.charges.retrieve(CHARGE_ID);
    expect(onParent).toHaveLength(3);
    expect(onChild).toHaveLength(4);
  });

  it('a client built with new Client() does not share them', async () => {
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const first = makeClient();
    const second = makeClient();
    const seen = recordEvents(first);
    await second.charges.retrieve(CHARGE_ID);
    expect(seen).toEqual([]);
    // And a failed withOptions() leaves nothing behind for the next client built.
    expect(() => first.withOptions({ timeout: -1 })).toThrow(LunasError);
    await makeClient().charges.retrieve(CHARGE_ID);
    expect(seen).toEqual([]);
  });
});

describe('a call aborted before it is sent', () => {
  it('emits no event: no attempt was made', async () => {
    const client = makeClient();
    const seen: string[] = [];
    client.on('request', () => void seen.push('request'));
    client.on('response', () => void seen.push('response'));
    const error = await client.charges.retrieve('ch_1', { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(seen).toEqual([]);
  });
});

describe('listeners', () => {
  failOnUnhandledRejections();

  it.each(HOSTILE_THROWS)('one that throws %s: warned with its kind, and the call goes on', async (_, make) => {
    const warned: string[] = [];
    const { client } = wireClient(() => successResponse(transferJson()), {
      logger: { ...console, warn: (line: string) => void warned.push(line) },
      logLevel: 'warn',
    });
    const seen = recordEvents(client);
    client.on('request', () => {
      throw make();
    });
    client.on('response', async () => {
      await sleep(1);
      throw make();
    });
    await expect(client.transfers.create(TRANSFER_PARAMS)).resolves.toMatchObject({ id: transferJson().id });
    await sleep(20);
    expectPairedEvents(seen);
    expect(warned).toHaveLength(2);
    for (const line of warned) expect(line).toMatch(/event listener threw, and was ignored: (an? \w+|undefined)$/);
  });

  it('one that adds a new listener at every event does not keep the call from ending', async () => {
    const { client } = wireClient(() => successResponse(transferJson()));
    let added = 0;
    const grow = () => void client.on('request', () => void (added++ < 1_000_000 && grow()));
    grow();
    await expect(client.transfers.create(TRANSFER_PARAMS)).resolves.toMatchObject({ id: transferJson().id });
    expect(added).toBe(1);
  });
});
