/**
 * src/client.ts: a client's construction (its key and base URL, from the
 * options or the environment, and what is refused), the options a JavaScript
 * caller may pass, withOptions, a custom fetch, and the User-Agent. The
 * options' own checks are in core/checks/options.test.ts, the browser guard in
 * core/runtime.test.ts, logging in core/report/log.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, type ClientOptions, LunasError, VERSION } from '../../src/index.js';
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

describe('User-Agent', () => {
  it('is lunas/<version>', async () => {
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    await makeClient().charges.retrieve(CHARGE_ID);
    const userAgent = seen[0]!.headers.get('user-agent');
    expect(userAgent).toMatch(/^lunas\//);
    expect(userAgent).toBe(`lunas/${VERSION}`);
  });
});
