import { describeKind } from './core/describe-value.js';
import { LunasError } from './core/errors.js';
import { isLogLevel, Log, type Logger, type LogLevel } from './core/log.js';
import { headerProblems, maxRetriesProblem, timeoutProblem } from './core/request-options.js';
import { Transport } from './core/transport.js';
import { Charges } from './resources/charges.js';
import { PaymentMethods } from './resources/payment-methods.js';
import { Payouts } from './resources/payouts.js';
import { Transfers } from './resources/transfers.js';
import { VERSION } from './version.js';

/**
 * Options of {@link Client}. Every one is optional; the key and URL default to
 * the `LUNAS_API_KEY` and `LUNAS_BASE_URL` environment variables.
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
   * It is called as `fetch(request, init)`; `init.signal` ends the attempt (timeout or the
   * caller's abort), so pass `init` on rather than the `Request` alone.
   */
  fetch?: typeof globalThis.fetch | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /** Where log lines go. Default: `console`. */
  logger?: Logger | undefined;
  /** The least severe level written. Default: `LUNAS_LOG`, else `warn`. */
  logLevel?: LogLevel | undefined;
  /**
   * Allow construction in a browser. Off by default: a secret key shipped to a
   * browser is readable by every visitor.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
}

const DEFAULT_TIMEOUT_MS = 30_000;
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
  /** The base URL requests are sent to: without a trailing slash or `/v1`, which every path starts with. */
  readonly baseURL: string;
  /** Per-attempt timeout in ms. */
  readonly timeout: number;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  readonly #options: ClientOptions;

  /** @throws {LunasError} when the key or URL is missing or unsafe, or an option is malformed. */
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

    const log = new Log(options.logger ?? console, logLevel(options.logLevel), apiKey);
    if (this.baseURL !== givenBaseURL) {
      log.write('debug', `baseURL ${givenBaseURL} ends in /v1, which lunas adds to every path: using ${this.baseURL}`);
    }

    const transport = new Transport({
      apiKey,
      baseURL: this.baseURL,
      timeout: this.timeout,
      maxRetries: this.maxRetries,
      fetch: options.fetch,
      defaultHeaders,
      userAgent: `lunas/${VERSION}`,
      log,
    });
    this.charges = new Charges(transport);
    this.transfers = new Transfers(transport);
    this.payouts = new Payouts(transport);
    this.paymentMethods = new PaymentMethods(transport);
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
    return new Client({ ...this.#options, ...Object.fromEntries(changed) });
  }
}

/** The options as given; `null` (JavaScript's "nothing") counts as none, anything but an object is refused. */
function clientOptions(given: unknown): ClientOptions {
  if (given === undefined || given === null) return {};
  if (typeof given !== 'object' || Array.isArray(given)) {
    throw new LunasError(`The client options must be an object (got ${describeKind(given)})`);
  }
  return given as ClientOptions;
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

function isBrowserLike(): boolean {
  const scope = globalThis as { window?: unknown; document?: unknown; navigator?: { product?: string } };
  return typeof scope.window === 'object' && typeof scope.document === 'object' && typeof scope.navigator === 'object';
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
