/**
 * The Node.js transport (src/core/node-fetch.ts) under ky 1.14, as lunas
 * drives it, against real loopback servers: msw does not see undici's
 * requests, and a socket is what keep-alive, aborts and caps are about.
 */
import { execFile, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { promisify } from 'node:util';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  Client,
  getResponseInfo,
  ResponseBodyError,
} from '../../src/index.js';
import { type AttemptDeadline, loadKy, type SendInit } from '../../src/core/ky.js';
import { MAX_RESPONSE_BODY_BYTES } from '../../src/core/transport.js';
import {
  BODY_TOO_LARGE,
  CANCEL_BODY,
  READ_BODY,
  createNodeFetch,
  importNodeModules,
  isNodeRuntime,
  loadNodeTransport,
  undiciRuns,
  type LightResponse,
  type NodeFetch,
  type NodeModules,
} from '../../src/core/node-fetch.js';
import { startSandbox } from '../../src/testing/index.js';
import { chargeJson } from '../helpers/fixtures.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Loopback {
  url: string;
  /** Every request the server received, with the socket it came on. */
  seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string; socket: Socket }[];
  /** Resolves when a socket the server accepted closes. */
  closed: Promise<void>;
}

const servers: Server[] = [];

async function serve(handler: Handler): Promise<Loopback> {
  const seen: Loopback['seen'] = [];
  let socketClosed!: () => void;
  const closed = new Promise<void>((resolve) => (socketClosed = resolve));
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, socket: req.socket });
      handler(req, res, body);
    });
  });
  server.on('connection', (socket: Socket) => socket.on('close', () => socketClosed()));
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, closed };
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

let modules: NodeModules;
let nodeFetch: NodeFetch;

beforeAll(async () => {
  modules = await importNodeModules();
  nodeFetch = createNodeFetch(modules);
});

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

/**
 * ky set up by lunas's own seam (src/core/ky.ts), sending through the Node
 * transport: every ky path lunas uses, with the light response.
 */
async function lunasKy(prefixUrl: string) {
  const http = await loadKy(prefixUrl, nodeFetch as unknown as typeof fetch);
  return (target: string, init: Partial<SendInit> = {}, signal = new AbortController().signal) =>
    http.send(target, { method: 'GET', headers: {}, body: undefined, ...init }, deadlineOf(signal));
}

/** An attempt's deadline that is `signal`: given as a caller's `fetch` is given one, a standard signal. */
function deadlineOf(signal: AbortSignal): AttemptDeadline {
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason(): unknown {
      return signal.reason;
    },
    addEventListener: (type, listener, options) => signal.addEventListener(type, listener, options),
    removeEventListener: (type, listener) => signal.removeEventListener(type, listener),
    standard: signal,
    ownTransport: false,
  };
}

const light = (response: Response) => response as unknown as LightResponse;

