/**
 * Client construction (options, environment defaults, what is refused),
 * withOptions, the browser guard, a custom fetch, and logging.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, type ClientOptions, LunasError, type Logger, VERSION } from '../../src/index.js';
import { makeClient } from '../helpers/msw.js';
import { CHARGE_PATH, jsonReply, route } from '../helpers/requests.js';
import { API_KEY, BASE_URL, CHARGE_ID, chargeJson, success } from '../helpers/fixtures.js';
import { thrown } from '../helpers/rejection.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The LunasError that constructing with `options` throws. */
function constructionError(options: ClientOptions): LunasError {
  return thrown(() => new Client(options), LunasError);
}

/**
 * What constructing a client with `makeClient()`'s options must have done:
 * resolved them (that base URL, the documented defaults of 30 s and 2
 * retries) and made a client that sends to that URL with that key.
 */
async function expectMadeFromOptions(client: Client): Promise<void> {
  expect([client.baseURL, client.timeout, client.maxRetries]).toEqual([BASE_URL, 30_000, 2]);
  const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
  await expect(client.charges.retrieve(CHARGE_ID)).resolves.toMatchObject({ id: CHARGE_ID });
  expect(seen.map((request) => request.url.href)).toEqual([`${BASE_URL}${CHARGE_PATH}`]);
  expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
}

/**
 * A client built while the test's stubbed globals (a browser's `window`, a
 * worker's `self`) are in place, which is what the test is about; the stubs
 * are removed before it sends anything, so that msw and undici, which look
 * at those globals too, run in the Node.js they are.
 */
function builtUnderStubs(build: () => Client): Client {
  const client = build();
  vi.unstubAllGlobals();
  return client;
}

/** Clears the variables the client reads, so the host's environment cannot leak in. */
function clearEnv() {
  vi.stubEnv('LUNAS_API_KEY', undefined);
  vi.stubEnv('LUNAS_BASE_URL', undefined);
  vi.stubEnv('LUNAS_LOG', undefined);
}

