/**
 * A fetch-shaped function over the `undici` package's connection pool, for ky
 * to send through on Node.js: the same exchange as global `fetch` without its
 * `Request`/`Response` web-stream machinery, which costs more than the rest of
 * a loopback call. Used only on Node.js when the caller passes no `fetch`, and
 * only while no proxy setup of the merchant's would be bypassed by it.
 *
 * It answers with a {@link LightResponse}: what ky and lunas read of a
 * `Response` (status, a real `Headers`, the body as text), a web-stream `body`
 * built only when read, plus lunas's capped body reader.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';

/** The lunas-internal method of a {@link LightResponse} that reads the body under a size cap. */
export const READ_BODY = Symbol.for('lunas.readBody');
/** The lunas-internal method of a {@link LightResponse} that drops the body and closes its connection. */
export const CANCEL_BODY = Symbol.for('lunas.cancelBody');

/**
 * The lunas-internal method of a {@link LightResponse} that tells whether any
 * header value passes a test, reading the headers as they came: iterating a
 * `Headers` sorts and copies them first.
 */
export const ANY_HEADER_VALUE = Symbol.for('lunas.anyHeaderValue');

/** The `name` of the error {@link LightResponse}'s capped reader rejects with past its limit. */
export const BODY_TOO_LARGE = 'LunasBodyTooLarge';

/**
 * What this transport needs of an abort signal, which undici takes as it is:
 * an `AbortSignal` has it, and so does lunas's lighter attempt deadline,
 * which costs a fraction of an `AbortController` and its `EventTarget`.
 */
export interface LightSignal {
  readonly aborted: boolean;
  /** What a request or a read it ends rejects with. */
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * What lunas may hand the transport beside the `Request` ky built, as options
 * ky does not know and so forwards to `fetch`.
 */
export interface NodeFetchInit extends RequestInit {
  /** The request's JSON text, so the `Request`'s body stream need not be read back. */
  lunasBody?: string | undefined;
  /**
   * The request's headers, names lower-cased, sent in place of the
   * `Request`'s: lunas's seam hands them over as they are, so that no
   * `Headers` is built and copied for them.
   */
  lunasHeaders?: Record<string, string> | undefined;
  /** Ends the request and its body, in place of `signal`: lunas's attempt deadline. */
  lunasSignal?: LightSignal;
}

/** The fetch-shaped function {@link createNodeFetch} returns. */
export type NodeFetch = (input: Request | string | URL, init?: NodeFetchInit) => Promise<LightResponse>;

/** Settings of {@link createNodeFetch}. */
export interface NodeFetchOptions {
  /**
   * Connections kept per origin. 64 measured best at 500 requests in flight
   * on a loopback server (see docs/performance.md); fewer queue, more cost
   * handshakes without sending faster.
   */
  connections?: number;
}

/**
 * A response as the fetch-shaped transport gives it: the parts of `Response`
 * ky and lunas read. The body is a Node.js stream underneath; `body` converts
 * it to a web stream only when someone reads that property.
 */
export interface LightResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly url: string;
  readonly redirected: false;
  readonly type: 'basic';
  readonly headers: Headers;
  readonly bodyUsed: boolean;
  readonly body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
  /**
   * The body as UTF-8 text, at most `limit` bytes after decompression: past
   * it the body is destroyed (its connection closed) and the promise rejects
   * with an `Error` named `LunasBodyTooLarge`. When `signal` aborts, the body
   * is destroyed and the promise rejects with its reason, as it does when
   * the request's own signal aborts.
   */
  [READ_BODY](limit: number, signal?: LightSignal): Promise<string>;
  /** Drops the body and closes its connection: a pending read rejects. */
  [CANCEL_BODY](): void;
  /** Whether `test` holds for any value of the response's headers. */
  [ANY_HEADER_VALUE](test: (value: string) => boolean): boolean;
}

