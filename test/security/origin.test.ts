/**
 * Where the key may travel:
 * - plain http: only to loopback. Whatever the base URL string (numeric and
 *   hex IPv4 forms, userinfo and backslash tricks, trailing dots,
 *   percent-encoded hosts), a client either refuses it with `LunasError` or
 *   every request it sends over http: goes to a loopback host;
 * - redirects: nothing reaches another origin, `Authorization` least of
 *   all, for every redirect status, GET and POST, another host or only
 *   another port (real node:http servers on loopback; the target listens and
 *   would answer, so a refused connection cannot pass for safety): the 3xx
 *   is an `APIError` carrying its status;
 * - browsers: construction is refused in a browser-like environment unless
 *   `dangerouslyAllowBrowser` is set, also when the key comes from the
 *   environment.
 *
 * test/unit/client.test.ts lists fixed hosts and key-leaks/sent.test.ts
 * one GET 307 redirect; this file generalises both.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { APIError, Client, LunasError } from 'lunas-sdk';
import { isLoopbackHost } from '../helpers/hostile.js';

const KEY = 'sk_test_origin_0b9d47';
const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 300);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('plain http only to loopback', () => {
  const hosts = [
    'localhost',
    'LOCALHOST',
    'localhost.',
    'localhost.evil.com',
    'evil-localhost',
    'evil.com',
    'api.lunas.test',
    '127.0.0.1',
    '127.1',
    '127.0.1',
    '127.255.255.255',
    '0x7f.1',
    '0x7f000001',
    '2130706433',
    '017700000001',
    '0177.0.0.1',
    '127.0.0.1.evil.com',
    '128.0.0.1',
    '126.255.255.255',
    '0.0.0.0',
    '0',
    '10.0.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
    '[::ffff:127.0.0.1]',
    '[::]',
    '[::2]',
    '%6c%6f%63%61%6c%68%6f%73%74',
    'xn--localhost',
    'l\u043ecalhost',
    '127。0。0。1',
    '１２７.0.0.1',
  ];
  const url = fc
    .record({
      scheme: fc.constantFrom('http', 'HTTP', 'hTtP', 'https'),
      slashes: fc.constantFrom('//', '///', '/\\', '\\\\', ''),
      userinfo: fc.constantFrom('', 'user@', 'user:pw@', '127.0.0.1@', 'localhost:80@', 'evil.com@'),
      host: fc.constantFrom(...hosts),
      port: fc.constantFrom('', ':1', ':8080', ':65535', ':0'),
      tail: fc.constantFrom(
        '',
        '/',
        '/v1',
        '\\@evil.com',
        '#@evil.com',
        '?@evil.com',
        '@evil.com',
        '/..',
        '%2F@evil.com',
      ),
    })
    .map(({ scheme, slashes, userinfo, host, port, tail }) => `${scheme}:${slashes}${userinfo}${host}${port}${tail}`);

  it('a client either refuses the base URL with LunasError, or sends http requests only to a loopback host', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          url,
          fc.string({ maxLength: 30 }).map((text) => `http://${text}`),
        ),
        async (baseURL) => {
          let client: Client;
          try {
            client = new Client({ apiKey: KEY, baseURL, fetch: capture, maxRetries: 0, logLevel: 'off' });
          } catch (error) {
            expect(error, baseURL).toBeInstanceOf(LunasError);
            expect((error as Error).message).not.toContain(KEY);
            return;
          }
          sent.length = 0;
          await client.charges.retrieve('ch_1').catch(() => undefined);
          expect(sent, baseURL).toHaveLength(1);
          const target = new URL(sent[0]!);
          if (target.protocol === 'http:')
            expect(isLoopbackHost(target.hostname), `${baseURL} -> ${sent[0]}`).toBe(true);
          else expect(target.protocol).toBe('https:');
          expect(target.username + target.password).toBe('');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('holds for a base URL from LUNAS_BASE_URL and for withOptions too', () => {
    vi.stubEnv('LUNAS_BASE_URL', 'http://0x7f000002:9');
    expect(new Client({ apiKey: KEY, logLevel: 'off' }).baseURL).toBe('http://127.0.0.2:9');
    vi.stubEnv('LUNAS_BASE_URL', 'http://127.0.0.1.nip.io');
    expect(() => new Client({ apiKey: KEY, logLevel: 'off' })).toThrow(LunasError);
    const safe = new Client({ apiKey: KEY, baseURL: 'http://localhost:4010', logLevel: 'off' });
    expect(() => safe.withOptions({ baseURL: 'http://169.254.169.254/latest' })).toThrow(LunasError);
    expect(() => safe.withOptions({ baseURL: 'http://127.0.0.1:4010@evil.com' })).toThrow(LunasError);
  });
});

const sent: string[] = [];
const capture: typeof globalThis.fetch = async (input, init) => {
  sent.push(new Request(input, init).url);
  return Response.json({ status: 'fail', data: { message: 'Charge not found' } }, { status: 404 });
};

describe('redirects', () => {
  interface Hit {
    method: string;
    url: string;
    headers: IncomingHttpHeaders;
    body: string;
  }

  /** A server on `host` that records every request and answers with `reply`. */
  async function serve(host: string, reply: (hit: Hit, response: import('node:http').ServerResponse) => void) {
    const hits: Hit[] = [];
    const server: Server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        const hit = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
        hits.push(hit);
        reply(hit, response);
      });
    });
    await new Promise<void>((resolve) => server.listen({ port: 0, host, ipv6Only: false }, resolve));
    return { server, hits, port: (server.address() as AddressInfo).port };
  }

  const servers: Server[] = [];
  let origin: Awaited<ReturnType<typeof serve>>;
  let elsewhere: Awaited<ReturnType<typeof serve>>;
  let redirectTo = '';
  let redirectStatus = 307;

  beforeAll(async () => {
    // Listening on every address, so both 127.0.0.1 and localhost (::1 or 127.0.0.1) reach it.
    elsewhere = await serve('::', (_hit, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'fail', data: { message: 'wrong place' } }));
    });
    origin = await serve('127.0.0.1', (_hit, response) => {
      response.writeHead(redirectStatus, { location: redirectTo });
      response.end();
    });
    servers.push(elsewhere.server, origin.server);
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  });

  const calls: [string, (client: Client) => Promise<unknown>][] = [
    ['GET charges.retrieve', (client) => client.charges.retrieve('ch_1')],
    ['GET charges.list', async (client) => client.charges.list()],
    [
      'POST transfers.create',
      (client) => client.transfers.create({ destination_account_id: 'acc_partner', amount: 1, currency: 'idr' }),
    ],
    ['POST charges.create', (client) => client.charges.create({ payment_method: 'qris', amount: 10_000 })],
  ];
  const statuses = [301, 302, 303, 307, 308];
  const targets: [string, () => string][] = [
    ['another host (localhost)', () => `http://localhost:${elsewhere.port}/collect`],
    ['another host (127.0.0.2)', () => `http://127.0.0.2:${elsewhere.port}/collect`],
    ['only another port', () => `http://127.0.0.1:${elsewhere.port}/collect`],
  ];

  it.each(targets)('to %s: nothing arrives there, for every status and method', async (_label, target) => {
    const cases = statuses.flatMap((status) => calls.map(([name, call]) => ({ status, name, call })));
    for (const { status, name, call } of cases) {
      redirectStatus = status;
      redirectTo = target();
      elsewhere.hits.length = 0;
      origin.hits.length = 0;
      const client = new Client({
        apiKey: KEY,
        baseURL: `http://127.0.0.1:${origin.port}`,
        maxRetries: 0,
        logLevel: 'off',
      });
      const error: unknown = await call(client).catch((caught: unknown) => caught);
      const where = `${status} ${name}`;
      expect(error, where).toBeInstanceOf(APIError);
      expect((error as APIError).status, where).toBe(status);
      expect(JSON.stringify(error), where).not.toContain(KEY);
      expect(origin.hits, where).toHaveLength(1);
      expect(origin.hits[0]!.headers.authorization, where).toBe(`Bearer ${KEY}`);
      expect(elsewhere.hits, `${where}: the redirect was followed`).toEqual([]);
    }
  });
});