describe('API key and base URL', () => {
  it('a missing API key names the option and the variable', () => {
    clearEnv();
    const error = constructionError({ baseURL: BASE_URL });
    expect(error.message).toContain('apiKey');
    expect(error.message).toContain('LUNAS_API_KEY');
    expect(constructionError({ baseURL: BASE_URL, apiKey: '' }).message).toContain('LUNAS_API_KEY');
  });

  it('a missing base URL names the option and the variable', () => {
    clearEnv();
    const error = constructionError({ apiKey: API_KEY });
    expect(error.message).toContain('baseURL');
    expect(error.message).toContain('LUNAS_BASE_URL');
  });

  it('an empty variable counts as missing', () => {
    clearEnv();
    vi.stubEnv('LUNAS_API_KEY', '');
    expect(constructionError({ baseURL: BASE_URL }).message).toContain('LUNAS_API_KEY');
  });

  it('reads LUNAS_API_KEY and LUNAS_BASE_URL by default', async () => {
    clearEnv();
    vi.stubEnv('LUNAS_API_KEY', 'sk_from_env_1');
    vi.stubEnv('LUNAS_BASE_URL', 'https://env.lunas.test/');
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())), 'https://env.lunas.test');
    const client = new Client({ logLevel: 'off' });

    expect(client.baseURL).toBe('https://env.lunas.test');
    await client.charges.retrieve(CHARGE_ID);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer sk_from_env_1');
  });

  it('options win over the environment', async () => {
    vi.stubEnv('LUNAS_API_KEY', 'sk_from_env_2');
    vi.stubEnv('LUNAS_BASE_URL', 'https://env.lunas.test');
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    await makeClient().charges.retrieve(CHARGE_ID);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });

  it.each([
    ['a trailing LF', 'sk_live_abc\n'],
    ['a CR', 'sk_live\rabc'],
    ['CRLF', 'sk_live_abc\r\nX-Injected: 1'],
    ['a NUL', 'sk_live\0abc'],
    ['a tab', 'sk_live\tabc'],
    ['a space', 'sk_live abc'],
    ['a leading space', ' sk_live_abc'],
    ['DEL', 'sk_live\x7fabc'],
    ['a non-ASCII character', 'sk_live_abcé'],
  ])('an API key with %s is refused, without echoing the key', (_name, apiKey) => {
    const error = constructionError({ apiKey, baseURL: BASE_URL });
    expect(error.message).toMatch(/API key/);
    expect(error.message).not.toContain(apiKey.trim());
  });

  it('an API key of the wrong type is refused', () => {
    expect(constructionError({ apiKey: 42 as unknown as string, baseURL: BASE_URL }).message).toContain('apiKey');
  });

  it('an API key with a control character in LUNAS_API_KEY is refused too', () => {
    vi.stubEnv('LUNAS_API_KEY', 'sk_env_key\n');
    expect(() => new Client({ baseURL: BASE_URL })).toThrow(LunasError);
  });

  it.each(['k', 'test', 'changeme', 'sk_live_abc'])(
    'an API key shorter than 12 characters (%j) is refused, saying so without echoing it',
    (apiKey) => {
      const error = constructionError({ apiKey, baseURL: BASE_URL });
      expect(error.message).toBe(
        'The API key is shorter than 12 characters, which no real key is: ' +
          'check that the whole key was read from your secret store, not a placeholder',
      );
      if (apiKey.length > 1) expect(error.message).not.toContain(apiKey);
    },
  );

  it('a short key in LUNAS_API_KEY is refused too; 12 characters are enough', () => {
    vi.stubEnv('LUNAS_API_KEY', 'sk_env_key');
    expect(() => new Client({ baseURL: BASE_URL })).toThrow(/shorter than 12 characters/);
    expect(new Client({ apiKey: 'sk_test_1234', baseURL: BASE_URL }).baseURL).toBe(BASE_URL);
  });

  it('a short key never mangles a message: "Unknown option" stays whole (not "Un[REDACTED]nown")', () => {
    const error = constructionError({ apiKey: 'k', baseURL: BASE_URL, timeOut: 1 } as ClientOptions);
    expect(error.message).toBe('Unknown option "timeOut": did you mean "timeout"?');
    vi.stubEnv('LUNAS_API_KEY', 'o');
    expect(constructionError({ baseURL: BASE_URL, maxRetry: 1 } as ClientOptions).message).toBe(
      'Unknown option "maxRetry": did you mean "maxRetries"?',
    );
  });

  it.each([
    ['http://localhost', 'http://localhost'],
    ['http://localhost:4010/', 'http://localhost:4010'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.1.2.3', 'http://127.1.2.3'],
    ['http://127.255.255.254:1', 'http://127.255.255.254:1'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['http://LOCALHOST:1', 'http://localhost:1'],
  ])('plain http is accepted for the loopback host %s', (baseURL, expected) => {
    expect(new Client({ apiKey: API_KEY, baseURL }).baseURL).toBe(expected);
  });

  it.each([
    'http://api.example.com',
    'http://127.0.0.1.evil.com',
    'http://localhost.evil.com',
    'http://evil-localhost',
    'http://10.0.0.1',
    'http://192.168.1.10:8080',
    'http://0.0.0.0',
    'http://128.0.0.1',
    'http://[::2]',
  ])('plain http is refused for %s', (baseURL) => {
    const error = constructionError({ apiKey: API_KEY, baseURL });
    expect(error.message).toContain('https');
  });

  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://10.0.0.1:8443', 'https://10.0.0.1:8443'],
    ['https://localhost', 'https://localhost'],
    ['https://pay.lunas.test/base/', 'https://pay.lunas.test/base'],
  ])('https is accepted for any host: %s sends to %s', async (baseURL, expected) => {
    const client = new Client({ apiKey: API_KEY, baseURL });
    expect(client.baseURL).toBe(expected);
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())), expected);
    await expect(client.charges.retrieve(CHARGE_ID)).resolves.toMatchObject({ id: CHARGE_ID });
    expect(seen.map((request) => request.url.href)).toEqual([`${expected}${CHARGE_PATH}`]);
  });

  it.each([
    ['not a URL', 'api.example.com'],
    ['a relative path', '/v1'],
    ['another scheme', 'ftp://api.example.com'],
    ['a file URL', 'file:///etc/passwd'],
    ['credentials', 'https://user:secret@api.example.com'],
    ['a query', 'https://api.example.com/?x=1'],
    ['a fragment', 'https://api.example.com/#x'],
  ])('a base URL with %s is refused', (_name, baseURL) => {
    expect(() => new Client({ apiKey: API_KEY, baseURL })).toThrow(LunasError);
  });

  it.each([
    ['https://api.example.com/v1', 'https://api.example.com'],
    ['https://api.example.com/v1/', 'https://api.example.com'],
    ['https://gw.example.com/lunas/v1', 'https://gw.example.com/lunas'],
    ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010'],
    ['https://api.example.com/v10', 'https://api.example.com/v10'],
    ['https://api.example.com/v1/extra', 'https://api.example.com/v1/extra'],
  ])('a base URL ending in the /v1 every path starts with is used without it: %s', (baseURL, expected) => {
    const client = new Client({ apiKey: API_KEY, baseURL });
    expect(client.baseURL).toBe(expected);
    expect(client.withOptions({ timeout: 5_000 }).baseURL).toBe(expected);
  });

  it('a base URL with credentials does not echo the password', () => {
    const error = constructionError({ apiKey: API_KEY, baseURL: 'https://user:hunter2secret@api.example.com' });
    expect(error.message).not.toContain('hunter2secret');
  });
});

