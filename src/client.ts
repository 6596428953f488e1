import { API, type GetOptions, type PostOptions } from './core/api.js';
import { describeKind } from './core/describe-value.js';
import { LunasError } from './core/errors.js';
import { type ClientEventListener, type ClientEvents, Events } from './core/events.js';
import type { StandardSchema } from './core/standard-schema.js';
import { checkLogger, isLogLevel, Log, type Logger, type LogLevel } from './core/log.js';
import { readOptions } from './core/option-names.js';
import { headerProblems, maxRetriesProblem, timeoutProblem } from './core/request-options.js';
import { Secret } from './core/secrets.js';
import { Transport } from './core/transport.js';
import { Charges } from './resources/charges.js';
import { PaymentMethods } from './resources/payment-methods.js';
import { Payouts } from './resources/payouts.js';
import { Transfers } from './resources/transfers.js';
import { VERSION } from './version.js';
import { Webhooks } from './webhooks.js';

/**
 * Options of {@link Client}. Every one is optional; the key and URL default to
 * the `LUNAS_API_KEY` and `LUNAS_BASE_URL` environment variables. Any other
 * name (`baseUrl`, `maxRetry`) throws `LunasError`, naming the closest one.
 *
 * @example
 * ```ts
 * const client = new Client({
 *   baseURL: 'https://api.example.com',
 *   timeout: 10_000,
 *   maxRetries: 3,
 *   defaultHeaders: { 'x-team': 'payments' },
 *   logLevel: 'info',
 * });
 * ```
 */
export interface ClientOptions {
  /** Secret API key, sent as `Authorization: Bearer`. Default: `LUNAS_API_KEY`. */
  apiKey?: string | undefined;
  /**
   * Base URL of the service, e.g. `https://api.example.com`. Default: `LUNAS_BASE_URL`.
   * lunas adds the version to every path (`/v1/transfers`), so a base URL ending
   * in `/v1`, as other SDKs expect, is used without it.
   */
  baseURL?: string | undefined;
  /** Per-attempt timeout in ms. Default 30 000. */
  timeout?: number | undefined;
  /** Retries after the first attempt, for connection failures, timeouts, 408, 409, 429 and 5xx. Default 2. */
  maxRetries?: number | undefined;
  /**
   * A fetch-compatible function, e.g. one that goes through a proxy. Default: the global `fetch`.
   * It is called as `fetch(request, init)`; `init.signal` aborts the request (at the caller's
   * abort, or the timeout while the response is awaited), so pass `init` on rather than the
   * `Request` alone.
   */
  fetch?: typeof globalThis.fetch | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /**
   * Where log lines go. Default: `console`. An object with `debug`, `info`,
   * `warn` and `error` methods; lines of a level it has no method for are dropped.
   */
  logger?: Logger | undefined;
  /** The least severe level written. Default: `LUNAS_LOG`, else `warn`. */
  logLevel?: LogLevel | undefined;
  /**
   * Allow construction in a browser, a page or a Web Worker. Off by default: a
   * secret key shipped to a browser is readable by every visitor. Cloudflare
   * Workers, Deno, Bun and Node are servers and need no such option.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** Handed from withOptions() to the constructor it calls, so the derived client shares the listeners. */
let inheritedEvents: Events | undefined;
const DEFAULT_MAX_RETRIES = 2;

/**
 * The lunas client: one per API key, safe to share across concurrent requests.
 *
 * @example
 * ```ts
 * import { Client } from 'lunas-sdk';
 *
 * const client = new Client(); // reads LUNAS_API_KEY and LUNAS_BASE_URL
 * const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
 * ```
 */
export class Client {
  /** Payment charges: create, retrieve, list. */
  readonly charges: Charges;
  /** Transfers between platform accounts: create, list. */
  readonly transfers: Transfers;
  /** Payouts to bank accounts: list. */
  readonly payouts: Payouts;
  /** Payment methods: list. */
  readonly paymentMethods: PaymentMethods;
  /** Webhook events: confirm one by reading its charge back. */
  readonly webhooks: Webhooks;
  /** The base URL requests are sent to. */
  /** The base URL requests are sent to: without a trailing slash or `/v1`, which every path starts with. */
  readonly baseURL: string;
  /** Per-attempt timeout in ms. */
  readonly timeout: number;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  readonly #options: ClientOptions;
  readonly #api: API;
  readonly #events: Events;