describe('in a browser-like environment', () => {
  function stubBrowser(): void {
    vi.stubGlobal('window', globalThis);
    vi.stubGlobal('document', { createElement: () => ({}) });
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36' });
  }

  it('construction is refused when the key comes from the environment too, and the error does not carry it', () => {
    stubBrowser();
    vi.stubEnv('LUNAS_API_KEY', KEY);
    vi.stubEnv('LUNAS_BASE_URL', 'https://api.lunas.test');
    let error: unknown;
    try {
      new Client();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LunasError);
    expect((error as Error).message).toContain('dangerouslyAllowBrowser');
    expect(`${(error as Error).message}${(error as Error).stack}${JSON.stringify(error)}`).not.toContain(KEY);
  });

  it('a client allowed in the browser stays allowed through withOptions; one made outside is refused inside', async () => {
    const outside = new Client({ apiKey: KEY, baseURL: 'https://api.lunas.test', logLevel: 'off' });
    stubBrowser();
    const sent: Request[] = [];
    const allowed = new Client({
      apiKey: KEY,
      baseURL: 'https://api.lunas.test',
      dangerouslyAllowBrowser: true,
      logLevel: 'off',
      fetch: async (input, init) => {
        sent.push(new Request(input, init));
        return Response.json({ status: 'success', data: { id: 'ch_1' } });
      },
    });
    const quick = allowed.withOptions({ timeout: 1_000 });
    expect([quick.baseURL, quick.timeout]).toEqual(['https://api.lunas.test', 1_000]);
    await expect(quick.get('/v1/payments/charges/ch_1')).resolves.toEqual({ id: 'ch_1' });
    expect(sent.map((request) => [request.url, request.headers.get('authorization')])).toEqual([
      ['https://api.lunas.test/v1/payments/charges/ch_1', `Bearer ${KEY}`],
    ]);
    expect(() => outside.withOptions({ timeout: 1_000 })).toThrow(LunasError);
    expect(() => allowed.withOptions({ dangerouslyAllowBrowser: false })).toThrow(LunasError);
  });
});
