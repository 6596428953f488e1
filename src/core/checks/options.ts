/**
 * Options, the client's and each call's: their names, the checks of their
 * values, their defaults (the environment's included), and a client's options
 * resolved into the settings its transport is built from.
 *
 * Every options object is checked by name as well as by value. Plain
 * JavaScript gets no compiler, so a misspelt option (`maxRetry`,
 * `idempotency_key`) would otherwise be ignored in silence and its default
 * used instead: a generated idempotency key, two retries.
 *
 * Only an options object's own enumerable string keys are checked and read,
 * as `Object.entries` and object spread see them: a `null`-prototype object
 * works, and properties inherited from a prototype (or added to
 * `Object.prototype` by another library) neither trip the check nor get read.
 * Symbol keys and non-enumerable properties are metadata, not options: they
 * are neither checked nor read either.
 *
 * Messages never quote an option's value: a header or a key may be a credential.
 */
import { unknownOptionMessage } from './closest-names.js';
import { describeKind, describeValue } from '../report/describe-value.js';
import { addFieldMessages, type FieldErrors, LunasError, RequestValidationError } from '../report/errors.js';
import { checkLogger, isLogLevel, Log, type Logger, type LogLevel } from '../report/log.js';
import { isBrowserLike, readEnv } from '../runtime.js';
import { maskRefusal, MIN_KEY_LENGTH, Secret } from '../report/secrets.js';

// ---------------------------------------------------------------------------
// Names: options read by name, an unknown one refused with the closest known.

/** An options object's values: every known name as an own key, `undefined` when not given. */
type OptionValues<K extends string> = { [P in K]: unknown };

/**
 * The names of an options interface as a list, for {@link readOptions}: the
 * compiler refuses a name missing from `names` or not in `T`, so a new option
 * is one new key beside its interface.
 *
 * @example
 * ```ts
 * const NAMES = optionNames<RequestOptions>({ idempotencyKey: 0, timeout: 0, maxRetries: 0, signal: 0, headers: 0 });
 * ```
 */
export function optionNames<T>(names: { [K in keyof Required<T>]: 0 }): (keyof T & string)[] {
  return Object.keys(names) as (keyof T & string)[];
}

/**
 * Every name in `known` as an own key holding `undefined`: spreading such an
 * object, or reading a name from it, never reaches a polluted `Object.prototype`.
 */
function noValues<K extends string>(known: readonly K[]): OptionValues<K> {
  const values = {} as OptionValues<K>;
  for (const name of known) values[name] = undefined;
  return values;
}

/**
 * An options argument read by name, as {@link readOptions} does. `undefined`
 * and `null` (JavaScript's "nothing") are no options; anything but an object
 * is a problem under `options`, named by its kind only: a misplaced argument
 * may be an API key. `label` starts that message (`Options`, `The client options`).
 */
export function readOptionsObject<K extends string>(
  given: unknown,
  known: readonly K[],
  label: string,
): { values: OptionValues<K>; problems: FieldErrors } {
  const options = given ?? {};
  const isObject = typeof options === 'object' && !Array.isArray(options);
  const read = readOptions(isObject ? options : {}, known);
  if (!isObject) read.problems.options = [`${label} must be an object (got ${describeKind(given)})`];
  return read;
}

/**
 * The known options' values, each read once, and a problem per unknown name
 * (keyed as {@link optionField} says). The values object holds every known
 * name as an own key, so neither spreading it nor reading it can reach a
 * polluted `Object.prototype`.
 */
export function readOptions<K extends string>(
  given: object,
  known: readonly K[],
): { values: OptionValues<K>; problems: FieldErrors } {
  const values = noValues(known);
  const problems: FieldErrors = {};
  for (const [name, value] of Object.entries(given)) {
    if (known.includes(name as K)) values[name as K] = value;
    else addFieldMessages(problems, optionField(name), [unknownOptionMessage(name, known)]);
  }
  return { values, problems };
}