/** Node's own `fetch` reports every failure to get a response as this; ky and lunas expect it. */
function networkError(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** How `fetch` rejects when its signal aborts: with the signal's reason. */
function abortReason(signal: LightSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** A body read rejected past its limit. */
function tooLarge(limit: number): Error {
  const error = new Error(`the response body is larger than ${limit} bytes`);
  error.name = BODY_TOO_LARGE;
  return error;
}

const ignore = () => undefined;

const NO_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

class NodeResponse implements LightResponse {
  readonly redirected = false;
  readonly type = 'basic';
  readonly ok: boolean;
  #stream: Readable | null;
  #used = false;
  #webBody: ReadableStream<Uint8Array> | null | undefined;

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly url: string,
    readonly headers: Headers,
    stream: Readable | null,
    private readonly context: {
      signal: LightSignal | undefined;
      toWeb: (stream: Readable) => ReadableStream<Uint8Array>;
      /** The headers as undici gave them, which {@link headers} was built from. */
      raw: RawHeaders;
    },
  ) {
    this.ok = status >= 200 && status <= 299;
    this.#stream = stream;
    // Destroying the body (a cap, a cancel, an abort) emits 'error': with no
    // read listening, that would be an uncaught exception.
    stream?.on('error', ignore);
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#webBody === undefined) {
      const stream = this.#stream;
      if (stream === null) {
        this.#webBody = null;
      } else {
        // Built only on demand: the web stream is most of what a full Response costs.
        this.#webBody = this.context.toWeb(stream);
        this.#used = true;
      }
    }
    return this.#webBody;
  }

  async text(): Promise<string> {
    return decodeUtf8(await this.#read(Infinity));
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#read(Infinity);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async [READ_BODY](limit: number, signal?: LightSignal): Promise<string> {
    return decodeUtf8(await this.#read(limit, signal));
  }

  [CANCEL_BODY](): void {
    this.#stream?.destroy();
  }

  [ANY_HEADER_VALUE](test: (value: string) => boolean): boolean {
    const { raw } = this.context;
    for (const name in raw) {
      const value = raw[name];
      if (typeof value === 'string' ? test(value) : value?.some(test)) return true;
    }
    return false;
  }

  #read(limit: number, readSignal?: LightSignal): Promise<Buffer> {
    if (this.#used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    this.#used = true;
    const stream = this.#stream;
    if (stream === null) return Promise.resolve(Buffer.alloc(0));
    const requestSignal = this.context.signal;
    // The request's signal already ends the body (undici destroys it); another one needs a listener.
    const extra = readSignal === requestSignal ? undefined : readSignal;
    if (extra?.aborted) {
      stream.destroy();
      return Promise.reject(abortReason(extra));
    }
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const fail = (error: unknown) => {
        cleanup();
        stream.destroy();
        const aborted = requestSignal?.aborted ? requestSignal : extra?.aborted ? extra : undefined;
        reject(aborted ? abortReason(aborted) : error instanceof Error ? error : networkError(error));
      };
      const onAbort = () => fail(undefined);
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) fail(tooLarge(limit));
        else chunks.push(chunk);
      };
      const onEnd = () => {
        cleanup();
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      };
      // A destroyed stream without an error (CANCEL_BODY) ends the read too.
      const onClose = () => fail(new TypeError('terminated'));
      const cleanup = () => {
        stream.off('data', onData);
        stream.off('end', onEnd);
        stream.off('error', fail);
        stream.off('close', onClose);
        extra?.removeEventListener('abort', onAbort);
      };
      extra?.addEventListener('abort', onAbort, { once: true });
      stream.on('data', onData);
      stream.once('end', onEnd);
      stream.once('error', fail);
      stream.once('close', onClose);
    });
  }
}

/** UTF-8 as `Response#text` decodes it: a leading byte-order mark dropped, bad bytes replaced. */
function decodeUtf8(bytes: Buffer): string {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
}

/** The Node.js modules the transport runs on, imported when it is loaded (never on other runtimes). */
export interface NodeModules {
  undici: {
    Agent: new (options: { connections: number }) => Dispatcher;
    /** undici's `request`, called with a dispatcher as `this`. */
    request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  };
  stream: Pick<typeof import('node:stream'), 'pipeline' | 'Readable'>;
  zlib: typeof import('node:zlib');
}

/**
 * Imports what {@link createNodeFetch} runs on; rejects when `undici` is not
 * installed. The specifiers are variables so that a Worker's or a browser's
 * bundler leaves undici and Node's modules out of the bundle.
 *
 * undici's `Agent` and `request` are imported from their own files, not from
 * `undici` itself: its entry point installs an `Agent` of its own as the
 * process's global dispatcher when none is set yet, which global `fetch`
 * would then send through (a side effect lunas must not have), and loading
 * everything else it exports (its fetch, WebSocket, cache) takes several
 * times as long. The range of undici is pinned to a patch range for that.
 */
export async function importNodeModules(): Promise<NodeModules> {
  const load = (specifier: string): Promise<unknown> => import(/* webpackIgnore: true */ /* @vite-ignore */ specifier);
  const [agent, request, stream, zlib] = await Promise.all([
    load('undici/lib/dispatcher/agent.js'),
    load('undici/lib/api/api-request.js'),
    load('node:stream'),
    load('node:zlib'),
  ]);
  const undici = { Agent: (agent as { default: unknown }).default, request: (request as { default: unknown }).default };
  return { undici, stream, zlib } as NodeModules;
}