describe('ky over the Node transport', () => {
  it('sends a GET under prefixUrl with the headers given, and reads status, headers and JSON', async () => {
    const loopback = await serve((_req, res) =>
      json(res, 200, { status: 'success', data: { id: 'ch_1' } }, { 'x-request-id': 'req_1' }),
    );
    const response = await (
      await lunasKy(`${loopback.url}/v1`)
    )('payments/charges/ch_1?expand=no', {
      headers: { authorization: 'Bearer sk_test_x', 'user-agent': 'lunas-test' },
    });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${loopback.url}/v1/payments/charges/ch_1?expand=no`);
    expect(response.redirected).toBe(false);
    expect(response.headers).toBeInstanceOf(Headers);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(await response.json()).toEqual({ status: 'success', data: { id: 'ch_1' } });
    const [request] = loopback.seen;
    expect(request).toMatchObject({ method: 'GET', url: '/v1/payments/charges/ch_1?expand=no' });
    expect(request!.headers).toMatchObject({ authorization: 'Bearer sk_test_x', 'user-agent': 'lunas-test' });
  });

  it('sends a POST with a JSON string body, from the Request or from lunasBody', async () => {
    const loopback = await serve((_req, res, body) => json(res, 201, { echoed: JSON.parse(body) as unknown }));
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":"150000.25"}' };
    // lunas's seam hands the text over as `lunasBody`, so the Request's stream is not read back.
    const fromOption = await (await lunasKy(loopback.url))('v1/transfers', init as Partial<SendInit>);
    expect(await fromOption.json()).toEqual({ echoed: { amount: '150000.25' } });
    const fromRequest = await nodeFetch(
      new Request(`${loopback.url}/v1/transfers`, { ...init, body: '{"amount":"1.00"}' }),
    );
    expect(await fromRequest.json()).toEqual({ echoed: { amount: '1.00' } });
    expect(loopback.seen.map((r) => [r.method, r.headers['content-type'], r.headers['content-length']])).toEqual([
      ['POST', 'application/json', '22'],
      ['POST', 'application/json', '17'],
    ]);
  });

  it('hands back an error status without throwing, and sends it once (retry: 0)', async () => {
    const loopback = await serve((_req, res) => json(res, 500, { status: 'error', message: 'down' }));
    const response = await (await lunasKy(loopback.url))('v1/x');
    expect(response.status).toBe(500);
    expect(response.ok).toBe(false);
    expect(await response.text()).toBe('{"status":"error","message":"down"}');
    expect(loopback.seen).toHaveLength(1);
  });

  it('answers a 3xx as it came, following nothing', async () => {
    const loopback = await serve((_req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    const response = await (await lunasKy(loopback.url))('v1/x');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/elsewhere');
    expect(response.redirected).toBe(false);
    expect(loopback.seen.map((r) => r.url)).toEqual(['/v1/x']);
  });

  it('rejects with the signal’s reason on an abort before the headers, and closes that connection', async () => {
    const loopback = await serve(() => undefined); // never answers
    const controller = new AbortController();
    const sent = (await lunasKy(loopback.url))('v1/slow', {}, controller.signal);
    await vi.waitFor(() => expect(loopback.seen).toHaveLength(1));
    controller.abort();
    await expect(sent).rejects.toMatchObject({ name: 'AbortError' });
    await loopback.closed;
  });

  it('ends a body read on an abort mid-body, closing the connection', async () => {
    const loopback = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
    });
    const controller = new AbortController();
    const response = await (await lunasKy(loopback.url))('v1/list', {}, controller.signal);
    const text = response.text();
    controller.abort(new Error('caller gave up'));
    await expect(text).rejects.toThrow('caller gave up');
    await loopback.closed;
  });

  it('reuses keep-alive connections for calls in turn', async () => {
    const loopback = await serve((_req, res) => json(res, 200, { ok: true }));
    const api = await lunasKy(loopback.url);
    for (const path of ['v1/a', 'v1/b', 'v1/c', 'v1/d']) await (await api(path)).text();
    // As with Node's fetch: the pool may open a second connection while the first finishes, no more.
    const sockets = loopback.seen.map((request) => request.socket);
    expect(sockets).toHaveLength(4);
    expect(new Set(sockets).size).toBeLessThanOrEqual(2);
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('asks for and decodes a %s body', async (coding, compress) => {
    const body = JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: `ch_${i}` })) });
    const loopback = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
      res.end(compress(body));
    });
    const response = await (await lunasKy(loopback.url))('v1/list');
    expect(await response.text()).toBe(body);
    expect(loopback.seen[0]!.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('rejects with a TypeError, as fetch does, when the connection is refused', async () => {
    const loopback = await serve(() => undefined);
    const url = loopback.url;
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const error: unknown = await (await lunasKy(url))('v1/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });

  it('builds a web-stream body only when asked, and reads the whole body through it', async () => {
    const loopback = await serve((_req, res) => json(res, 200, { via: 'stream' }));
    const response = await (await lunasKy(loopback.url))('v1/x');
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    expect(Buffer.concat(chunks).toString()).toBe('{"via":"stream"}');
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toBeInstanceOf(TypeError);
  });
});

describe('the capped body reader', () => {
  it('reads a body within the limit (decompressed bytes counted), a byte-order mark dropped', async () => {
    const loopback = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"é"}')])));
    });
    const response = light(await (await lunasKy(loopback.url))('v1/x'));
    expect(await response[READ_BODY](13)).toBe('{"a":"é"}');
  });

  it('rejects past the limit with LunasBodyTooLarge and closes the connection', async () => {
    const loopback = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('x'.repeat(64 * 1024));
      // The rest never comes: only closing the connection ends this exchange.
    });
    const response = light(await (await lunasKy(loopback.url))('v1/big'));
    await expect(response[READ_BODY](1024)).rejects.toMatchObject({ name: BODY_TOO_LARGE });
    await loopback.closed;
  });

  it('ends a pending read when the body is cancelled (the attempt’s deadline)', async () => {
    const loopback = await serve((_req, res) => {
      res.writeHead(200);
      res.write('{');
    });
    const response = light(await (await lunasKy(loopback.url))('v1/x'));
    const read = response[READ_BODY](1024);
    response[CANCEL_BODY]();
    await expect(read).rejects.toBeInstanceOf(Error);
    await loopback.closed;
  });
});

describe('loadNodeTransport', () => {
  it('is the Node transport on Node.js, answering with a light response', async () => {
    const loopback = await serve((_req, res) => json(res, 200, { ok: true }));
    expect(isNodeRuntime()).toBe(true);
    const transport = await loadNodeTransport();
    const response = await transport!.send(`${loopback.url}/x`);
    expect(response).not.toBeInstanceOf(Response);
    expect(await response.json()).toEqual({ ok: true });
  });

  it.each([
    ['Bun', 'Bun', {}],
    ['Deno', 'Deno', {}],
    ['workerd with nodejs_compat', 'navigator', { userAgent: 'Cloudflare-Workers' }],
  ])('is undefined on %s', async (_name, global, value) => {
    vi.stubGlobal(global, value);
    expect(isNodeRuntime()).toBe(false);
    expect(await loadNodeTransport()).toBeUndefined();
  });

  it('is left for global fetch below undici 7’s Node.js floor, 20.18.1', () => {
    expect(['20.18.0', '20.17.9', '20.18.1', '20.19.0', '22.0.0'].map(undiciRuns)).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it('is undefined when NODE_USE_ENV_PROXY puts Node’s fetch behind an environment proxy', async () => {
    vi.stubEnv('NODE_USE_ENV_PROXY', '1');
    vi.stubEnv('HTTPS_PROXY', 'http://proxy.internal:3128');
    expect(await loadNodeTransport()).toBeUndefined();
  });

  it('sends through global fetch while the merchant’s global dispatcher is set', async () => {
    const loopback = await serve((_req, res) => json(res, 404, { status: 'error', message: 'no such charge' }));
    const transport = (await loadNodeTransport())!;
    const retrieve = () =>
      new Client({
        apiKey: 'sk_test_node_transport',
        baseURL: `${loopback.url}/v1`,
        logLevel: 'off',
        maxRetries: 0,
      }).charges
        .retrieve('ch_1')
        .catch(() => undefined);
    const slot = Symbol.for('undici.globalDispatcher.1');
    const slots = globalThis as unknown as Record<symbol, unknown>;
    const before = slots[slot];
    // A merchant's own Agent, with its own connection settings: only global fetch honours it.
    const merchants = new (await import('undici')).Agent({ connect: { timeout: 5_000 } });
    slots[slot] = merchants;
    try {
      expect(transport.inUse()).toBe(false);
      await retrieve();
    } finally {
      slots[slot] = before;
      await merchants.close();
    }
    expect(transport.inUse()).toBe(true);
    await retrieve();
    // Node's fetch adds the Fetch standard's `sec-fetch-mode`; undici's own client sends only what it is given.
    expect(loopback.seen.map((request) => request.headers['sec-fetch-mode'])).toEqual(['cors', undefined]);
  });
});

describe('undici, as lunas loads it', () => {
  it('installs no global dispatcher, so global fetch keeps Node’s own', () => {
    // A fresh process: in this one, an earlier global fetch has already made Node's dispatcher.
    const script = `
      const { loadNodeTransport } = await import(${JSON.stringify(new URL('../../src/core/node-fetch.ts', import.meta.url).href)});
      if (typeof (await loadNodeTransport())?.send !== 'function') throw new Error('no Node transport');
      console.log(String(globalThis[Symbol.for('undici.globalDispatcher.1')]));`;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(output.trim()).toBe('undefined');
  });

  it('is still used when the merchant’s own code imported undici, whose entry installs a default Agent', async () => {
    const slot = Symbol.for('undici.globalDispatcher.1');
    const slots = globalThis as unknown as Record<symbol, unknown>;
    const before = slots[slot];
    const { Agent } = await import('undici');
    const installed = new Agent();
    slots[slot] = installed;
    try {
      const loopback = await serve((_req, res) => json(res, 200, { ok: true }));
      const transport = (await loadNodeTransport())!;
      expect(transport.inUse()).toBe(true);
      expect(await transport.send(`${loopback.url}/x`)).not.toBeInstanceOf(Response);
    } finally {
      slots[slot] = before;
      await installed.close();
    }
  });
});

describe('a process’s first attempt', () => {
  // A fresh process each: in this one, the test setup has loaded the Node transport already.
  const run = async (url: string, calls: string) => {
    const script = `
      const { Client } = await import(${JSON.stringify(new URL('../../src/index.ts', import.meta.url).href)});
      const { createRequire } = await import('node:module');
      const client = new Client({ apiKey: 'sk_test_first_attempt', baseURL: ${JSON.stringify(url)}, logLevel: 'off', maxRetries: 0 });
      const call = () => client.charges.retrieve('ch_1').then(() => 'ok', () => 'error');
      ${calls}
      const undiciLoaded = Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/undici/'));
      console.log(JSON.stringify({ undiciLoaded }));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    );
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as { undiciLoaded: boolean };
  };
  const sentThrough = (loopback: Loopback) =>
    // Node's fetch adds the Fetch standard's `sec-fetch-mode`; undici's own client sends only what it is given.
    loopback.seen.map((request) => (request.headers['sec-fetch-mode'] === 'cors' ? 'fetch' : 'node'));

  it('goes through global fetch, and a process that makes one call never imports undici', async () => {
    const loopback = await serve((_req, res) => json(res, 404, { status: 'error', message: 'no such charge' }));
    expect(await run(loopback.url, 'await call();')).toEqual({ undiciLoaded: false });
    expect(sentThrough(loopback)).toEqual(['fetch']);
  });

  it('is followed by the Node transport, loaded from the second attempt on without holding it up', async () => {
    const loopback = await serve((_req, res) => json(res, 404, { status: 'error', message: 'no such charge' }));
    // The load the second call started is awaited (the same promise), so the third goes through the Node transport.
    const calls = `
      await call(); await call();
      await (await import(${JSON.stringify(new URL('../../src/core/ky.ts', import.meta.url).href)})).loadNodeTransportOnce();
      await call();`;
    expect(await run(loopback.url, calls)).toEqual({ undiciLoaded: true });
    expect(sentThrough(loopback)).toEqual(['fetch', 'fetch', 'node']);
  });
});