describe('options a JavaScript caller may pass', () => {
  it('new Client(null) counts as no options: the environment is read', () => {
    clearEnv();
    vi.stubEnv('LUNAS_API_KEY', 'sk_from_env_2');
    vi.stubEnv('LUNAS_BASE_URL', 'https://env.lunas.test');
    const client = new Client(null as unknown as ClientOptions);
    expect(client.baseURL).toBe('https://env.lunas.test');
    expect(client.withOptions(null as unknown as ClientOptions).baseURL).toBe('https://env.lunas.test');
  });

  it('options that are not an object are a LunasError naming their kind, never their value', () => {
    const error = constructionError('sk_live_misplaced_key' as unknown as ClientOptions);
    expect(error.message).toBe('The client options must be an object (got a string)');
    expect(JSON.stringify(error)).not.toContain('sk_live');
    expect(() => makeClient().withOptions(42 as unknown as ClientOptions)).toThrow(LunasError);
  });
});

describe('timeout and maxRetries', () => {
  it('default to 30 s and 2', () => {
    const client = makeClient();
    expect(client.timeout).toBe(30_000);
    expect(client.maxRetries).toBe(2);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '1000'])('refuses timeout %s', (timeout) => {
    const error = constructionError({ apiKey: API_KEY, baseURL: BASE_URL, timeout: timeout as number });
    expect(error.message).toContain('timeout');
  });

  it('accepts timeouts from 1 ms to 2^31 - 1 ms', () => {
    expect(makeClient({ timeout: 1 }).timeout).toBe(1);
    expect(makeClient({ timeout: 2 ** 31 - 1 }).timeout).toBe(2 ** 31 - 1);
  });

  it.each([-1, 1.5, 11, Number.NaN, Number.POSITIVE_INFINITY, '2'])('refuses maxRetries %s', (maxRetries) => {
    const error = constructionError({ apiKey: API_KEY, baseURL: BASE_URL, maxRetries: maxRetries as number });
    expect(error.message).toContain('maxRetries');
  });

  it('accepts maxRetries from 0 to 10', () => {
    expect(makeClient({ maxRetries: 0 }).maxRetries).toBe(0);
    expect(makeClient({ maxRetries: 10 }).maxRetries).toBe(10);
  });

  it('refuses a fetch that is not a function', () => {
    expect(
      constructionError({ apiKey: API_KEY, baseURL: BASE_URL, fetch: 'fetch' as unknown as typeof fetch }).message,
    ).toContain('fetch');
  });

  it('refuses an unknown logLevel', () => {
    expect(constructionError({ apiKey: API_KEY, baseURL: BASE_URL, logLevel: 'verbose' as 'debug' }).message).toContain(
      'logLevel',
    );
  });
});

describe('defaultHeaders', () => {
  it.each([
    ['CRLF in a value', { 'x-tenant': 'a\r\nInjected: yes' }],
    ['LF in a value', { 'x-tenant': 'a\nb' }],
    ['CR in a value', { 'x-tenant': 'a\rb' }],
    ['NUL in a value', { 'x-tenant': 'a\0b' }],
    ['a name with a space', { 'x tenant': 'a' }],
    ['a name with a colon', { 'x-tenant:': 'a' }],
    ['Authorization', { Authorization: 'Bearer other' }],
    ['idempotency-key', { 'idempotency-key': 'fixed' }],
    ['a value that is not a string', { 'x-count': 3 as unknown as string }],
  ])('refuses %s', (_name, defaultHeaders) => {
    const error = constructionError({ apiKey: API_KEY, baseURL: BASE_URL, defaultHeaders });
    expect(error.message).toContain('defaultHeaders.');
  });

  it('sends accepted default headers on every request', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const client = makeClient({ defaultHeaders: { 'X-Tenant': 'acme', 'x-trace': 'a b\tc' } });
    await client.charges.retrieve(CHARGE_ID);
    await client.charges.retrieve(CHARGE_ID);
    for (const request of seen) {
      expect(request.headers.get('x-tenant')).toBe('acme');
      expect(request.headers.get('x-trace')).toBe('a b\tc');
    }
    expect(seen).toHaveLength(2);
  });
});

