/**
 * `undiciFetch` (lunas-sdk/undici): undici's `request` on the global
 * dispatcher, as a client's `fetch` and on its own, against real loopback
 * servers (msw does not see undici's requests, and a socket is what
 * keep-alive, aborts, codings and parsing are about). Where it promises to
 * do what global `fetch` does, the test asks `fetch` the same question in
 * the same process and expects the same answer.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, constants as zlib, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { getGlobalDispatcher, MockAgent, setGlobalDispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  Client,
  type ClientOptions,
  getResponseInfo,
  ResponseBodyError,
} from '../../../src/index.js';
import { MAX_RESPONSE_BODY_BYTES } from '../../../src/core/call/attempt.js';
import { undiciFetch } from '../../../src/undici/index.js';
import { startSandbox } from '../../../src/testing/index.js';
import { chargeJson } from '../../helpers/fixtures.js';

const run = promisify(execFile);

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Loopback {
  url: string;
  /** Every request the server received, with the socket it came on. */
  seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string; socket: Socket }[];
  /** Resolves when a socket the server accepted closes. */
  closed: Promise<void>;
}

const servers: { close(done: () => void): void; closeAllConnections?(): void }[] = [];

async function listening(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

async function serve(
  handler: Handler,
  make: (listener: Parameters<typeof createServer>[1]) => Server = createServer,
): Promise<Loopback> {
  const seen: Loopback['seen'] = [];
  let socketClosed!: () => void;
  const closed = new Promise<void>((resolve) => (socketClosed = resolve));
  const server = make((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, socket: req.socket });
      handler(req, res, body);
    });
  });
  server.on('connection', (socket: Socket) => socket.on('close', () => socketClosed()));
  const port = await listening(server);
  return { url: `http://127.0.0.1:${port}`, seen, closed };
}

/**
 * A server that writes `response` (raw HTTP/1.1, headers and body) to every
 * request, and then closes the connection when `thenClose` says so.
 */
async function serveRaw(response: () => Buffer | string, thenClose = false): Promise<string> {
  const connections = new Set<Socket>();
  const server = createTcpServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', () => {
      socket.write(response());
      if (thenClose) setTimeout(() => socket.destroy(), 20);
    });
  });
  // Ended at close, as an HTTP server's closeAllConnections ends its own: fetch's idle
  // keep-alive connection would hold close() for its keep-alive timeout, seconds a test.
  const endConnections = () => connections.forEach((socket) => socket.destroy());
  return `http://127.0.0.1:${await listening(Object.assign(server, { closeAllConnections: endConnections }))}`;
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections?.();
          server.close(() => resolve());
        }),
    ),
  );
});

const API_KEY = 'sk_test_undici_fetch';
const charge = chargeJson({ id: 'ch_1' });

/** A client sending through `undiciFetch`. */
const client = (url: string, options: Partial<ClientOptions> = {}) =>
  new Client({ apiKey: API_KEY, baseURL: `${url}/v1`, logLevel: 'off', maxRetries: 0, fetch: undiciFetch, ...options });

/** What a call rejects with. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error,
  );

/**
 * Runs `script` (ESM, with the SDK's source at `SDK` and lunas-sdk/undici's at
 * `UNDICI`) in a fresh Node.js process and returns its last line as JSON.
 */
