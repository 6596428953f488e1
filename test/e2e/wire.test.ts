/**
 * What comes back from the wire, over real HTTP: a redirect from the service
 * is never followed (a second loopback server stands where it points, and
 * sees nothing), and a gzip bomb is read no further than the body cap, once.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { APIError, Client, ResponseBodyError, type ResponseEvent } from 'lunas-sdk';
import { start, transferTo, transportOptions } from './helpers.js';
import { listenForTest } from '../helpers/recorders.js';
import { rejection } from '../helpers/rejection.js';

const MiB = 1024 * 1024;

/** A loopback server recording every request, answering each with a valid transfer: a host that would be believed. */
async function otherOrigin(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    seen.push(`${request.method} ${request.url} key=${request.headers['idempotency-key'] ?? ''}`);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        status: 'success',
        data: {
          id: 'tr_elsewhere',
          destination_account_id: 'acc_partner',
          amount: '150000.00',
          currency: 'idr',
          status: 'success',
          created_at: '2026-01-01T00:00:00Z',
        },
      }),
    );
  });
  return { url: await listenForTest(server), seen };
}

describe('a redirect from the service', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`${status} on POST /v1/transfers: APIError with the Location, not retried, the other origin receives nothing`, async () => {
      const other = await otherOrigin();
      const { sandbox, client } = await start(undefined, { maxRetries: 2 });
      const location = `${other.url}/v1/transfers`;
      sandbox.inject({ kind: 'status', status, headers: { location }, times: Infinity });
      const events: ResponseEvent[] = [];
      client.on('response', (event) => events.push(event));
      const error = await rejection(client.transfers.create(transferTo(150_000)), APIError);
      expect(error.status).toBe(status);
      expect(error.headers.get('location')).toBe(location);
      expect(error.message).toContain(`failed with ${status}: a redirect to ${location}`);
      expect(sandbox.requests).toHaveLength(1);
      expect(events.map((event) => [event.status, event.willRetry])).toEqual([[status, false]]);
      expect(other.seen).toEqual([]);
      expect(sandbox.balance('acc_partner')).toBe('0.00');
    });
  }

  it('on a GET and on the raw calls alike, from a plain server standing in front', async () => {
    const other = await otherOrigin();
    const front = createServer((request, response) => {
      response.writeHead(request.method === 'POST' ? 308 : 302, { location: `${other.url}${request.url}` });
      response.end();
    });
    const client = new Client({ apiKey: 'sk_test_front', baseURL: await listenForTest(front), logLevel: 'off' });
    for (const call of [
      () => client.charges.retrieve('ch_1'),
      () => client.transfers.list(),
      () => client.get('/v1/payouts'),
      () => client.post('/v1/payouts', { body: { amount: 1 } }),
    ]) {
      const error = await rejection(call(), APIError);
      expect([302, 308]).toContain(error.status);
      expect(error.headers.get('location')).toMatch(new RegExp(`^${other.url}/v1/`));
    }
    expect(other.seen).toEqual([]);
  });
});

/**
 * 1 GiB of zeros as 64 gzip members of 16 MiB each (one member compressed
 * once, repeated): about 1 MB on the wire, which any gzip reader, fetch's
 * included, inflates back to the whole.
 */
function gzipBomb(): Buffer {
  const member = gzipSync(Buffer.alloc(16 * MiB), { level: 9 });
  return Buffer.concat(Array.from({ length: 64 }, () => member));
}

describe('a gzip bomb', () => {
  it('fails with ResponseBodyError too-large, once, its event carrying the error, memory bounded by the cap', async () => {
    const bomb = gzipBomb();
    expect(bomb.byteLength).toBeLessThan(1.5 * MiB);
    let requests = 0;
    const server = createServer((_request, response) => {
      requests += 1;
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'x-request-id': 'req_bomb',
      });
      response.end(bomb);
    });
    const client = new Client({ apiKey: 'sk_test_bomb_body', baseURL: await listenForTest(server), logLevel: 'off' });
    const events: ResponseEvent[] = [];
    client.on('response', (event) => events.push(event));

    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 5);
    let error: ResponseBodyError;
    try {
      error = await rejection(client.charges.list(), ResponseBodyError);
    } finally {
      clearInterval(sampler);
    }
    const after = process.memoryUsage();
    peakRss = Math.max(peakRss, after.rss);
    peakHeap = Math.max(peakHeap, after.heapUsed);

    expect(error).toMatchObject({ reason: 'too-large', status: 200, requestId: 'req_bomb', limit: 8 * MiB });
    expect(error.message).toContain('with a body over 8 MiB');
    expect(requests).toBe(1);
    expect(events).toEqual([expect.objectContaining({ status: 200, error, willRetry: false })]);
    // A few times the cap, however much the body would inflate to (1 GiB here).
    expect(peakHeap - before.heapUsed).toBeLessThan(8 * 8 * MiB);
    expect(peakRss - before.rss).toBeLessThan(12 * 8 * MiB);
  });
});

describe('a body that cannot be read, from a response that did arrive', () => {
  /** A server answering every POST with `answer`, recording each attempt's Idempotency-Key. */
  async function serving(answer: (response: import('node:http').ServerResponse) => void) {
    const keys: string[] = [];
    const server = createServer((request, response) => {
      keys.push(String(request.headers['idempotency-key']));
      answer(response);
    });
    const client = new Client({
      apiKey: 'sk_test_cut_mid_body',
      baseURL: await listenForTest(server),
      logLevel: 'off',
      ...transportOptions,
    });
    return { client, keys };
  }

  it('a gzip body that does not inflate: ResponseBodyError unreadable, retried on the same key', async () => {
    const { client, keys } = await serving((response) => {
      response.writeHead(200, { 'content-encoding': 'gzip', 'retry-after-ms': '0' });
      response.end(Buffer.from('this is not gzip at all'));
    });
    const error = await rejection(client.transfers.create(transferTo(1_000), { maxRetries: 1 }), ResponseBodyError);
    expect(error).toMatchObject({ reason: 'unreadable', status: 200 });
    expect(error.message).toContain('(after 2 attempts); retry with idempotencyKey');
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
  });

  it('a connection cut mid-body: ResponseBodyError unreadable, not APIConnectionError', async () => {
    const { client, keys } = await serving((response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000', 'retry-after-ms': '0' });
      response.write('{"status":"success","data":{');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const error = await rejection(client.transfers.create(transferTo(1_000), { maxRetries: 0 }), ResponseBodyError);
    expect(error).toMatchObject({ reason: 'unreadable', status: 200 });
    expect(keys).toHaveLength(1);
  });
});

describe('the transport under test', () => {
  it('is the one LUNAS_TEST_TRANSPORT names: global fetch by default, undiciFetch with `undici`', async () => {
    const headers: IncomingMessage['headers'][] = [];
    const server = createServer((request, response) => {
      headers.push(request.headers);
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"status":"error","message":"no such charge"}');
    });
    const client = new Client({
      apiKey: 'sk_test_which_transport',
      baseURL: await listenForTest(server),
      logLevel: 'off',
      ...transportOptions,
    });
    await rejection(client.charges.retrieve('ch_1'));
    // Node's fetch adds the Fetch standard's `sec-fetch-mode`; undici's own client sends only what it is given.
    expect(headers.map((seen) => seen['sec-fetch-mode'])).toEqual([
      process.env.LUNAS_TEST_TRANSPORT === 'undici' ? undefined : 'cors',
    ]);
  });
});