describe('withOptions', () => {
  it('keeps the key and the rest, changes what is given, and leaves the original alone', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const original = makeClient({ timeout: 10_000, maxRetries: 1, defaultHeaders: { 'x-tenant': 'acme' } });
    const patient = original.withOptions({ timeout: 120_000, maxRetries: 5 });

    expect(patient).toBeInstanceOf(Client);
    expect(patient).not.toBe(original);
    expect([patient.timeout, patient.maxRetries, patient.baseURL]).toEqual([120_000, 5, BASE_URL]);
    expect([original.timeout, original.maxRetries]).toEqual([10_000, 1]);

    await patient.charges.retrieve(CHARGE_ID);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(seen[0]!.headers.get('x-tenant')).toBe('acme');
  });

  it('can change the base URL and the key', async () => {
    const other = 'https://other.lunas.test';
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())), other);
    const original = makeClient();
    const moved = original.withOptions({ baseURL: other, apiKey: 'sk_other_key' });
    expect(moved.baseURL).toBe(other);
    expect(original.baseURL).toBe(BASE_URL);
    await moved.charges.retrieve(CHARGE_ID);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer sk_other_key');
  });

  it('validates the new options', () => {
    expect(() => makeClient().withOptions({ timeout: -5 })).toThrow(LunasError);
    expect(() => makeClient().withOptions({ baseURL: 'http://api.example.com' })).toThrow(LunasError);
  });

  it('keeps a key that came from LUNAS_API_KEY, even after the variable changes', async () => {
    clearEnv();
    vi.stubEnv('LUNAS_API_KEY', 'sk_env_first');
    const original = new Client({ baseURL: BASE_URL, logLevel: 'off' });
    // Secrets are often removed from the environment once read, or rotated.
    vi.stubEnv('LUNAS_API_KEY', 'sk_env_second');
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    await original.withOptions({ timeout: 5000 }).charges.retrieve(CHARGE_ID);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer sk_env_first');
  });
});

describe('in a browser', () => {
  function stubBrowser() {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0' });
  }

  it('refuses to construct, explaining the risk and the escape hatch', () => {
    stubBrowser();
    const error = constructionError({ apiKey: API_KEY, baseURL: BASE_URL });
    expect(error.message).toContain('browser');
    expect(error.message).toContain('dangerouslyAllowBrowser');
    expect(error.message).not.toContain(API_KEY);
  });

  it('constructs with dangerouslyAllowBrowser', async () => {
    stubBrowser();
    await expectMadeFromOptions(builtUnderStubs(() => makeClient({ dangerouslyAllowBrowser: true })));
  });

  it('a global navigator alone (Node 21+, Deno, Bun) is not a browser', async () => {
    vi.stubGlobal('navigator', { userAgent: 'Node.js/22' });
    await expectMadeFromOptions(builtUnderStubs(() => makeClient()));
  });
});