/**
 * The decoded body of a compressed response, as `fetch` gives it: gzip,
 * deflate and br are decoded; any other coding is left as sent.
 */
function decoded({ zlib, stream }: NodeModules, body: Readable, coding: string | undefined): Readable {
  if (coding === undefined) return body;
  const name = coding.trim().toLowerCase();
  const decoder =
    name === 'gzip' || name === 'x-gzip'
      ? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
      : name === 'deflate'
        ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : name === 'br'
          ? zlib.createBrotliDecompress({
              flush: zlib.constants.BROTLI_OPERATION_FLUSH,
              finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
            })
          : undefined;
  if (decoder === undefined) return body;
  // pipeline destroys both sides when either fails or is destroyed.
  return stream.pipeline(body, decoder, () => undefined);
}

/** Response headers as undici gives them: a repeated field is an array. */
type RawHeaders = Record<string, string | string[] | undefined>;

/** The response's headers as a real `Headers`, repeated fields appended in order. */
function toHeaders(raw: RawHeaders): Headers {
  const headers = new Headers();
  for (const name in raw) {
    const value = raw[name];
    if (typeof value === 'string') headers.append(name, value);
    else if (value !== undefined) for (const item of value) headers.append(name, item);
  }
  return headers;
}

/** The request's headers as undici takes them, with what Node's `fetch` adds when they are absent. */
function requestHeaders(source: Headers | Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (source instanceof Headers) for (const [name, value] of source) headers[name] = value;
  else Object.assign(headers, source);
  headers.accept ??= '*/*';
  // As Node's fetch asks, since it decodes all three (decoded(), above).
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  return headers;
}

/**
 * Builds the fetch-shaped function over one undici `Agent` (a keep-alive pool
 * per origin). It follows no redirect (a 3xx is answered as it came), honours
 * the signal of `init` or of the `Request` over the wait for the headers and
 * the body, decodes gzip, deflate and br, and rejects as `fetch` does: with
 * the signal's reason on abort, a `TypeError` when no response came.
 */
export function createNodeFetch(modules: NodeModules, options: NodeFetchOptions = {}): NodeFetch {
  const dispatcher = new modules.undici.Agent({ connections: options.connections ?? 64 });
  return async (input, init = {}) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const signal: LightSignal | undefined = init.lunasSignal ?? init.signal ?? request.signal;
    if (signal?.aborted) throw abortReason(signal);
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw networkError(new Error(`unsupported protocol ${url.protocol}`));
    }
    const method = request.method;
    let body: string | Uint8Array | undefined = init.lunasBody;
    if (body === undefined && request.body !== null) body = new Uint8Array(await request.arrayBuffer());
    const headers = requestHeaders(
      init.lunasHeaders ?? (init.headers === undefined ? request.headers : new Headers(init.headers)),
    );
    let data: Dispatcher.ResponseData;
    try {
      data = await modules.undici.request.call(dispatcher, {
        origin: url.origin,
        path: url.pathname + url.search,
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body ?? null,
        // undici takes any object with these members as a signal; its types name only AbortSignal.
        signal: (signal ?? null) as AbortSignal | null,
      });
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      throw networkError(error);
    }
    const { statusCode } = data;
    const responseHeaders = toHeaders(data.headers);
    let stream: Readable | null = data.body;
    if (method === 'HEAD' || NO_BODY_STATUSES.has(statusCode)) {
      data.body.resume();
      stream = null;
    } else {
      stream = decoded(modules, data.body, responseHeaders.get('content-encoding') ?? undefined);
    }
    return new NodeResponse(statusCode, data.statusText ?? '', request.url, responseHeaders, stream, {
      signal: signal ?? undefined,
      raw: data.headers,
      toWeb: modules.stream.Readable.toWeb as unknown as (stream: Readable) => ReadableStream<Uint8Array>,
    });
  };
}

/** The proxy settings Node's own `fetch` reads from the environment, with `NODE_USE_ENV_PROXY`. */
function envProxyInUse(env: NodeJS.ProcessEnv, execArgv: readonly string[]): boolean {
  const useEnv =
    (env.NODE_USE_ENV_PROXY !== undefined && env.NODE_USE_ENV_PROXY !== '' && env.NODE_USE_ENV_PROXY !== '0') ||
    execArgv.includes('--use-env-proxy') ||
    (env.NODE_OPTIONS ?? '').includes('--use-env-proxy');
  if (!useEnv) return false;
  return ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => (env[name] ?? '') !== '');
}

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/**
 * Whether `dispatcher` is the one Node's `fetch` makes for itself, or the
 * `undici` package installs when a merchant's code imports it: an `Agent`
 * built with no options. Anything else (a `ProxyAgent`, an `Agent` with its
 * own TLS settings, interceptors) is the merchant's, and only global `fetch`
 * honours it. A shape not recognised counts as the merchant's.
 */
