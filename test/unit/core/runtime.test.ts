/**
 * core/runtime.ts: whether the runtime is a browser (a page, or a browser's
 * worker, told from the server runtimes that have worker scopes too), seen
 * directly and as the client's guard at construction, and the environment's
 * variables.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isBrowserLike, readEnv } from '../../../src/core/runtime.js';
import { Client, type ClientOptions, LunasError } from '../../../src/index.js';
import { thrown } from '../../helpers/rejection.js';
import { makeClient } from '../../helpers/msw.js';
import { CHARGE_PATH, jsonReply, route } from '../../helpers/requests.js';
import { API_KEY, BASE_URL, CHARGE_ID, chargeJson, success } from '../../helpers/fixtures.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
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

describe('isBrowserLike', () => {
  it('is false in this Node.js process', () => {
    expect(isBrowserLike()).toBe(false);
  });

  it('is true for a page: a window with a document and a navigator', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0' });
    expect(isBrowserLike()).toBe(true);
  });

  it('takes a worker scope for a browser only when the user agent is a browser’s', () => {
    vi.stubGlobal('importScripts', () => undefined);
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' });
    expect(isBrowserLike()).toBe(true);
    for (const userAgent of ['Cloudflare-Workers', 'Deno/2.9.6', 'Bun/1.4.5', undefined, 42]) {
      vi.stubGlobal('navigator', { userAgent });
      expect(isBrowserLike(), String(userAgent)).toBe(false);
    }
  });
});

describe('readEnv', () => {
  it('reads a variable that is set, and answers undefined for one unset or empty', () => {
    vi.stubEnv('LUNAS_RUNTIME_TEST', 'set');
    expect(readEnv('LUNAS_RUNTIME_TEST')).toBe('set');
    vi.stubEnv('LUNAS_RUNTIME_TEST', '');
    expect(readEnv('LUNAS_RUNTIME_TEST')).toBeUndefined();
    vi.stubEnv('LUNAS_RUNTIME_TEST', undefined);
    expect(readEnv('LUNAS_RUNTIME_TEST')).toBeUndefined();
  });

  it('keeps a value as written, spaces included', () => {
    vi.stubEnv('LUNAS_RUNTIME_TEST', ' debug ');
    expect(readEnv('LUNAS_RUNTIME_TEST')).toBe(' debug ');
  });
});
