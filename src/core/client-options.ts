/**
 * The client's options: their names, their defaults (the environment's
 * included) and their checks at construction, resolved into the settings a
 * client's transport is built from. Checks shared with per-call options are in
 * option-checks.ts.
 */
import { LunasError } from './errors.js';
import { isBrowserLike, readEnv } from './environment.js';
import { checkLogger, isLogLevel, Log, type Logger, type LogLevel } from './log.js';
import { optionValueProblems } from './option-checks.js';
import { optionNames, readOptionsObject } from './option-names.js';
import { maskRefusal, MIN_KEY_LENGTH, Secret } from './secrets.js';
import type { TransportConfig } from './transport.js';

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
 * @see [Configuration](../../docs/configuration.md), the guide
 * @category Client
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

/** The names of {@link ClientOptions}; the compiler keeps it in step with the interface. */
const CLIENT_OPTION_NAMES = optionNames<ClientOptions>({
  apiKey: 0,
  baseURL: 0,
  timeout: 0,
  maxRetries: 0,
  fetch: 0,
  defaultHeaders: 0,
  logger: 0,
  logLevel: 0,
  dangerouslyAllowBrowser: 0,
});

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;

/**
 * The options as given, checked by name, with every known name as an own key;
 * `null` (JavaScript's "nothing") counts as none, anything but an object is refused.
 *
 * `clientKey`: the key of the client these options derive from, masked too.
 *
 * @throws {LunasError} for an unknown name, or options that are not an object.
 */
export function readClientOptions(given: unknown, clientKey?: string): ClientOptions {
  const { values, problems } = readOptionsObject(given, CLIENT_OPTION_NAMES, 'The client options');
  const messages = Object.values(problems).flat();
  if (messages.length > 0) {
    // A name is quoted to point at a typo, and the caller may have put a key there:
    // the key given, the environment's, and the key of the client being derived from.
    const refusal = masked(new LunasError(messages.join('; ')), values.apiKey ?? readEnv('LUNAS_API_KEY'));
    throw masked(refusal, clientKey);
  }
  return values as ClientOptions;
}

/**
 * `refusal`, with every form of `apiKey` masked when it can be a key at all: a
 * shorter one is refused at construction, and masking it would cut its
 * letters out of the refusal's words.
 */
function masked(refusal: unknown, apiKey: unknown): unknown {
  return typeof apiKey === 'string' && apiKey.length >= MIN_KEY_LENGTH
    ? maskRefusal(refusal, new Secret(apiKey))
    : refusal;
}

/**
 * What a client's transport is built from: its options checked, with the
 * defaults and the environment's values in place, and the key's `Secret`
 * and the `Log` made from them. The client adds its User-Agent and listeners.
 */
type ClientSettings = Omit<TransportConfig, 'userAgent' | 'events'>;

/**
 * The settings of a client made with `options` (read by {@link readClientOptions}),
 * checked in the order a merchant meets the problems: where it runs, the key,
 * the URL, then the rest.
 *
 * @throws {LunasError} when the key or URL is missing or unsafe, an option is
 * malformed, or this is a browser and `dangerouslyAllowBrowser` is not set.
 */
export function resolveClientSettings(options: ClientOptions): ClientSettings {
  try {
    return settingsOf(options);
  } catch (error) {
    // A refusal may quote a value the caller gave (a URL, a header's name), the key among them.
    throw masked(error, options.apiKey ?? readEnv('LUNAS_API_KEY'));
  }
}

function settingsOf(options: ClientOptions): ClientSettings {
  if (isBrowserLike() && !options.dangerouslyAllowBrowser) {
    throw new LunasError(
      'lunas is running in a browser, where every visitor could read your secret API key. ' +
        'Call the service from your server instead, or set dangerouslyAllowBrowser: true if you understand the risk.',
    );
  }
  const apiKey = checkApiKey(options.apiKey ?? readEnv('LUNAS_API_KEY'));
  const givenBaseURL = checkBaseURL(options.baseURL ?? readEnv('LUNAS_BASE_URL'));
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const defaultHeaders = options.defaultHeaders ?? {};
  const problem = Object.entries(optionValueProblems({ timeout, maxRetries, defaultHeaders }))[0];
  if (problem) throw new LunasError(`Invalid ${problem[0]}: ${problem[1].join(', ')}`);
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new LunasError('The fetch option must be a fetch-compatible function');
  }
  const logger = options.logger ?? console;
  const loggerLevels = checkLogger(logger);
  const secret = new Secret(apiKey);
  const log = new Log(logger, loggerLevels, logLevelOf(options.logLevel), secret);
  const baseURL = withoutVersion(givenBaseURL);
  if (baseURL !== givenBaseURL) {
    log.write('debug', `baseURL ${givenBaseURL} ends in /v1, which lunas adds to every path: using ${baseURL}`);
  }
  return { apiKey, secret, baseURL, timeout, maxRetries, fetch: options.fetch, defaultHeaders, log };
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
  if (apiKey.length < MIN_KEY_LENGTH) {
    throw new LunasError(
      `The API key is shorter than ${MIN_KEY_LENGTH} characters, which no real key is: ` +
        'check that the whole key was read from your secret store, not a placeholder',
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

function logLevelOf(option: unknown): LogLevel {
  if (option !== undefined) {
    if (!isLogLevel(option)) throw new LunasError('The logLevel option must be one of debug, info, warn, error, off');
    return option;
  }
  // A typo in the environment should not take a merchant's backend down.
  const fromEnv = readEnv('LUNAS_LOG')?.toLowerCase();
  return isLogLevel(fromEnv) ? fromEnv : 'warn';
}