describe('in a browser Web Worker', () => {
  const CHROME =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
  class WorkerGlobalScope {}

  /** The globals a browser worker has (no window, no document). */
  function stubBrowserWorker(userAgent: string, markers: { importScripts?: boolean; scope?: boolean }) {
    vi.stubGlobal('self', globalThis);
    vi.stubGlobal('navigator', { userAgent });
    if (markers.importScripts) vi.stubGlobal('importScripts', () => undefined);
    if (markers.scope) vi.stubGlobal('WorkerGlobalScope', WorkerGlobalScope);
  }

  it('refuses in a dedicated or shared worker (importScripts and WorkerGlobalScope)', () => {
    stubBrowserWorker(CHROME, { importScripts: true, scope: true });
    const error = constructionError({ apiKey: API_KEY, baseURL: BASE_URL });
    expect(error.message).toContain('browser');
    expect(error.message).toContain('dangerouslyAllowBrowser');
    expect(error.message).not.toContain(API_KEY);
  });

  it('refuses when only WorkerGlobalScope tells it is a worker', () => {
    stubBrowserWorker(FIREFOX, { scope: true });
    expect(constructionError({ apiKey: API_KEY, baseURL: BASE_URL }).message).toContain('dangerouslyAllowBrowser');
  });

  it('refuses when only importScripts tells it is a worker', () => {
    stubBrowserWorker(FIREFOX, { importScripts: true });
    expect(constructionError({ apiKey: API_KEY, baseURL: BASE_URL }).message).toContain('dangerouslyAllowBrowser');
  });

  it('refuses even with a process global, as a bundler puts a shim of it in a worker', () => {
    // Node's own process stands in for the shim, not a stub: it has all a shim has (env,
    // versions), so a check a shim would fool is fooled by it too, and the runner needs the
    // real one (a worker lost its fork to 'process.nextTick is not a function' under load).
    expect(process).toMatchObject({ env: expect.any(Object), versions: expect.any(Object) });
    stubBrowserWorker(CHROME, { importScripts: true, scope: true });
    expect(constructionError({ apiKey: API_KEY, baseURL: BASE_URL }).message).toContain('dangerouslyAllowBrowser');
  });

  it('constructs in a worker with dangerouslyAllowBrowser', async () => {
    stubBrowserWorker(CHROME, { importScripts: true, scope: true });
    await expectMadeFromOptions(builtUnderStubs(() => makeClient({ dangerouslyAllowBrowser: true })));
  });

  it('constructs in Cloudflare Workers, whose global scope is a WorkerGlobalScope', async () => {
    vi.stubGlobal('self', globalThis);
    vi.stubGlobal('WorkerGlobalScope', WorkerGlobalScope);
    vi.stubGlobal('ServiceWorkerGlobalScope', class extends WorkerGlobalScope {});
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    await expectMadeFromOptions(builtUnderStubs(() => makeClient()));
  });

  it('constructs in a Deno worker', async () => {
    vi.stubGlobal('self', globalThis);
    vi.stubGlobal('WorkerGlobalScope', WorkerGlobalScope);
    vi.stubGlobal('Deno', { version: { deno: '2.9.6' } });
    vi.stubGlobal('navigator', { userAgent: 'Deno/2.9.6' });
    await expectMadeFromOptions(builtUnderStubs(() => makeClient()));
  });

  it('constructs in Bun, which has self and navigator', async () => {
    vi.stubGlobal('self', globalThis);
    vi.stubGlobal('Bun', { version: '1.4.5' });
    vi.stubGlobal('navigator', { userAgent: 'Bun/1.4.5' });
    await expectMadeFromOptions(builtUnderStubs(() => makeClient()));
  });
});

describe('custom fetch', () => {
  it('sends every attempt through the given fetch', async () => {
    const requests: Request[] = [];
    const customFetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      requests.push(request);
      return requests.length === 1
        ? Response.json({ status: 'error', message: 'busy' }, { status: 503, headers: { 'retry-after-ms': '0' } })
        : Response.json(success(chargeJson()));
    });
    const charge = await makeClient({ fetch: customFetch as typeof fetch }).charges.retrieve(CHARGE_ID);

    expect(charge.id).toBe('ch_123');
    expect(customFetch).toHaveBeenCalledTimes(2);
    expect(requests.map((request) => request.url)).toEqual([`${BASE_URL}${CHARGE_PATH}`, `${BASE_URL}${CHARGE_PATH}`]);
    expect(requests[0]!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });
});