/**
 * The key an unknown name gets in `RequestValidationError.fields`: the name
 * itself, or, for a long one or one holding control characters, its JSON
 * escaped and shortened form, so the error's message stays one short line.
 */
function optionField(name: string): string {
  return describeValue(name).slice(1, -1);
}

// ---------------------------------------------------------------------------
// Values: one rule per option a client and a call share (`timeout`,
// `maxRetries`, headers) or a call has alone (`idempotencyKey`, `signal`).
// Problems are keyed like `RequestValidationError.fields`: the client throws
// its first, a call all.

/** Largest delay `setTimeout` honours. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

// RFC 9110 token characters for names; visible ASCII, space and tab for values.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const reservedHeaders = new Set(['authorization', 'idempotency-key', 'content-length', 'host']);
/** Connection-level headers fetch refuses to send: accepted, they would fail every attempt as a connection error. */
const connectionHeaders = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect']);

/**
 * Whether a header a `lunas:attempt` subscriber added (trace context) can be
 * sent: what the `headers` option accepts, by the same rules, so an added
 * header can neither fail the attempt nor replace what the SDK sets.
 */
export function isAddableHeader(name: string, value: unknown): value is string {
  const lower = name.toLowerCase();
  return (
    typeof value === 'string' &&
    HEADER_NAME.test(name) &&
    HEADER_VALUE.test(value) &&
    name !== '__proto__' &&
    !reservedHeaders.has(lower) &&
    !connectionHeaders.has(lower)
  );
}

/** Adds the problems of a headers record to `problems`, keyed `<prefix>.<name>`. */
function addHeaderProblems(problems: FieldErrors, headers: unknown, prefix: string): void {
  if (typeof headers !== 'object' || headers === null) {
    problems[prefix] = ['Headers must be an object of strings'];
    return;
  }
  for (const [name, value] of Object.entries(headers)) {
    const key = `${prefix}.${name}`;
    if (!HEADER_NAME.test(name)) problems[key] = ['Header name is not a valid HTTP token'];
    else if (reservedHeaders.has(name.toLowerCase()))
      problems[key] = ['This header is set by the SDK; use the apiKey or idempotencyKey option'];
    else if (name === '__proto__')
      // A record key that JavaScript object handling (ky's merge included) silently drops.
      problems[key] = ['This header name cannot be sent from a headers record'];
    else if (connectionHeaders.has(name.toLowerCase()))
      problems[key] = ['This header belongs to the HTTP connection and cannot be set'];
    else if (typeof value !== 'string' || !HEADER_VALUE.test(value))
      problems[key] = ['Header value must be a string without control characters such as CR or LF'];
  }
}