describe('lunas over the Node transport, end to end against the sandbox', () => {
  it('creates, retrieves and walks charges', async () => {
    const sandbox = await startSandbox();
    try {
      const transport = (await loadNodeTransport())!;
      const client = new Client({
        apiKey: sandbox.apiKey,
        baseURL: sandbox.url,
        fetch: transport.send as unknown as typeof fetch,
        logLevel: 'off',
      });
      const created = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
      expect((await client.charges.retrieve(created.id)).id).toBe(created.id);
      for (let i = 0; i < 4; i++) await client.charges.create({ payment_method: 'qris', amount: 10_000 + i });
      const ids: string[] = [];
      for await (const charge of client.charges.list({ pagesize: 2 })) ids.push(charge.id);
      expect(ids).toHaveLength(5);
      await expect(client.charges.retrieve('ch_missing')).rejects.toMatchObject({ status: 404 });
    } finally {
      await sandbox.close();
    }
  });
});

describe('a client on Node.js without a fetch: every behaviour of the standard path, over the Node transport', () => {
  const API_KEY = 'sk_test_node_transport';
  const client = (url: string, options: Partial<ConstructorParameters<typeof Client>[0]> = {}) =>
    new Client({ apiKey: API_KEY, baseURL: `${url}/v1`, logLevel: 'off', maxRetries: 0, ...options });
  const charge = chargeJson({ id: 'ch_1' });
  /** What a call rejects with. */
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable('the call succeeded'),
      (error: unknown) => error,
    );

  it('sends through the Node transport; `fetch: globalThis.fetch` takes the standard path', async () => {
    const loopback = await serve((_req, res) => json(res, 404, { status: 'error', message: 'no such charge' }));
    await failure(client(loopback.url).charges.retrieve('ch_1'));
    await failure(client(loopback.url, { fetch: globalThis.fetch }).charges.retrieve('ch_1'));
    // Node's fetch adds the Fetch standard's `sec-fetch-mode`; undici's own client sends only what it is given.
    expect(loopback.seen.map((request) => request.headers['sec-fetch-mode'])).toEqual([undefined, 'cors']);
  });

  it('leaves every request to a global fetch something replaced (a test mock, a tracing agent)', async () => {
    const loopback = await serve((_req, res) => json(res, 500, { status: 'error', message: 'unseen' }));
    const replaced = vi.fn<typeof fetch>(async () => Response.json({ status: 'success', data: charge }));
    vi.stubGlobal('fetch', replaced);
    expect(await client(loopback.url).charges.retrieve('ch_1')).toMatchObject({ id: 'ch_1' });
    expect(replaced).toHaveBeenCalledTimes(1);
    expect(loopback.seen).toEqual([]);
  });

  it('answers with data and the request id the service sent, over one keep-alive connection', async () => {
    const loopback = await serve((req, res) =>
      json(res, 200, { status: 'success', data: charge }, { 'x-request-id': `req_${loopback.seen.length}` }),
    );
    const lunas = client(loopback.url);
    for (let i = 1; i <= 4; i++) {
      const retrieved = await lunas.charges.retrieve('ch_1');
      expect(getResponseInfo(retrieved)).toMatchObject({ status: 200, requestId: `req_${i}` });
    }
    expect(new Set(loopback.seen.map((request) => request.socket)).size).toBeLessThanOrEqual(2);
  });

  it('times out while waiting for the headers, closing the connection', async () => {
    const loopback = await serve(() => undefined);
    const error = await failure(client(loopback.url, { timeout: 100 }).charges.retrieve('ch_1'));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    await loopback.closed;
  });

  it('times out on time while waiting in the pool’s queue behind 64 requests that hold every connection', async () => {
    const loopback = await serve(() => undefined);
    const holders = new AbortController();
    // undici's pool keeps 64 connections per origin: these hold them all, longer than the call below may wait.
    const holding = Array.from({ length: 64 }, () =>
      failure(client(loopback.url, { timeout: 60_000 }).charges.retrieve('ch_1', { signal: holders.signal })),
    );
    await vi.waitFor(() => expect(loopback.seen).toHaveLength(64));
    const started = performance.now();
    const queued = await failure(client(loopback.url, { timeout: 200 }).charges.retrieve('ch_2'));
    expect(queued).toBeInstanceOf(APIConnectionTimeoutError);
    // undici itself would end it only once a connection freed: when the holders give up.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(loopback.seen).toHaveLength(64);
    holders.abort();
    expect((await Promise.all(holding)).every((error) => error instanceof APIUserAbortError)).toBe(true);
  });

  it('times out on one deadline while the body streams, closing the connection', async () => {
    const loopback = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":"success","data":');
    });
    const started = performance.now();
    const error = await failure(client(loopback.url, { timeout: 150 }).charges.retrieve('ch_1'));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(performance.now() - started).toBeLessThan(1_000);
    await loopback.closed;
  });

  it('ends on the caller’s abort while the body streams, closing the connection', async () => {
    const loopback = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":"success","data":');
    });
    const controller = new AbortController();
    const call = failure(client(loopback.url).charges.retrieve('ch_1', { signal: controller.signal }));
    await vi.waitFor(() => expect(loopback.seen).toHaveLength(1));
    setTimeout(() => controller.abort(), 20);
    expect(await call).toBeInstanceOf(APIUserAbortError);
    await loopback.closed;
  });

  it('follows no redirect: a 307 is an APIError with its Location, and nothing is sent there', async () => {
    const elsewhere = await serve((_req, res) => json(res, 200, { status: 'success', data: charge }));
    const loopback = await serve((_req, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/v1/payments/charges/ch_1` });
      res.end();
    });
    const error = await failure(client(loopback.url).charges.retrieve('ch_1'));
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 307 });
    expect((error as APIError).headers.get('location')).toBe(`${elsewhere.url}/v1/payments/charges/ch_1`);
    expect(elsewhere.seen).toEqual([]);
  });

  it('stops reading past the size cap: ResponseBodyError too-large, connection closed', async () => {
    const loopback = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_big' });
      res.write(`{"status":"success","data":"${'x'.repeat(MAX_RESPONSE_BODY_BYTES)}`);
      // Never ended: only lunas closing the connection ends this exchange.
    });
    const error = await failure(client(loopback.url).charges.retrieve('ch_1'));
    expect(error).toBeInstanceOf(ResponseBodyError);
    expect(error).toMatchObject({ reason: 'too-large', status: 200, requestId: 'req_big' });
    await loopback.closed;
  });
});
