/**
 * The transport: one call is one logical operation, one Idempotency-Key and up
 * to `maxRetries + 1` attempts, all ended by the caller's signal, with a
 * request and a response event per attempt. This module holds the retry loop,
 * the retry policy (what is retried, how long to wait) and one attempt: sent
 * by ky (ky.ts), then read to the end of its body (at most
 * {@link MAX_RESPONSE_BODY_BYTES}) under one deadline.
 *
 * The retry loop is lunas's, not ky's, because the contract's policy (409
 * retried, any 5xx, `retry-after-ms`, waits over 60 s replaced by backoff, a
 * timeout that also covers reading the body) does not fit ky's retry options.
 *
 * What the success path costs is kept small on purpose: the masked label of a
 * call is built only for a message or a log line, text is handed to the
 * masking only when it could hold the key, and whether anyone listens or logs
 * at debug level is a field read.
 */
import { describeThrown } from './describe-value.js';
import { decodeFailure, decodeSuccess, followedRedirectError, type RawResponse } from './envelope.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  LunasError,
  ResponseBodyError,
} from './errors.js';
import type { Events } from './events.js';
import { type AttemptDeadline, FollowedRedirect, type Ky, loadKy, type SendInit } from './ky.js';
import type { Log } from './log.js';
import type { PageEnvelope } from './pagination.js';
import type { RequestOptions } from './options.js';
import type { ResponseInfo, StandardSchema } from './request.js';
import { describeError, foreignError, redact, type Secret, withoutSecret } from './secrets.js';

/** What the transport needs from the client's options, already checked. */
export interface TransportConfig {
  apiKey: string;
  /** The key's matcher, shared with the log: masks it in every form. */
  secret: Secret;
  baseURL: string;
  timeout: number;
  maxRetries: number;
  fetch: typeof globalThis.fetch | undefined;
  defaultHeaders: Record<string, string>;
  userAgent: string;
  log: Log;
  /** Listeners of request and response events, shared with derived clients. */
  events: Events;
}

/** One endpoint call. */
interface RequestSpec<T> {
  method: 'GET' | 'POST';
  /** Relative to the base URL, without a leading slash; ids already encoded. */
  path: string;
  query?: Record<string, number | string | boolean | undefined> | undefined;
  /** The JSON text of a POST's body. */
  body?: string | undefined;
  /** Checks the success envelope's `data`; unchecked when absent. */
  schema?: StandardSchema<T> | undefined;
}

/** A list call: the result is the page envelope, and `schema` checks its `data`. */
interface ListRequestSpec<T> extends RequestSpec<T[]> {
  method: 'GET';
  /** The page requested: an answer for another page is refused. */
  page: number;
}

/** The parsed envelope and the exchange that produced it. */
interface Result<T> {
  body: T;
  info: ResponseInfo;
}