const problemOf = {
  timeout: (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_TIMEOUT_MS
      ? undefined
      : `Timeout must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`,
  maxRetries: (value: unknown) =>
    Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 10
      ? undefined
      : 'Max retries must be an integer from 0 to 10',
  maxConcurrentRequests: (value: unknown) =>
    value === Infinity || (Number.isInteger(value) && (value as number) >= 1)
      ? undefined
      : 'Max concurrent requests must be an integer of at least 1, or Infinity',
  idempotencyKey: (value: unknown) =>
    typeof value === 'string' && IDEMPOTENCY_KEY.test(value)
      ? undefined
      : 'Idempotency key must be 1 to 255 visible ASCII characters',
  signal: (value: unknown) => (value instanceof AbortSignal ? undefined : 'Signal must be an AbortSignal'),
};

/** The options whose values {@link addValueProblems} checks: a headers record under either name. */
type CheckedName = keyof typeof problemOf | 'headers' | 'defaultHeaders';

/**
 * Adds to `problems` those of the options `names` lists (an `undefined` value
 * is not given), in the order of `names`, so each caller decides which it
 * reports first. Nothing is allocated when every value is fine.
 */
function addValueProblems(
  problems: FieldErrors,
  values: { readonly [K in CheckedName]?: unknown },
  names: readonly CheckedName[],
): void {
  for (const name of names) {
    const value = values[name];
    if (value === undefined) continue;
    if (name === 'headers' || name === 'defaultHeaders') addHeaderProblems(problems, value, name);
    else {
      const message = problemOf[name](value);
      if (message !== undefined) problems[name] = [message];
    }
  }
}

// ---------------------------------------------------------------------------
// The client's options, checked at construction.

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
 * @see [Configuration](../../../docs/configuration.md), the guide
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
   * The most requests this client has on the wire at once: further ones wait
   * in the client's queue, in the order they were made, and their timeout
   * starts only when they are sent, so a wait for a turn never becomes a
   * timeout the service did not cause, nor part of an event's `durationMs` or
   * a traced attempt (the caller's `signal` still ends it, unsent).
   * An integer of at least 1, or `Infinity`. Default 64: a batch of thousands
   * of calls then holds 64 connections instead of one per call (see the
   * Configuration guide). Clients made by `withOptions` have a queue of their own.
   */
  maxConcurrentRequests?: number | undefined;
  /**
   * A fetch-compatible function, e.g. one that goes through a proxy. Default: on Node.js, Node's
   * own HTTP client (undici's `request` on the global dispatcher, which global `fetch` uses too);
   * elsewhere the global `fetch` (see the Configuration guide). It is called as
   * `fetch(request, init)`; `init.signal` aborts the attempt (at the caller's abort, or its
   * timeout, headers and body alike), so pass `init` on rather than the `Request` alone.
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
  maxConcurrentRequests: 0,
  fetch: 0,
  defaultHeaders: 0,
  logger: 0,
  logLevel: 0,
  dangerouslyAllowBrowser: 0,
});

/** The client's values checked by {@link addValueProblems}, in the order the first problem is picked. */
const CLIENT_VALUE_CHECKS: readonly CheckedName[] = [
  'timeout',
  'maxRetries',
  'maxConcurrentRequests',
  'defaultHeaders',
];

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_CONCURRENT_REQUESTS = 64;

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
 * and the `Log` made from them. The client adds its User-Agent and listeners
 * (the transport's `TransportConfig` is these settings and those two).
 */
export interface ClientSettings {
  apiKey: string;
  /** The key's matcher, shared with the log: masks it in every form. */
  secret: Secret;
  baseURL: string;
  timeout: number;
  maxRetries: number;
  maxConcurrentRequests: number;
  fetch: typeof globalThis.fetch | undefined;
  defaultHeaders: Record<string, string>;
  log: Log;
}

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
  const maxConcurrentRequests = options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS;
  const defaultHeaders = options.defaultHeaders ?? {};
  const problems: FieldErrors = {};
  addValueProblems(problems, { timeout, maxRetries, maxConcurrentRequests, defaultHeaders }, CLIENT_VALUE_CHECKS);
  const problem = Object.entries(problems)[0];
  if (problem) throw new LunasError(`Invalid ${problem[0]}: ${problem[1].join(', ')}`);
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new LunasError('The fetch option must be a fetch-compatible function');
  }
  const logger = options.logger ?? console;
  const loggerLevels = checkLogger(logger);
  const secret = new Secret(apiKey);
  const log = new Log(logger, loggerLevels, logLevelOf(options.logLevel), secret);
  // The service's paths all start with `/v1` and are appended to the base URL,
  // so a final `/v1` would request `/v1/v1/...` and answer every call with 404.
  // A prefix before it stays (`https://gw.example.com/lunas/v1` becomes `https://gw.example.com/lunas`).
  const baseURL = givenBaseURL.replace(/\/v1$/, '');
  if (baseURL !== givenBaseURL) {
    log.write('debug', `baseURL ${givenBaseURL} ends in /v1, which lunas adds to every path: using ${baseURL}`);
  }
  const fetch = options.fetch;
  return { apiKey, secret, baseURL, timeout, maxRetries, maxConcurrentRequests, fetch, defaultHeaders, log };
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

function logLevelOf(option: unknown): LogLevel {
  if (option !== undefined) {
    if (!isLogLevel(option)) throw new LunasError('The logLevel option must be one of debug, info, warn, error, off');
    return option;
  }
  // A typo in the environment should not take a merchant's backend down.
  const fromEnv = readEnv('LUNAS_LOG')?.toLowerCase();
  return isLogLevel(fromEnv) ? fromEnv : 'warn';
}

// ---------------------------------------------------------------------------
// Each call's options, checked before anything is sent. This runs on every
// call, so it does only what the options given need.

/**
 * Options accepted by every method as its last argument. Any other name
 * (`idempotency_key`, `maxRetry`) rejects with `RequestValidationError`,
 * naming the closest one, before anything is sent.
 *
 * @example
 * ```ts
 * await client.transfers.create(params, { idempotencyKey: `invoice-${invoice.id}`, timeout: 10_000 });
 * ```
 * @category Client
 */
export interface RequestOptions {
  /**
   * The Idempotency-Key of a POST. Defaults to a fresh UUID per call; pass your
   * own (one per business operation, e.g. per invoice) to make retries of the
   * whole operation safe across processes and restarts.
   */
  idempotencyKey?: string | undefined;
  /** Per-attempt timeout in ms; overrides the client's `timeout`. */
  timeout?: number | undefined;
  /** Retries after the first attempt; overrides the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Aborts the call, including any wait between retries. */
  signal?: AbortSignal | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
}

/** The names of {@link RequestOptions}; the compiler keeps it in step with the interface. */
const REQUEST_OPTION_NAMES = optionNames<RequestOptions>({
  idempotencyKey: 0,
  timeout: 0,
  maxRetries: 0,
  signal: 0,
  headers: 0,
});

/** A call's values checked by {@link addValueProblems}, in the order their problems are listed. */
const REQUEST_VALUE_CHECKS: readonly CheckedName[] = ['headers', 'timeout', 'maxRetries', 'idempotencyKey', 'signal'];

/**
 * The checked options of every call given none, most calls: one object, built
 * once and frozen so no call can change it for the others. Each name is an own
 * key holding `undefined`, so no read of it reaches a polluted `Object.prototype`.
 */
export const NO_REQUEST_OPTIONS: RequestOptions = Object.freeze(noValues(REQUEST_OPTION_NAMES) as RequestOptions);

/**
 * The per-call options as given, checked by name and by value; unknown or
 * malformed ones are refused before anything is sent. `null` counts as no
 * options, like `undefined`: JavaScript callers pass it for "nothing", and it
 * holds nothing that could be lost. `extra` names the options a raw call adds
 * (`query`, `body`, `schema`), returned unchecked for their own checks.
 *
 * A call given none walks no check: it gets `NO_REQUEST_OPTIONS` (a raw
 * call, a fresh one that also holds `extra`'s names). Options given are read into a result of their own holding every
 * name, `extra` included, as an own key; only an unknown name or a value's
 * problem builds anything more.
 */
export function checkRequestOptions<E extends string = never>(
  options: unknown,
  extra?: readonly E[],
): RequestOptions & { [P in E]?: unknown } {
  const known = extra === undefined ? REQUEST_OPTION_NAMES : [...REQUEST_OPTION_NAMES, ...extra];
  if (options === undefined || options === null) {
    // A raw call reads its own names too: each an own key, so none reaches a polluted prototype.
    return extra === undefined ? NO_REQUEST_OPTIONS : (noValues(known) as RequestOptions);
  }
  const { values, problems } = readOptionsObject(options, known, 'Options');
  addValueProblems(problems, values, REQUEST_VALUE_CHECKS);
  if (Object.keys(problems).length > 0) throw new RequestValidationError(problems);
  return values as RequestOptions & { [P in E]?: unknown };
}