  /** @throws {LunasError} when the key or URL is missing or unsafe, or an option is malformed or unknown. */
  constructor(given?: ClientOptions) {
    const options = clientOptions(given);
    this.#options = { ...options };
    if (isBrowserLike() && !options.dangerouslyAllowBrowser) {
      throw new LunasError(
        'lunas is running in a browser, where every visitor could read your secret API key. ' +
          'Call the service from your server instead, or set dangerouslyAllowBrowser: true if you understand the risk.',
      );
    }
    const apiKey = checkApiKey(options.apiKey ?? readEnv('LUNAS_API_KEY'));
    const givenBaseURL = checkBaseURL(options.baseURL ?? readEnv('LUNAS_BASE_URL'));
    this.baseURL = withoutVersion(givenBaseURL);
    // A derived client keeps what this one resolved, even if the environment changes.
    this.#options.apiKey = apiKey;
    this.#options.baseURL = this.baseURL;
    this.timeout = checkOption('timeout', options.timeout ?? DEFAULT_TIMEOUT_MS, timeoutProblem);
    this.maxRetries = checkOption('maxRetries', options.maxRetries ?? DEFAULT_MAX_RETRIES, maxRetriesProblem);
    const defaultHeaders = options.defaultHeaders ?? {};
    const headerProblem = Object.entries(headerProblems(defaultHeaders, 'defaultHeaders'))[0];
    if (headerProblem) throw new LunasError(`Invalid ${headerProblem[0]}: ${headerProblem[1].join(', ')}`);
    if (options.fetch !== undefined && typeof options.fetch !== 'function') {
      throw new LunasError('The fetch option must be a fetch-compatible function');
    }
    const logger = options.logger ?? console;
    const loggerLevels = checkLogger(logger);

    // A client made by withOptions() shares its parent's listeners.
    this.#events = inheritedEvents ?? new Events();
    inheritedEvents = undefined;
    const secret = new Secret(apiKey);
    const log = new Log(logger, loggerLevels, logLevel(options.logLevel), secret);
    if (this.baseURL !== givenBaseURL) {
      log.write('debug', `baseURL ${givenBaseURL} ends in /v1, which lunas adds to every path: using ${this.baseURL}`);
    }

    const transport = new Transport({
      apiKey,
      secret,
      baseURL: this.baseURL,
      timeout: this.timeout,
      maxRetries: this.maxRetries,
      fetch: options.fetch,
      defaultHeaders,
      userAgent: `lunas/${VERSION}`,
      events: this.#events,
      log,
    });
    this.#api = new API(transport);
    this.charges = new Charges(this.#api);
    this.transfers = new Transfers(this.#api);
    this.payouts = new Payouts(this.#api);
    this.paymentMethods = new PaymentMethods(this.#api);
    this.webhooks = new Webhooks(this.charges);
  }

  /**
   * Calls `listener` for each `request` (before every attempt is sent) or
   * `response` (when every attempt ends, with or without a response). Events
   * never carry the API key. A listener that throws is logged at warn level
   * and never breaks the call. Clients made by {@link Client.withOptions}
   * share this client's listeners, in both directions.
   *
   * @throws {LunasError} for an event other than `request` or `response`, or a listener that is not a function.
   *
   * @example
   * ```ts
   * client.on('response', (e) => metrics.timing('lunas.request', e.durationMs, { status: String(e.status) }));
   * ```
   */
  on<E extends keyof ClientEvents>(event: E, listener: ClientEventListener<E>): this {
    this.#events.add(event, listener);
    return this;
  }

  /**
   * Stops calling a listener added with {@link Client.on}.
   *
   * @throws {LunasError} for an event other than `request` or `response`.
   */
  off<E extends keyof ClientEvents>(event: E, listener: ClientEventListener<E>): this {
    this.#events.remove(event, listener);
    return this;
  }

  /**
   * GET an endpoint the SDK has no method for yet. `path` is relative to the
   * base URL, as in the service's docs. Every rule of the SDK's own methods
   * applies: retries, timeout, signal, events, envelope decoding, typed
   * errors. Resolves to the success envelope's `data`: `unknown`, or typed
   * and checked by `options.schema` (any Standard Schema: zod, valibot, arktype).
   *
   * @example
   * ```ts
   * const data = await client.get('/v1/payouts', { query: { page: 1, pagesize: 100 } });
   * const payout = await client.get('/v1/payouts/po_1', { schema: PayoutSchema });
   * ```
   */
  get(path: string, options?: GetOptions<unknown> & { schema?: undefined }): Promise<unknown>;
  get<T>(path: string, options: GetOptions<T> & { schema: StandardSchema<T> }): Promise<T>;
  get<T>(path: string, options?: GetOptions<T>): Promise<T> {
    return this.#api.raw('GET', path, options);
  }

  /**
   * POST to an endpoint the SDK has no method for yet, with `body` sent as
   * JSON. Like every POST it carries an Idempotency-Key (yours, or a UUID),
   * the same on every attempt. Otherwise as {@link Client.get}.
   *
   * @example
   * ```ts
   * const created = await client.post('/v1/transfers', { body, idempotencyKey: `settle-${invoice.id}` });
   * ```
   */
  post(path: string, options?: PostOptions<unknown> & { schema?: undefined }): Promise<unknown>;
  post<T>(path: string, options: PostOptions<T> & { schema: StandardSchema<T> }): Promise<T>;
  post<T>(path: string, options?: PostOptions<T>): Promise<T> {
    return this.#api.raw('POST', path, options);
  }

  /**
   * A new client with some options changed and the rest (the key included)
   * kept. The original is unchanged.
   *
   * @example
   * ```ts
   * const patient = client.withOptions({ timeout: 120_000, maxRetries: 5 });
   * ```
   */
  withOptions(overrides: ClientOptions): Client {
    const changed = Object.entries(clientOptions(overrides)).filter(([, value]) => value !== undefined);
    inheritedEvents = this.#events;
    try {
      return new Client({ ...this.#options, ...Object.fromEntries(changed) });
    } finally {
      inheritedEvents = undefined;
    }
  }
}

/** The names of {@link ClientOptions}; the compiler keeps it in step with the interface. */
const CLIENT_OPTION_NAMES = Object.keys({
  apiKey: 0,
  baseURL: 0,
  timeout: 0,
  maxRetries: 0,
  fetch: 0,
  defaultHeaders: 0,
  logger: 0,
  logLevel: 0,
  dangerouslyAllowBrowser: 0,
} satisfies Record<keyof ClientOptions, 0>) as (keyof ClientOptions)[];

/**
 * The options as given, checked by name, with every known name as an own key;
 * `null` (JavaScript's "nothing") counts as none, anything but an object is refused.
 */
function clientOptions(given: unknown): ClientOptions {
  if (given === undefined || given === null) given = {};
  if (typeof given !== 'object' || Array.isArray(given)) {
    throw new LunasError(`The client options must be an object (got ${describeKind(given)})`);
  }
  const { values, problems } = readOptions(given as object, CLIENT_OPTION_NAMES);
  const unknown = Object.values(problems).flat();
  if (unknown.length > 0) throw new LunasError(unknown.join('; '));
  return values as ClientOptions;
}

function readEnv(name: string): string | undefined {
  try {
    // Deno without --allow-env throws here; browsers have no process at all.
    const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
    return value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}

/**
 * A browser page (a window with a document), or a browser's dedicated, shared
 * or service worker. Server runtimes have worker scopes too (Cloudflare Workers,
 * Deno's workers) but name themselves in `navigator.userAgent`
 * (`Cloudflare-Workers`, `Deno/…`, `Bun/…`, `Node.js/…`), while every browser's
 * starts with `Mozilla/`.
 */
function isBrowserLike(): boolean {
  const scope = globalThis as {
    window?: unknown;
    document?: unknown;
    navigator?: { userAgent?: unknown };
    importScripts?: unknown;
    WorkerGlobalScope?: unknown;
  };
  if (typeof scope.window === 'object' && typeof scope.document === 'object' && typeof scope.navigator === 'object') {
    return true;
  }
  const inWorker = typeof scope.importScripts === 'function' || typeof scope.WorkerGlobalScope === 'function';
  const userAgent = scope.navigator?.userAgent;
  return inWorker && typeof userAgent === 'string' && userAgent.startsWith('Mozilla/');
}

function checkApiKey(apiKey: unknown): string {
  if (apiKey === undefined || apiKey === '') {
    throw new LunasError('No API key: pass the apiKey option or set the LUNAS_API_KEY environment variable');
  }
  if (typeof apiKey !== 'string') throw new LunasError('The apiKey option must be a string');
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new LunasError(
      'The API key contains a space, a control character (such as a trailing newline) or a non-ASCII character; ' +
        'check how it is read from your secret store',
    );
  }
  return apiKey;
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

function checkBaseURL(baseURL: unknown): string {
  if (baseURL === undefined || baseURL === '') {
    throw new LunasError('No base URL: pass the baseURL option or set the LUNAS_BASE_URL environment variable');
  }
  if (typeof baseURL !== 'string' || !URL.canParse(baseURL)) {
    throw new LunasError('The baseURL must be an absolute URL such as https://api.example.com');
  }
  const url = new URL(baseURL);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new LunasError(`The baseURL must use https: (got ${url.protocol})`);
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.test(url.hostname)) {
    throw new LunasError(
      `The baseURL uses plain http: for ${url.hostname}; the API key would travel unencrypted. ` +
        'Use https:, or a loopback host (localhost, 127.0.0.1, [::1]) for local testing',
    );
  }
  if (url.username !== '' || url.password !== '') throw new LunasError('The baseURL must not contain credentials');
  if (url.search !== '' || url.hash !== '') throw new LunasError('The baseURL must not have a query or fragment');
  return url.href.replace(/\/+$/, '');
}

/**
 * The base URL without a final `/v1` segment: the service's paths all start
 * with `/v1` and are appended to the base URL, so keeping it would request
 * `/v1/v1/...` and answer every call with 404. A prefix before it stays
 * (`https://gw.example.com/lunas/v1` becomes `https://gw.example.com/lunas`).
 */
function withoutVersion(baseURL: string): string {
  return baseURL.replace(/\/v1$/, '');
}

function checkOption(name: string, value: unknown, problem: (value: unknown) => string | undefined): number {
  const message = problem(value);
  if (message !== undefined) throw new LunasError(`Invalid ${name}: ${message}`);
  return value as number;
}

function logLevel(option: unknown): LogLevel {
  if (option !== undefined) {
    if (!isLogLevel(option)) throw new LunasError('The logLevel option must be one of debug, info, warn, error, off');
    return option;
  }
  // A typo in the environment should not take a merchant's backend down.
  const fromEnv = readEnv('LUNAS_LOG')?.toLowerCase();
  return isLogLevel(fromEnv) ? fromEnv : 'warn';
}