/** Runs a client's calls: the retry loop, its events and log lines. */
export class Transport {
  readonly #config: TransportConfig;
  /** The headers of every call, built once. */
  readonly #baseHeaders: Record<string, string>;
  /** ky, set up by the first request. */
  #http: Ky | undefined;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#baseHeaders = clientHeaders(config.apiKey, config.userAgent, config.defaultHeaders);
  }

  /** The key's matcher, for messages built before a call reaches the transport. */
  get secret(): Secret {
    return this.#config.secret;
  }

  /** A warn-level line through the client's log: something a call saw but did not fail on. */
  warn(message: string): void {
    this.#config.log.write('warn', message);
  }

  /** `options` come checked, by name and value, from `checkRequestOptions` (the API does it once per call). */
  request<T>(spec: ListRequestSpec<T>, options: RequestOptions): Promise<Result<PageEnvelope<T>>>;
  request<T>(spec: RequestSpec<T>, options: RequestOptions): Promise<Result<T>>;
  async request(spec: RequestSpec<unknown> & { page?: number }, options: RequestOptions): Promise<Result<unknown>> {
    const config = this.#config;
    const { log, events } = config;
    const { method, body } = spec;
    const maxRetries = options.maxRetries ?? config.maxRetries;
    const idempotencyKey = method === 'POST' ? (options.idempotencyKey ?? crypto.randomUUID()) : undefined;
    // ky is loaded with the first request, not with `import 'lunas-sdk'` (a process
    // that builds a client and never calls pays nothing for it), and before the
    // first attempt's timer starts: loading code is not waiting on the network.
    const http = (this.#http ??= await loadKy(config.baseURL, config.fetch));
    const call = new Call(config, http, {
      target: spec.query ? withQuery(spec.path, spec.query) : spec.path,
      init: { method, headers: callHeaders(this.#baseHeaders, options.headers, idempotencyKey, body), body },
      timeout: options.timeout ?? config.timeout,
      signal: options.signal,
      idempotencyKey,
    });
    const { signal, timeout } = call;
    // Aborted before anything is sent: no attempt, so no events either, and
    // no key on the error, since no request carried one.
    if (signal?.aborted) throw new APIUserAbortError(`${call.label} was aborted by the caller before it was sent`);
    const observed = events.observed;
    // As sent (fetch percent-encodes a raw path), and without the key should a
    // caller have put it in a path or query: events and log lines show it.
    const url = observed || log.debugEnabled ? call.url : '';

    for (let attempt = 1; ; attempt++) {
      let failure: LunasError;
      let failedHeaders: Headers | undefined;
      let status: number | undefined;
      let requestId: string | undefined;
      let sent = attempt;
      const started = performance.now();
      try {
        if (observed) events.emit('request', { method, url, attempt, idempotencyKey }, log);
        // Aborted in the wait before this retry: the attempt ends unsent, with
        // its pair of events, so the call's last event says `willRetry: false`.
        if (attempt > 1 && signal?.aborted) {
          sent--;
          throw new APIUserAbortError(`${call.label} was aborted by the caller while waiting to retry`, {
            idempotencyKey,
          });
        }
        if (log.debugEnabled) log.write('debug', `${method} ${url} attempt ${attempt} of ${maxRetries + 1}`);
        const raw = await sendAttempt(call);
        status = raw.status;
        requestId = raw.headers.get('x-request-id') ?? undefined;
        if (status >= 200 && status < 300) {
          // An asynchronous schema shares the attempt's deadline, so a call's
          // documented bound holds whatever the schema does.
          const data = await decodeSuccess(raw, spec.schema, spec.page, (answer, late) =>
            withinAttempt(answer, call, started + timeout - performance.now(), late),
          );
          if (observed) {
            const durationMs = performance.now() - started;
            const event = { method, url, attempt, idempotencyKey, status, requestId, durationMs };
            events.emit('response', { ...event, error: undefined, willRetry: false }, log);
          }
          return { body: data, info: { status, headers: raw.headers, requestId, attempts: attempt, idempotencyKey } };
        }
        failure = decodeFailure(raw);
        failedHeaders = raw.headers;
      } catch (error) {
        // Whatever escaped (a plug-in's odd value, a bug of lunas), the call
        // still rejects with a LunasError and the attempt still ends with its event.
        failure =
          error instanceof LunasError
            ? error
            : new LunasError(`${call.label} failed: ${redact(describeThrown(error), config.secret)}`, {
                idempotencyKey,
              });
        // A response that arrived but was refused before it was decoded (a body
        // too large or broken off, a redirect a custom fetch followed): its
        // event shows its status, and a retry honours its Retry-After.
        if (failure instanceof ResponseBodyError || (failure instanceof APIError && status === undefined)) {
          ({ status, requestId, headers: failedHeaders } = failure);
        }
      }
      const willRetry = attempt <= maxRetries && isRetryable(failure);
      if (observed) {
        const durationMs = performance.now() - started;
        const event = { method, url, attempt, idempotencyKey, status, requestId, durationMs };
        events.emit('response', { ...event, error: failure, willRetry }, log);
      }
      if (!willRetry) throw withAttempts(failure, sent);
      const wait = retryDelay(attempt, failedHeaders);
      log.write('info', `${call.label} retrying in ${Math.round(wait)} ms after: ${failure.message}`);
      await waitToRetry(wait, signal);
    }
  }
}

/** The path with its query: built here, since ky's `searchParams` builds the Request twice. */
function withQuery(path: string, query: Record<string, number | string | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

// ---------------------------------------------------------------------------
// One call: what every attempt shares
// ---------------------------------------------------------------------------

/** What every attempt of one call shares, built once per call. */
class Call {
  readonly http: Ky;
  /** Relative to the base URL, with its query. */
  readonly target: string;
  readonly init: SendInit;
  /** Per attempt, over the headers and the body alike. */
  readonly timeout: number;
  /** The caller's signal: it ends the attempt, whichever stage it is at. */
  readonly signal: AbortSignal | undefined;
  readonly idempotencyKey: string | undefined;
  readonly apiKey: string;
  /** The API key's matcher: masks it in the body's text and the headers. */
  readonly secret: Secret;
  readonly #baseURL: string;
  #label: string | undefined;

  constructor(
    config: TransportConfig,
    http: Ky,
    parts: Pick<Call, 'target' | 'init' | 'timeout' | 'signal' | 'idempotencyKey'>,
  ) {
    this.http = http;
    this.target = parts.target;
    this.init = parts.init;
    this.timeout = parts.timeout;
    this.signal = parts.signal;
    this.idempotencyKey = parts.idempotencyKey;
    this.apiKey = config.apiKey;
    this.secret = config.secret;
    this.#baseURL = config.baseURL;
  }

  /**
   * `POST https://…/v1/transfers`, masked (a raw call may have put the key in
   * its path or query), with the full URL so a wrong baseURL shows: built
   * only when a message or a log line needs it.
   */
  get label(): string {
    return (this.#label ??= redact(`${this.init.method} ${this.#baseURL}/${this.target}`, this.secret));
  }

  /** The URL as sent (fetch percent-encodes a raw path), masked: for events and debug lines. */
  get url(): string {
    return redact(new URL(`${this.#baseURL}/${this.target}`).href, this.secret);
  }

  /** The error of a call the caller aborted while an attempt was under way. */
  callerAbort(): APIUserAbortError {
    return new APIUserAbortError(`${this.label} was aborted by the caller`, { idempotencyKey: this.idempotencyKey });
  }
}

// ---------------------------------------------------------------------------
// Headers
// ---------------------------------------------------------------------------

/**
 * The headers of every call of a client, built once: SDK defaults, the
 * client's, then auth. A plain record: ky copies whatever it is given into a
 * `Headers`, so building one first would cost a second copy.
 */
export function clientHeaders(
  apiKey: string,
  userAgent: string,
  defaults: Record<string, string>,
): Record<string, string> {
  return lowerCased({ accept: 'application/json', 'user-agent': userAgent }, defaults, {
    authorization: `Bearer ${apiKey}`,
  });
}

/**
 * One call's headers: the client's, copied only when the call adds to them.
 * Later sources win, whatever the case of the names: client, call, then auth.
 */
function callHeaders(
  base: Record<string, string>,
  extra: Record<string, string> | undefined,
  idempotencyKey: string | undefined,
  body: string | undefined,
): Record<string, string> {
  if (extra === undefined && idempotencyKey === undefined && body === undefined) return base;
  const headers = extra === undefined ? { ...base } : lowerCased(base, extra);
  // Neither can come from `extra` (checked), but they always win.
  headers.authorization = base.authorization!;
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

/** One record from several, names lower-cased so a later source replaces an earlier one in any case. */
function lowerCased(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const source of sources)
    if (source) for (const [name, value] of Object.entries(source)) merged[name.toLowerCase()] = value;
  return merged;
}

// ---------------------------------------------------------------------------
// One attempt
// ---------------------------------------------------------------------------

/**
 * The most bytes of one response body an attempt reads, counted after
 * decompression: 8 MiB, some 80 times a page of 100 items (about 100 KB).
 * Past it the read stops (the connection is closed) and the call rejects with
 * a {@link ResponseBodyError} whose `reason` is `'too-large'`.
 */
export const MAX_RESPONSE_BODY_BYTES = 8 * 1024 * 1024;

/**
 * A method a response may offer (node-fetch.ts's) that reads its body as
 * text: `(limit, signal) => Promise<string>`, rejecting with an error named
 * {@link TOO_LARGE} past `limit` bytes, and giving up when `signal` aborts.
 * Read before the body itself, so every path has one cap.
 */
const READ_BODY = Symbol.for('lunas.readBody');

/**
 * The method of lunas's own Node transport's responses (node-fetch.ts) that
 * tells whether any header value passes a test, without the sorted copy that
 * iterating a `Headers` makes.
 */
const ANY_HEADER_VALUE = Symbol.for('lunas.anyHeaderValue');

/** The `name` of the error a body read rejects with past the cap, whichever reader read it. */
const TOO_LARGE = 'LunasBodyTooLarge';

const ignore = () => undefined;

/**
 * One attempt's deadline, ended by its timer or the caller's signal. Lighter
 * than an `AbortController`, whose signal is an `EventTarget` (on Node 20,
 * several times the cost of the timer): lunas's own Node transport takes it
 * as it is. The standard `AbortSignal` is built only for a `fetch` that is not
 * lunas's own; {@link bound} ends a wait at the deadline whatever the awaited
 * work does.
 */
class Deadline implements AttemptDeadline {
  aborted = false;
  reason: unknown = undefined;
  ownTransport = false;
  #listeners: (() => void)[] | undefined;
  #controller: AbortController | undefined;

  addEventListener(_type: 'abort', listener: () => void): void {
    (this.#listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const listeners = this.#listeners;
    const index = listeners === undefined ? -1 : listeners.indexOf(listener);
    if (index !== -1) listeners!.splice(index, 1);
  }

  get standard(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  /**
   * `work`, or a rejection (with `undefined`) once the deadline passes.
   * Through a listener removed once `work` settles, not `Promise.race`
   * against a promise of the deadline, which stays pending after a call that
   * ends in time: V8's heap profiler showed the race's promises, and the
   * attempt their reactions hold, outliving young collections. On the bench's
   * sequential retrieves that was about a third of a megabyte more promoted
   * at each one (`--trace-gc-nvp`), and longer pauses.
   */
  bound<T>(work: Promise<T>): Promise<T> {
    if (this.aborted) {
      work.catch(ignore);
      return Promise.reject(undefined);
    }
    return new Promise<T>((resolve, reject) => {
      const late = () => reject(undefined);
      this.addEventListener('abort', late);
      work.then(
        (value) => {
          this.removeEventListener('abort', late);
          resolve(value);
        },
        (error: unknown) => {
          this.removeEventListener('abort', late);
          reject(error);
        },
      );
    });
  }

  /** Ends the attempt: every listener runs once, whatever the others do. */
  end(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException('This operation was aborted', 'AbortError');
    this.#controller?.abort(this.reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) {
      for (const listener of listeners) {
        try {
          listener();
        } catch {
          // A listener's failure (a custom body's cancel) must not keep the others from running.
        }
      }
    }
  }
}

/**
 * Sends one attempt and reads its body under one deadline ({@link Deadline}),
 * ended by one timer or by the caller's signal, which the transport honours
 * while waiting for the headers and while the body streams. Rejects with the
 * {@link LunasError} for a timeout, the caller's abort, a connection failure,
 * a redirect a custom fetch followed, or a body too large or unreadable, and
 * leaves nothing running whichever way it ends.
 */
async function sendAttempt(call: Call): Promise<RawResponse> {
  const { signal, timeout } = call;
  if (signal?.aborted) throw call.callerAbort();
  const deadline = new Deadline();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.end();
  }, timeout);
  const stopListening = signal ? onAbort(signal, () => deadline.end()) : undefined;
  // Set once the status and headers are in: from then on, a failure is the body's, not the connection's.
  let arrived: Arrived | undefined;
  try {
    // Bounded even on lunas's own transport: undici ends a request aborted
    // while it waits in the pool's queue only once a connection frees.
    const response = await deadline.bound(call.http.send(call.target, call.init, deadline));
    arrived = { status: response.status, headers: maskedHeaders(response, deadline.ownTransport, call) };
    const text = maskedText(await readBody(response, deadline), call);
    // A cancelled read ends like a finished one: only the flag tells them apart.
    if (timedOut) throw new Error('the body was cut off at the deadline');
    return new Answer(arrived.status, arrived.headers, text, call);
  } catch (error) {
    // Whatever ended the attempt, nothing of it keeps running.
    deadline.end();
    throw attemptError(call, error, timedOut, arrived);
  } finally {
    clearTimeout(timer);
    stopListening?.();
  }
}

/** An attempt's answer, as envelope.ts decodes it: the call's label is built only if a message needs it. */
class Answer implements RawResponse {
  readonly idempotencyKey: string | undefined;
  readonly secret: Secret;
  readonly #call: Call;

  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly text: string,
    call: Call,
  ) {
    this.idempotencyKey = call.idempotencyKey;
    this.secret = call.secret;
    this.#call = call;
  }

  get label(): string {
    return this.#call.label;
  }
}

/** The error an attempt ends with, from what ended it. */
function attemptError(call: Call, error: unknown, timedOut: boolean, arrived: Arrived | undefined): LunasError {
  const { label, idempotencyKey, secret } = call;
  if (call.signal?.aborted) return call.callerAbort();
  if (timedOut) return new APIConnectionTimeoutError(`${label} timed out after ${call.timeout} ms`, { idempotencyKey });
  const followed = asFollowedRedirect(error);
  if (followed) {
    const { status, url } = followed;
    const headers = withoutSecret(followed.headers, secret);
    const from = url === undefined ? undefined : redact(url, secret);
    return followedRedirectError({ label, status, headers, url: from, idempotencyKey });
  }
  if (arrived) return bodyError(call, arrived, error);
  // Rebuilt from safe parts, never attached as thrown: a custom fetch's error
  // may carry the Request, its Headers or an axios-style config.
  const cause = foreignError(error, secret);
  return new APIConnectionError(`${label} got no response: ${describeError(cause)}`, { cause, idempotencyKey });
}

/**
 * Whether `text` may hold the API key in some form: the key itself, or a `%`
 * or `\` that could start an encoded one. Text that cannot (most bodies and
 * headers) skips the masking, which would hand it back unchanged.
 */
function mayHoldKey(text: string, apiKey: string): boolean {
  return text.includes('%') || text.includes('\\') || text.includes(apiKey);
}

/** The body's text with any echo of the key masked. */
function maskedText(text: string, call: Call): string {
  return mayHoldKey(text, call.apiKey) ? redact(text, call.secret) : text;
}

/**
 * The response headers, with any echo of the key masked (a debugging proxy
 * may reflect Authorization). The headers of lunas's own transport are read
 * as they came, before their `Headers` would sort and copy them.
 */
function maskedHeaders(response: Response, ownTransport: boolean, call: Call): Headers {
  const { headers } = response;
  const suspectValue = (value: string) => mayHoldKey(value, call.apiKey);
  let suspect = false;
  if (ownTransport) {
    suspect = (response as unknown as Record<symbol, (test: (value: string) => boolean) => boolean>)[ANY_HEADER_VALUE]!(
      suspectValue,
    );
  } else {
    headers.forEach((value) => (suspect ||= suspectValue(value)));
  }
  return suspect ? withoutSecret(headers, call.secret) : headers;
}

/** What had arrived of a response before its body: its status and its headers, masked. */
interface Arrived {
  status: number;
  headers: Headers;
}

/** `error` when it is the redirect a custom fetch followed; never throws, whatever `error` is. */
function asFollowedRedirect(error: unknown): FollowedRedirect | undefined {
  // A thrown Proxy may trap reading its prototype.
  try {
    return error instanceof FollowedRedirect ? error : undefined;
  } catch {
    return undefined;
  }
}

function tooLarge(): Error {
  const error = new Error(`the body is larger than ${MAX_RESPONSE_BODY_BYTES} bytes`);
  error.name = TOO_LARGE;
  return error;
}

/** Whether `error` says the body passed the cap; never throws, whatever `error` is. */
function isTooLarge(error: unknown): boolean {
  try {
    return (error as { name?: unknown }).name === TOO_LARGE;
  } catch {
    return false;
  }
}

/** The error of a response that arrived but whose body was too large or could not be read. */
function bodyError(call: Call, arrived: Arrived, error: unknown): ResponseBodyError {
  const { label, idempotencyKey, secret } = call;
  const common = { ...arrived, limit: MAX_RESPONSE_BODY_BYTES, idempotencyKey };
  if (isTooLarge(error)) {
    const message = `${label} answered ${arrived.status} with a body over ${MAX_RESPONSE_BODY_BYTES / 1024 / 1024} MiB, the most lunas reads of one response; it stopped reading there`;
    return new ResponseBodyError({ ...common, message, reason: 'too-large' });
  }
  const cause = foreignError(error, secret);
  const message = `${label} answered ${arrived.status}, but its body could not be read: ${describeError(cause)}`;
  return new ResponseBodyError({ ...common, message, reason: 'unreadable', cause });
}

/**
 * The body as text, at most {@link MAX_RESPONSE_BODY_BYTES} of it, by the
 * deadline. lunas's own transport reads it with its own reader
 * ({@link READ_BODY}), which ends at the deadline by itself. Any other
 * response is read by the reader it offers, or chunk by chunk through a
 * reader whose `cancel` runs at the deadline (cancelling ends a pending read
 * and closes the connection, which `text()`, locking the body, does not
 * allow), or whole by `text()`; the wait ends at the deadline whatever the
 * body does. Rejects with an error named {@link TOO_LARGE} past the cap.
 */
async function readBody(response: Response, deadline: Deadline): Promise<string> {
  const own = (response as unknown as Record<symbol, unknown>)[READ_BODY];
  if (typeof own === 'function') {
    const text: unknown = await (deadline.ownTransport
      ? own.call(response, MAX_RESPONSE_BODY_BYTES, deadline)
      : deadline.bound(own.call(response, MAX_RESPONSE_BODY_BYTES, deadline.standard)));
    if (typeof text !== 'string') throw new TypeError('the body reader answered with something other than text');
    return text;
  }
  const body: unknown = response.body;
  // Cancelling ends a pending read and closes the connection; it never throws.
  const cancelling = (cancel: () => unknown) => {
    const quiet = () =>
      void Promise.resolve()
        .then(cancel)
        .catch(() => undefined);
    deadline.addEventListener('abort', quiet);
    return quiet;
  };
  if (typeof (body as ReadableStream | null)?.getReader === 'function') {
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    return deadline.bound(
      readChunks(
        () => reader.read(),
        cancelling(() => reader.cancel()),
      ),
    );
  }
  // A custom fetch's body that is a Node.js stream (node-fetch's): return() destroys it.
  if (typeof (body as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function') {
    const chunks = (body as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    return deadline.bound(
      readChunks(
        () => chunks.next(),
        cancelling(() => chunks.return?.()),
      ),
    );
  }
  // Nothing to read chunk by chunk: the response's own text(), measured once whole.
  const text = await deadline.bound(response.text());
  if (text.length > MAX_RESPONSE_BODY_BYTES || new TextEncoder().encode(text).byteLength > MAX_RESPONSE_BODY_BYTES) {
    throw tooLarge();
  }
  return text;
}

/** The chunks `next` gives, decoded as UTF-8, until the end or past the cap, where `cancel` ends the read. */
async function readChunks(next: () => Promise<IteratorResult<unknown>>, cancel: () => void): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await next();
    if (done) return text + decoder.decode();
    // Text, from a Node.js stream given an encoding: counted as the UTF-8 it came as.
    const chunk = typeof value === 'string' ? new TextEncoder().encode(value) : value;
    if (!ArrayBuffer.isView(chunk)) throw new TypeError('a body chunk of neither bytes nor text');
    bytes += chunk.byteLength;
    if (bytes > MAX_RESPONSE_BODY_BYTES) {
      cancel();
      throw tooLarge();
    }
    text += decoder.decode(chunk, { stream: true });
  }
}

/**
 * `answer` (an asynchronous schema's), or a rejection with `late()` once `ms`
 * have passed, or with the caller's abort: a schema that never answers cannot
 * hold a call past its attempt's deadline.
 */
function withinAttempt(answer: PromiseLike<unknown>, call: Call, ms: number, late: () => LunasError): Promise<unknown> {
  const { signal } = call;
  if (signal?.aborted) return Promise.reject(call.callerAbort());
  return new Promise((resolve, reject) => {
    // Whichever comes first, nothing of the others stays behind.
    const settle = (act: () => void) => {
      clearTimeout(timer);
      stopListening?.();
      act();
    };
    const stopListening = signal ? onAbort(signal, () => settle(() => reject(call.callerAbort()))) : undefined;
    const timer = setTimeout(() => settle(() => reject(late())), Math.max(ms, 0));
    // Not Promise.resolve: it reads a promise's `constructor`, which may throw.
    new Promise((settled) => settled(answer)).then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

// ---------------------------------------------------------------------------
// The caller's signal: one listener however many calls wait on it
// ---------------------------------------------------------------------------

/**
 * Merchants share one `AbortSignal` across many parallel calls (a request's
 * or a shutdown's). A listener per attempt and per retry wait would pass
 * Node's limit of 10 listeners and print `MaxListenersExceededWarning`, a
 * false memory-leak alarm. Here the calls in flight on a signal share a single
 * listener, added with the first and removed with the last, so nothing stays
 * on the signal once they end.
 *
 * `AbortSignal.any` would also avoid the warning, but measured on Node 20 it
 * costs about 30 µs per call against under 2 µs here, and the combined signals
 * it creates pile up on a long-lived source signal.
 */
interface Waiters {
  readonly callbacks: Set<() => void>;
  readonly listener: () => void;
}

const waitersBySignal = new WeakMap<AbortSignal, Waiters>();

/**
 * Calls `callback` once when `signal` aborts, unless the returned function is
 * called first. The caller checks `signal.aborted` beforehand: a signal that
 * has already aborted fires no event.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let waiters = waitersBySignal.get(signal);
  if (waiters === undefined) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      waitersBySignal.delete(signal);
      // A copy: a callback may end its call, and with it another registration.
      for (const waiting of [...callbacks]) waiting();
    };
    waiters = { callbacks, listener };
    waitersBySignal.set(signal, waiters);
    signal.addEventListener('abort', listener, { once: true });
  }
  const { callbacks, listener } = waiters;
  callbacks.add(callback);
  return () => {
    if (!callbacks.delete(callback) || callbacks.size > 0) return;
    signal.removeEventListener('abort', listener);
    if (waitersBySignal.get(signal)?.listener === listener) waitersBySignal.delete(signal);
  };
}

// ---------------------------------------------------------------------------
// The retry policy
// ---------------------------------------------------------------------------

/** The longest server-requested wait the SDK honours; longer requests fall back to backoff. */
export const MAX_RETRY_AFTER_MS = 60_000;
const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/**
 * Connection failures, timeouts, a body that broke off, 408, 409, 429 and
 * 5xx. Everything else is final: a redirect (3xx), and a body past the cap,
 * which a retry would only read again.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true; // includes timeouts
  if (error instanceof ResponseBodyError) return error.reason === 'unreadable';
  if (error instanceof APIError) {
    const { status } = error;
    return status === 408 || status === 409 || status === 429 || status >= 500;
  }
  return false;
}

/**
 * The wait the service asked for, in ms: `retry-after-ms`, else `Retry-After`
 * as seconds or an HTTP date. Undefined when absent, unreadable or above 60 s.
 */
export function serverRequestedDelay(headers: Headers, now: number = Date.now()): number | undefined {
  const inMs = headers.get('retry-after-ms');
  const fromMs = inMs === null ? undefined : parseNonNegative(inMs);
  const retryAfter = headers.get('retry-after');
  const delay = fromMs ?? (retryAfter === null ? undefined : parseRetryAfter(retryAfter, now));
  return delay !== undefined && delay <= MAX_RETRY_AFTER_MS ? delay : undefined;
}

// IMF-fixdate, RFC 850 and asctime: the three forms of an HTTP date (RFC 9110).
// Date.parse alone would also read values such as "-1" or "3,5" as dates.
const HTTP_DATE =
  /^(?:[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

function parseRetryAfter(value: string, now: number): number | undefined {
  const seconds = parseNonNegative(value);
  if (seconds !== undefined) return seconds * 1000;
  const trimmed = value.trim();
  const date = HTTP_DATE.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function parseNonNegative(value: string): number | undefined {
  const trimmed = value.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

/**
 * Exponential backoff for retry number `retry` (1 for the first retry): 0.5 s
 * doubling to at most 8 s, less up to 25% jitter so clients that failed
 * together do not retry together.
 */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_BACKOFF_MS * 2 ** Math.max(0, retry - 1), MAX_BACKOFF_MS);
  return base * (1 - 0.25 * random());
}

/** The wait before retry number `retry`, given the failed attempt's response headers. */
export function retryDelay(retry: number, headers: Headers | undefined): number {
  return (headers && serverRequestedDelay(headers)) ?? backoffDelay(retry);
}

/** Resolves after `ms`, or as soon as `signal` aborts: the next attempt then ends unsent. */
function waitToRetry(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const stopListening = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          resolve();
        })
      : undefined;
    const timer = setTimeout(() => {
      stopListening?.();
      resolve();
    }, ms);
  });
}

/** Adds the attempt count to a final error, and the safe way to retry a POST. */
function withAttempts(error: LunasError, attempts: number): LunasError {
  if (attempts > 1) error.message += ` (after ${attempts} attempts)`;
  if (error.idempotencyKey !== undefined && isRetryable(error)) {
    error.message += `; retry with idempotencyKey "${error.idempotencyKey}" to avoid a duplicate`;
  }
  return error;
}