describe('logging', () => {
  function recordingLogger() {
    const lines: { level: string; args: unknown[] }[] = [];
    const logger: Logger = {
      debug: (...args) => lines.push({ level: 'debug', args }),
      info: (...args) => lines.push({ level: 'info', args }),
      warn: (...args) => lines.push({ level: 'warn', args }),
      error: (...args) => lines.push({ level: 'error', args }),
    };
    return { lines, logger };
  }

  /** One 503 (waiting 0 ms) then success: a retry that is logged at info, with attempts at debug. */
  function retryOnce() {
    return route('GET', CHARGE_PATH, (attempt) =>
      attempt === 1
        ? jsonReply(503, { status: 'error', message: 'busy' }, { 'retry-after-ms': '0' })
        : jsonReply(200, success(chargeJson())),
    );
  }

  const build = (options: ClientOptions) => new Client({ apiKey: API_KEY, baseURL: BASE_URL, ...options });

  it('defaults to warn: nothing is logged for a success or a retry', async () => {
    clearEnv();
    retryOnce();
    const { lines, logger } = recordingLogger();
    const charge = await build({ logger }).charges.retrieve(CHARGE_ID);
    expect(charge.id).toBe('ch_123');
    expect(lines).toEqual([]);
  });

  it('says at debug that a trailing /v1 was dropped from the base URL', () => {
    clearEnv();
    const { lines, logger } = recordingLogger();
    new Client({ apiKey: API_KEY, baseURL: `${BASE_URL}/v1/`, logger, logLevel: 'debug' });
    expect(lines).toEqual([
      {
        level: 'debug',
        args: [`lunas: baseURL ${BASE_URL}/v1 ends in /v1, which lunas adds to every path: using ${BASE_URL}`],
      },
    ]);
    lines.length = 0;
    new Client({ apiKey: API_KEY, baseURL: BASE_URL, logger, logLevel: 'debug' });
    expect(lines).toEqual([]);
  });

  it('logs attempts at debug and the retry at info with logLevel debug', async () => {
    clearEnv();
    retryOnce();
    const { lines, logger } = recordingLogger();
    await build({ logger, logLevel: 'debug' }).charges.retrieve(CHARGE_ID);

    const debug = lines.filter((line) => line.level === 'debug').map((line) => String(line.args[0]));
    const info = lines.filter((line) => line.level === 'info').map((line) => String(line.args[0]));
    expect(debug).toHaveLength(2);
    expect(debug[0]).toContain(`GET ${BASE_URL}/v1/payments/charges/ch_123 attempt`);
    expect(debug[0]).toContain('attempt 1 of 3');
    expect(debug[1]).toContain('attempt 2 of 3');
    expect(info).toHaveLength(1);
    expect(info[0]).toMatch(/retrying in 0 ms/);
    expect(info[0]).toContain('503');
    for (const line of lines) expect(String(line.args[0])).toMatch(/^lunas: /);
  });

  it('logLevel info logs the retry but not the attempts', async () => {
    clearEnv();
    retryOnce();
    const { lines, logger } = recordingLogger();
    await build({ logger, logLevel: 'info' }).charges.retrieve(CHARGE_ID);
    expect(lines.map((line) => line.level)).toEqual(['info']);
  });

  it('respects LUNAS_LOG, in any case', async () => {
    clearEnv();
    vi.stubEnv('LUNAS_LOG', 'DEBUG');
    retryOnce();
    const { lines, logger } = recordingLogger();
    await build({ logger }).charges.retrieve(CHARGE_ID);
    expect(lines.filter((line) => line.level === 'debug')).toHaveLength(2);
    expect(lines.filter((line) => line.level === 'info')).toHaveLength(1);
  });

  it('ignores an invalid LUNAS_LOG and keeps the default', async () => {
    clearEnv();
    vi.stubEnv('LUNAS_LOG', 'verbose');
    retryOnce();
    const { lines, logger } = recordingLogger();
    await build({ logger }).charges.retrieve(CHARGE_ID);
    expect(lines).toEqual([]);
  });

  it('the logLevel option wins over LUNAS_LOG', async () => {
    clearEnv();
    vi.stubEnv('LUNAS_LOG', 'debug');
    retryOnce();
    const { lines, logger } = recordingLogger();
    await build({ logger, logLevel: 'off' }).charges.retrieve(CHARGE_ID);
    expect(lines).toEqual([]);
  });

  it('writes to console by default', async () => {
    clearEnv();
    retryOnce();
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    await build({ logLevel: 'debug' }).charges.retrieve(CHARGE_ID);
    expect(debug).toHaveBeenCalledTimes(2);
    expect(info).toHaveBeenCalledTimes(1);
    expect(String(info.mock.calls[0]![0])).toContain('retrying');
  });

  it('a failed call does not log above the chosen level', async () => {
    clearEnv();
    route('GET', CHARGE_PATH, () => jsonReply(404, { status: 'fail', data: { message: 'Charge not found' } }));
    const { lines, logger } = recordingLogger();
    await expect(build({ logger, logLevel: 'error' }).charges.retrieve(CHARGE_ID)).rejects.toThrow('Charge not found');
    expect(lines).toEqual([]);
  });
});

describe('User-Agent', () => {
  it('is lunas/<version>', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    await makeClient().charges.retrieve(CHARGE_ID);
    const userAgent = seen[0]!.headers.get('user-agent');
    expect(userAgent).toMatch(/^lunas\//);
    expect(userAgent).toBe(`lunas/${VERSION}`);
  });
});