async function fresh(script: string, env: Record<string, string> = {}): Promise<unknown> {
  const sdk = new URL('../../../src/index.ts', import.meta.url).href;
  const undici = new URL('../../../src/undici/index.ts', import.meta.url).href;
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const SDK = ${JSON.stringify(sdk)};\nconst UNDICI = ${JSON.stringify(undici)};\n${script}`,
    ],
    { encoding: 'utf8', env: { ...process.env, ...env } },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('a client without a fetch, and lunas-sdk/undici loaded beside it', () => {
  it('sends every call through global fetch, the first included, and undiciFetch only when given', async () => {
    const loopback = await serve((_req, res) => json(res, 200, { status: 'success', data: charge }));
    // Global fetch wrapped by a counter in a fresh process, as an APM would, before lunas is imported.
    const script = `
      let viaGlobalFetch = 0;
      const original = globalThis.fetch;
      globalThis.fetch = (...args) => { viaGlobalFetch++; return original(...args); };
      const { Client } = await import(SDK);
      const { undiciFetch } = await import(UNDICI);
      const options = { apiKey: 'sk_test_first_attempt', baseURL: ${JSON.stringify(loopback.url)}, logLevel: 'off', maxRetries: 0 };
      const client = new Client(options);
      for (let i = 0; i < 3; i++) await client.charges.retrieve('ch_1');
      const seenByDefault = viaGlobalFetch;
      await new Client({ ...options, fetch: undiciFetch }).charges.retrieve('ch_1');
      console.log(JSON.stringify({ seenByDefault, seenInAll: viaGlobalFetch }));`;
    expect(await fresh(script)).toEqual({ seenByDefault: 3, seenInAll: 3 });
    // Node's fetch adds the Fetch standard's `sec-fetch-mode`; undici's request sends only what it is given.
    expect(loopback.seen.map((request) => request.headers['sec-fetch-mode'])).toEqual([
      'cors',
      'cors',
      'cors',
      undefined,
    ]);
  });

  it('leaves global fetch on Node’s own dispatcher: loading lunas-sdk/undici changes nothing the merchant’s fetch does', async () => {
    // Node 20's own fetch accepts a folded header; the Agent undici's entry installs when none is set does not.
    const url = await serveRaw(foldedResponse);
    const script = `
      const { Client } = await import(SDK);
      const { undiciFetch } = await import(UNDICI);
      const client = new Client({ apiKey: 'sk_test_first_attempt', baseURL: ${JSON.stringify(url)}, logLevel: 'off', maxRetries: 0, fetch: undiciFetch });
      const lunas = await client.get('/v1/ping').then(() => 'ok', (e) => e.name);
      const fetched = await fetch(${JSON.stringify(url)}).then((r) => r.text()).then(() => 'ok', (e) => e.cause?.code ?? e.name);
      console.log(JSON.stringify({ lunas, fetched }));`;
    const before = await fetch(url).then(
      async (response) => (await response.text(), 'ok'),
      (error: { cause?: { code?: string } }) => error.cause?.code ?? 'error',
    );
    expect(await fresh(script)).toEqual({ lunas: before, fetched: before });
  });
});

/** A response with a header folded over two lines (obs-fold, which RFC 9112 lets a recipient unfold). */
function foldedResponse(): string {
  const body = JSON.stringify({ status: 'success', data: { ok: true } });
  return [
    'HTTP/1.1 200 OK',
    'Content-Type: application/json',
    'X-Folded: first',
    ' second',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

describe('the same exchange as global fetch', () => {
  /** `fetch`'s reading of `url`'s body as JSON, or its error's code. */
  const fetched = (url: string) =>
    fetch(url).then(
      (response) => response.json(),
      (error: { cause?: { code?: string } }) => ({ error: error.cause?.code ?? 'error' }),
    );

  it.each([
    ['gzip', (body: Buffer) => gzipSync(body)],
    ['x-gzip', (body: Buffer) => gzipSync(body)],
    ['deflate', (body: Buffer) => deflateSync(body)],
    ['deflate (raw, no zlib wrapper)', (body: Buffer) => deflateRawSync(body)],
    ['br', (body: Buffer) => brotliCompressSync(body)],
    ['gzip, br (stacked)', (body: Buffer) => brotliCompressSync(gzipSync(body))],
    ['deflate, gzip (stacked, raw deflate)', (body: Buffer) => gzipSync(deflateRawSync(body))],
    ['GZIP (any case)', (body: Buffer) => gzipSync(body)],
  ])('decodes Content-Encoding %s as fetch does', async (coding, encode) => {
    const header = coding.replace(/ \(.*\)$/, '');
    const body = encode(Buffer.from(JSON.stringify({ status: 'success', data: charge })));
    const loopback = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': header });
      res.end(body);
    });
    expect(await fetched(`${loopback.url}/v1/payments/charges/ch_1`)).toEqual({ status: 'success', data: charge });
    expect(await client(loopback.url).charges.retrieve('ch_1')).toMatchObject({ id: 'ch_1' });
  });

  it('leaves a body in a coding fetch does not decode as it came, as fetch does', async () => {
    const text = JSON.stringify({ status: 'success', data: charge });
    const loopback = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip, x-unknown' });
      res.end(text);
    });
    expect(await fetched(`${loopback.url}/v1/payments/charges/ch_1`)).toEqual({ status: 'success', data: charge });
    expect(await client(loopback.url).charges.retrieve('ch_1')).toMatchObject({ id: 'ch_1' });
  });

  it('asks for the codings it decodes, as fetch does over plain HTTP', async () => {
    const loopback = await serve((_req, res) => json(res, 200, { status: 'success', data: charge }));
    await fetch(loopback.url);
    await client(loopback.url).charges.retrieve('ch_1');
    const [viaFetch, viaLunas] = loopback.seen.map((request) => request.headers['accept-encoding']);
    expect(viaLunas).toBe(viaFetch);
  });

  it('accepts a folded header where global fetch accepts it, unfolded', async () => {
    const url = await serveRaw(foldedResponse);
    const viaFetch = await fetch(url).then(
      (response) => response.headers.get('x-folded'),
      (error: { cause?: { code?: string } }) => ({ error: error.cause?.code }),
    );
    const viaLunas = await client(url)
      .get('/v1/ping')
      .then(
        (data) => getResponseInfo(data as object)?.headers.get('x-folded'),
        (error: unknown) => ({ error: (error as APIConnectionError).cause }),
      );
    expect(viaFetch).toBe('first second');
    expect(viaLunas).toBe(viaFetch);
  });

  it('caps no connection that fetch does not: 80 slow calls at once all answer, none times out', async () => {
    let onWire = 0;
    let most = 0;
    const loopback = await serve((_req, res) => {
      most = Math.max(most, ++onWire);
      setTimeout(() => {
        onWire--;
        json(res, 200, { status: 'success', data: charge });
      }, 1_000);
    });
    // No cap of lunas either: with its default of 64 turns, 16 calls would wait a second for one,
    // and that wait is not counted in their 1.8 s (a queue counted would time them out).
    for (const maxConcurrentRequests of [Infinity, 64]) {
      const lunas = client(loopback.url, { timeout: 1_800, maxConcurrentRequests });
      const outcomes = await Promise.all(
        Array.from({ length: 80 }, () =>
          lunas.charges.retrieve('ch_1').then(
            () => 'ok',
            (error: unknown) => (error as Error).name,
          ),
        ),
      );
      expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual([]);
      expect(most).toBe(maxConcurrentRequests === Infinity ? 80 : 64);
      most = 0;
    }
    expect(loopback.seen).toHaveLength(160);
  });

  it('sends at most maxConcurrentRequests at once, in the order the calls came; an abort leaves the queue unsent', async () => {
    const order: string[] = [];
    let onWire = 0;
    let most = 0;
    const loopback = await serve((req, res) => {
      order.push(req.url!);
      most = Math.max(most, ++onWire);
      setTimeout(() => {
        onWire--;
        json(res, 200, { status: 'success', data: chargeJson({ id: req.url!.split('/').at(-1)! }) });
      }, 400);
    });
    const lunas = client(loopback.url, { maxConcurrentRequests: 1, timeout: 1_000 });
    const controller = new AbortController();
    const ids = ['ch_1', 'ch_2', 'ch_3', 'ch_4', 'ch_5'];
    const calls = ids.map((id) =>
      lunas.charges.retrieve(id, id === 'ch_3' ? { signal: controller.signal } : {}).then(
        (retrieved) => retrieved.id,
        (error: unknown) => (error as Error).constructor.name,
      ),
    );
    controller.abort();
    // ch_5 waits about 1.2 s for its turn, past its 1 s timeout: the wait is not counted.
    expect(await Promise.all(calls)).toEqual(['ch_1', 'ch_2', 'APIUserAbortError', 'ch_4', 'ch_5']);
    expect(most).toBe(1);
    expect(order).toEqual(['ch_1', 'ch_2', 'ch_4', 'ch_5'].map((id) => `/v1/payments/charges/${id}`));
  });

  it('reads responses on a polluted Object.prototype: an enumerable name there is not a header', async () => {
    const loopback = await serve((_req, res) =>
      json(res, 200, { status: 'success', data: { pong: true } }, { 'x-request-id': 'req_1' }),
    );
    const lunas = client(loopback.url);
    // As a red team wrote it: enumerable, and neither writable nor configurable by default (configurable here, to undo it).
    Object.defineProperty(Object.prototype, 'polluted', { value() {}, enumerable: true, configurable: true });
    let outcome: unknown;
    try {
      outcome = await lunas.get('/v1/ping').then(
        (data) => data,
        (error: unknown) => error,
      );
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    // Asserted once the prototype is clean again: the test runner's own comparisons walk it too.
    expect(outcome).toEqual({ pong: true });
    const info = getResponseInfo(outcome as object)!;
    expect(info.requestId).toBe('req_1');
    expect(info.headers.has('polluted')).toBe(false);
  });

  it('sends through the merchant’s global dispatcher, set before or after the client was built', async () => {
    const lunas = client('https://api.lunas.example');
    const previous = getGlobalDispatcher();
    const mock = new MockAgent();
    mock.disableNetConnect();
    mock
      .get('https://api.lunas.example')
      .intercept({ path: '/v1/payments/charges/ch_1', method: 'GET' })
      .reply(200, { status: 'success', data: charge }, { headers: { 'content-type': 'application/json' } });
    setGlobalDispatcher(mock);
    try {
      expect(await lunas.charges.retrieve('ch_1')).toMatchObject({ id: 'ch_1' });
      mock.assertNoPendingInterceptors();
    } finally {
      setGlobalDispatcher(previous);
      await mock.close();
    }
  });

  it('trusts the certificates NODE_EXTRA_CA_CERTS adds, as fetch does', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lunas-tls-'));
    try {
      const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
      await run('openssl', [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ]);
      const tls = { key: await readFile(key), cert: await readFile(cert) };
      const loopback = await serve(
        (_req, res) => json(res, 200, { status: 'success', data: charge }),
        (listener) => createTlsServer(tls, listener) as unknown as Server,
      );
      const url = loopback.url.replace('http:', 'https:');
      const script = `
        const { Client } = await import(SDK);
        const { undiciFetch } = await import(UNDICI);
        const client = new Client({ apiKey: 'sk_test_extra_ca_1', baseURL: ${JSON.stringify(url)}, logLevel: 'off', maxRetries: 0, fetch: undiciFetch });
        const lunas = await client.charges.retrieve('ch_1').then((c) => c.id, (e) => e.name);
        const fetched = await fetch(${JSON.stringify(url)}).then((r) => r.status, (e) => e.cause?.code);
        console.log(JSON.stringify({ lunas, fetched }));`;
      expect(await fresh(script, { NODE_EXTRA_CA_CERTS: cert })).toEqual({ lunas: 'ch_1', fetched: 200 });
      expect(await fresh(script)).toEqual({ lunas: 'APIConnectionError', fetched: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a client over undiciFetch', () => {
  it('sends the headers and JSON body lunas built, and reads status, request id and data', async () => {
    const loopback = await serve((_req, res) =>
      json(res, 201, { status: 'success', data: { id: 'tr_1' } }, { 'x-request-id': 'req_post' }),
    );
    const data = await client(loopback.url).post('/v1/transfers', { body: { amount: '10.00' }, idempotencyKey: 'k-1' });
    expect(getResponseInfo(data as object)).toMatchObject({ status: 201, requestId: 'req_post' });
    const [seen] = loopback.seen;
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/transfers', body: '{"amount":"10.00"}' });
    expect(seen!.headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      'content-type': 'application/json',
      'idempotency-key': 'k-1',
      accept: 'application/json',
    });
  });

  it('answers over keep-alive connections, reused for calls in turn', async () => {
    const loopback = await serve((_req, res) =>
      json(res, 200, { status: 'success', data: charge }, { 'x-request-id': `req_${loopback.seen.length}` }),
    );
    const lunas = client(loopback.url);
    for (let i = 1; i <= 4; i++) {
      const retrieved = await lunas.charges.retrieve('ch_1');
      expect(getResponseInfo(retrieved)).toMatchObject({ status: 200, requestId: `req_${i}` });
    }
    // As with global fetch: a call that follows at once may find its predecessor's connection not yet released.
    expect(new Set(loopback.seen.map((request) => request.socket)).size).toBeLessThanOrEqual(2);
  });

  it('times out while waiting for the headers, closing the connection', async () => {
    const loopback = await serve(() => undefined);
    expect(await failure(client(loopback.url, { timeout: 100 }).charges.retrieve('ch_1'))).toBeInstanceOf(
      APIConnectionTimeoutError,
    );
    await loopback.closed;
  });

  it('times out on one deadline while the body streams, closing the connection', async () => {
    const loopback = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":"success","data":');
    });
    const started = performance.now();
    expect(await failure(client(loopback.url, { timeout: 150 }).charges.retrieve('ch_1'))).toBeInstanceOf(
      APIConnectionTimeoutError,
    );
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
    await expect.poll(() => loopback.seen.length).toBe(1);
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

  it('counts the cap after decoding: a small gzip body that inflates past it is too large', async () => {
    const bomb = gzipSync(Buffer.alloc(MAX_RESPONSE_BODY_BYTES + 1024, 0x20));
    const loopback = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await failure(client(loopback.url).charges.retrieve('ch_1'))).toMatchObject({ reason: 'too-large' });
  });

  it('decodes only as far as it reads: a 1 GiB brotli body stops at the cap with memory to spare', async () => {
    // Quality 9, not the default 11: the same bytes decoded, compressed in a tenth of the time.
    const bomb = brotliCompressSync(Buffer.alloc(64 * 1024 * 1024, 0x20), {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9 },
    });
    const loopback = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br, br, br, br' });
      // Four layers of a 64 MiB run: stacked, it would inflate to far more than 1 GiB if decoded ahead.
      res.end(brotliCompressSync(brotliCompressSync(brotliCompressSync(bomb))));
    });
    const before = process.memoryUsage();
    expect(await failure(client(loopback.url).charges.retrieve('ch_1'))).toMatchObject({ reason: 'too-large' });
    const after = process.memoryUsage();
    expect(after.arrayBuffers + after.heapUsed - before.arrayBuffers - before.heapUsed).toBeLessThan(256 * 1024 * 1024);
  });

  it('reads a body that breaks off after the headers as unreadable, not as no response', async () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const url = await serveRaw(() => `${head}{"status"`, true);
    const error = await failure(client(url).charges.retrieve('ch_1'));
    expect(error).toBeInstanceOf(ResponseBodyError);
    expect(error).toMatchObject({ reason: 'unreadable', status: 200 });
  });

  it('rejects with a TypeError, as fetch does, when the connection is refused', async () => {
    const loopback = await serve(() => undefined);
    await new Promise<void>((resolve) => (servers.pop() as Server).close(() => resolve()));
    const error = await failure(client(loopback.url).charges.retrieve('ch_1'));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).message).toContain('fetch failed');
  });
});

describe('undiciFetch, as a fetch', () => {
  const nodeFetch = undiciFetch;

  it('takes a URL and an init as fetch does, and answers a real Response', async () => {
    const loopback = await serve((req, res, body) => json(res, 200, { method: req.method, body }));
    const response = await nodeFetch(loopback.url, { method: 'POST', body: 'hello', headers: { 'X-Test': '1' } });
    expect(response).toBeInstanceOf(Response);
    expect(await response.json()).toEqual({ method: 'POST', body: 'hello' });
    expect(loopback.seen[0]!.headers['x-test']).toBe('1');
  });

  it('gives a body that is not text the Content-Type fetch gives it', async () => {
    const loopback = await serve((req, res, body) => json(res, 200, { type: req.headers['content-type'], body }));
    const response = await nodeFetch(loopback.url, { method: 'POST', body: new URLSearchParams({ a: '1' }) });
    expect(await response.json()).toEqual({ type: 'application/x-www-form-urlencoded;charset=UTF-8', body: 'a=1' });
  });

  it('reads the method, headers and body of a Request when the init leaves them out', async () => {
    const loopback = await serve((req, res, body) => json(res, 200, { method: req.method, body }));
    const request = new Request(loopback.url, { method: 'PUT', body: 'from the request', headers: { 'x-test': '2' } });
    const response = await nodeFetch(request);
    expect(await response.json()).toEqual({ method: 'PUT', body: 'from the request' });
    expect(loopback.seen[0]!.headers['x-test']).toBe('2');
  });

  it('answers a 204 and a HEAD with no body', async () => {
    const loopback = await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    expect((await nodeFetch(loopback.url)).body).toBeNull();
    expect((await nodeFetch(loopback.url, { method: 'HEAD' })).body).toBeNull();
  });

  it('rejects with the signal’s reason when aborted before the headers', async () => {
    const loopback = await serve(() => undefined);
    const controller = new AbortController();
    const pending = nodeFetch(loopback.url, { signal: controller.signal });
    await expect.poll(() => loopback.seen.length).toBe(1);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('rejects a protocol other than http and https as a network error', async () => {
    await expect(nodeFetch('ftp://127.0.0.1/')).rejects.toThrow(TypeError);
  });
});

describe('lunas over undiciFetch, end to end against the sandbox', () => {
  it('creates, retrieves and walks charges', async () => {
    const sandbox = await startSandbox();
    try {
      const lunas = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url, logLevel: 'off', fetch: undiciFetch });
      const created = await lunas.charges.create({ payment_method: 'qris', amount: 25_000 });
      expect((await lunas.charges.retrieve(created.id)).id).toBe(created.id);
      for (let i = 0; i < 4; i++) await lunas.charges.create({ payment_method: 'qris', amount: 10_000 + i });
      const ids: string[] = [];
      for await (const listed of lunas.charges.list({ pagesize: 2 })) ids.push(listed.id);
      expect(ids).toHaveLength(5);
      await expect(lunas.charges.retrieve('ch_missing')).rejects.toMatchObject({ status: 404 });
    } finally {
      await sandbox.close();
    }
  });
});