function isNodesOwnDispatcher(dispatcher: unknown): boolean {
  if (dispatcher === undefined) return true;
  if (typeof dispatcher !== 'object' || dispatcher === null || dispatcher.constructor?.name !== 'Agent') return false;
  const optionsKey = Object.getOwnPropertySymbols(dispatcher).find((key) => key.description === 'options');
  if (optionsKey === undefined) return false;
  const settings = (dispatcher as Record<symbol, unknown>)[optionsKey];
  if (typeof settings !== 'object' || settings === null) return false;
  // undici 7 stores its default `maxOrigins` (Infinity) among them: an Agent made with no options all the same.
  return Object.entries(settings).every(
    ([name, value]) => value === undefined || (name === 'maxOrigins' && value === Infinity),
  );
}

/**
 * Whether `candidate` is the `fetch` Node.js installs: its source loads
 * Node's bundled undici. A global `fetch` something replaced (msw or nock in
 * a merchant's tests, a tracing agent, a polyfill) is not, and keeps every
 * request: it is someone's deliberate setup, which a transport of lunas's own
 * would silently go around.
 */
export function isNodesOwnFetch(candidate: unknown): boolean {
  if (typeof candidate !== 'function' || candidate.name !== 'fetch') return false;
  try {
    return Function.prototype.toString.call(candidate).includes('internal/deps/undici/undici');
  } catch {
    return false;
  }
}

/**
 * Whether this is Node.js itself: not Bun or Deno (which set
 * `process.release.name` to `node` for compatibility), nor a Worker in
 * Cloudflare's `workerd` with `nodejs_compat`.
 */
export function isNodeRuntime(): boolean {
  const g = globalThis as { Bun?: unknown; Deno?: unknown; navigator?: { userAgent?: unknown } };
  if (g.Bun !== undefined || g.Deno !== undefined) return false;
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return false;
  return typeof process === 'object' && process !== null && process.release?.name === 'node';
}

/** Whether undici 7 runs on this Node.js `version` (its floor is 20.18.1); below it, global `fetch` stays. */
export function undiciRuns(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return major > 20 || (major === 20 && (minor > 18 || (minor === 18 && patch >= 1)));
}

/**
 * lunas's transport on Node.js, loaded by {@link loadNodeTransport}. The seam
 * with ky sends an attempt through `send` while `inUse()` says so, and
 * through global `fetch` otherwise.
 */
export interface NodeTransport {
  /** Sends over undici, whatever proxy setup is in place: ask {@link inUse} first. */
  send: NodeFetch;
  /**
   * Whether no proxy setup of the merchant's would be bypassed by `send` now:
   * no global dispatcher of their own is set (`setGlobalDispatcher`), and
   * global `fetch` is Node's own ({@link isNodesOwnFetch}). Asked per attempt,
   * since either may change at any time; checked again only when replaced.
   */
  inUse(): boolean;
}

/**
 * The transport for ky when the caller passes no `fetch`: the undici one on
 * Node.js, or `undefined` (meaning global `fetch`) on any other runtime, on a
 * Node.js 20 older than 20.18.1 (undici 7's floor), when `undici` cannot be
 * imported, or when `NODE_USE_ENV_PROXY` puts Node's `fetch`
 * behind a proxy from the environment.
 */
export async function loadNodeTransport(options?: NodeFetchOptions): Promise<NodeTransport | undefined> {
  if (!isNodeRuntime() || !undiciRuns(process.versions.node)) return undefined;
  if (envProxyInUse(process.env, process.execArgv)) return undefined;
  let modules: NodeModules;
  try {
    modules = await importNodeModules();
  } catch {
    return undefined;
  }
  const send = createNodeFetch(modules, options);
  // What was last found to be Node's own: checked again only when replaced.
  let checkedDispatcher: unknown;
  let checkedFetch: unknown;
  const inUse = (): boolean => {
    const dispatcher = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER];
    if (dispatcher !== checkedDispatcher) {
      if (!isNodesOwnDispatcher(dispatcher)) return false;
      checkedDispatcher = dispatcher;
    }
    const globalFetch = globalThis.fetch;
    if (globalFetch !== checkedFetch) {
      if (!isNodesOwnFetch(globalFetch)) return false;
      checkedFetch = globalFetch;
    }
    return true;
  };
  return { send, inUse };
}
