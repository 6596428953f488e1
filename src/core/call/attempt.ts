/**
 * One attempt: sent through ky (wire/send.ts), then read to the end of its
 * body (at most {@link MAX_RESPONSE_BODY_BYTES}) under one deadline, ended by
 * one timer or by the caller's signal, and turned into an answer for the
 * envelope or into the {@link LunasError} that says what ended it. Also what
 * every attempt of one call shares ({@link Call}), the bound an asynchronous
 * schema's answer is held to, and the caller's signal fanned in
 * ({@link onAbort}), which the waits for a turn and for a retry share too.
 */
import type { RawResponse } from '../wire/envelope.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  type LunasError,
  ResponseBodyError,
} from '../report/errors.js';
import type { Ky, SendInit } from '../wire/send.js';
import { asFollowedRedirect, followedRedirectError } from '../wire/envelope.js';
import { describeError, foreignError, redact, type Secret, withoutSecret } from '../report/secrets.js';
import { type AttemptContext, sendThrough } from '../report/tracing.js';

const ignore = () => undefined;

/**
 * The most bytes of one response body an attempt reads, counted after
 * decompression: 8 MiB, some 80 times a page of 100 items (about 100 KB).
 * Past it the read stops (the connection is closed) and the call rejects with
 * a `ResponseBodyError` whose `reason` is `'too-large'`. The one place the cap
 * is held, whatever `fetch` sent the attempt: {@link readBody}.
 */
export const MAX_RESPONSE_BODY_BYTES = 8 * 1024 * 1024;

/** What a body read rejects with past the cap. */
class BodyTooLarge extends Error {}

/** What every attempt of one call shares, built once per call. */
export class Call {
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
  #url: string | undefined;

  constructor(
    config: { apiKey: string; secret: Secret; baseURL: string },
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

  /** The URL as sent (fetch percent-encodes a raw path), masked: for events, debug lines and tracing. */
  get url(): string {
    return (this.#url ??= maskedURL(this.#baseURL, this.target, this.secret));
  }

  /** The error of a call the caller aborted while an attempt was under way. */
  callerAbort(): APIUserAbortError {
    return new APIUserAbortError(`${this.label} was aborted by the caller`, { idempotencyKey: this.idempotencyKey });
  }
}

/** The full URL of `target` (a path with its query, relative to `baseURL`) as sent, with the key masked. */
export function maskedURL(baseURL: string, target: string, secret: Secret): string {
  return redact(new URL(`${baseURL}/${target}`).href, secret);
}

/**
 * One attempt's deadline, ended by its timer or the caller's signal. Its
 * `signal` is what the transport sends with; lunas's own waits (the headers,
 * the body's read, an asynchronous schema) listen on the deadline itself, in
 * a plain list, which costs less per attempt than listeners on an
 * `EventTarget`. {@link bound} ends a wait at the deadline whatever the
 * awaited work does.
 */
class Deadline {
  aborted = false;
  reason: unknown = undefined;
  #listeners: (() => void)[] | undefined;
  readonly #controller = new AbortController();

  addEventListener(_type: 'abort', listener: () => void): void {
    (this.#listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const listeners = this.#listeners;
    const index = listeners === undefined ? -1 : listeners.indexOf(listener);
    if (index !== -1) listeners!.splice(index, 1);
  }

  /** The standard signal of the deadline, which every transport is sent with. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * `work`, or a rejection (with `undefined`) once the deadline passes.
   * Through a listener removed once `work` settles, not `Promise.race`
   * against a promise of the deadline, which stays pending after a call that
   * ends in time, and with it the attempt its reactions hold (see
   * docs/performance.md).
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
    this.#controller.abort(this.reason);
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
 * Sends one attempt (`init`: the call's, or with headers a tracing
 * subscriber added) and reads its body under one deadline ({@link Deadline}),
 * ended by one timer or by the caller's signal, which the transport honours
 * while waiting for the headers and while the body streams. The caller holds
 * a turn in the queue (retry-loop.ts) already, so the deadline starts here,
 * after the wait for it. Rejects with the {@link LunasError} for a timeout,
 * the caller's abort, a connection failure, a redirect a custom fetch
 * followed, or a body too large or unreadable, and leaves nothing running
 * whichever way it ends.
 */
export async function sendAttempt(call: Call, init: SendInit, traced?: AttemptContext): Promise<RawResponse> {
  const { signal, timeout } = call;
  // A signal that has aborted already (a listener of the request event may
  // abort it) fires no event for the deadline to hear.
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
    // Bounded whatever the transport does with the signal: a merchant's
    // dispatcher may hold a queued request past its abort. Started inside a
    // `lunas:attempt` subscriber's runner when one is set.
    const send = () => call.http.send(call.target, init, deadline.signal);
    const response = await deadline.bound(sendThrough(traced, send));
    arrived = { status: response.status, headers: maskedHeaders(response, call) };
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

/** An attempt's answer, as wire/envelope.ts decodes it: the call's label is built only if a message needs it. */
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
 * or `\` that could start an encoded one. Text that cannot (most bodies,
 * headers and ids) skips the masking's matcher (secrets.ts), which would find
 * nothing: the check a warm call pays, here and before sending (request.ts).
 */
export function mayHoldKey(text: string, apiKey: string): boolean {
  return text.includes('%') || text.includes('\\') || text.includes(apiKey);
}

/** The body's text with any echo of the key masked. */
function maskedText(text: string, call: Call): string {
  return mayHoldKey(text, call.apiKey) ? redact(text, call.secret) : text;
}

/**
 * The response headers, with any echo of the key masked (a debugging proxy
 * may reflect Authorization).
 */
function maskedHeaders(response: Response, call: Call): Headers {
  const { headers } = response;
  let suspect = false;
  headers.forEach((value) => (suspect ||= mayHoldKey(value, call.apiKey)));
  return suspect ? withoutSecret(headers, call.secret) : headers;
}

/** What had arrived of a response before its body: its status and its headers, masked. */
interface Arrived {
  status: number;
  headers: Headers;
}

/** The error of a response that arrived but whose body was too large or could not be read. */
function bodyError(call: Call, arrived: Arrived, error: unknown): ResponseBodyError {
  const { label, idempotencyKey, secret } = call;
  const common = { ...arrived, limit: MAX_RESPONSE_BODY_BYTES, idempotencyKey };
  if (error instanceof BodyTooLarge) {
    const message = `${label} answered ${arrived.status} with a body over ${MAX_RESPONSE_BODY_BYTES / 1024 / 1024} MiB, the most lunas reads of one response; it stopped reading there`;
    return new ResponseBodyError({ ...common, message, reason: 'too-large' });
  }
  const cause = foreignError(error, secret);
  const message = `${label} answered ${arrived.status}, but its body could not be read: ${describeError(cause)}`;
  return new ResponseBodyError({ ...common, message, reason: 'unreadable', cause });
}

/**
 * The body as text, at most {@link MAX_RESPONSE_BODY_BYTES} of it, by the
 * deadline: read chunk by chunk through a reader whose `cancel` runs at the
 * deadline (cancelling ends a pending read and closes the connection, which
 * `text()`, locking the body, does not allow), or whole by `text()` when the
 * body offers no reader; the wait ends at the deadline whatever the body
 * does. Rejects with {@link BodyTooLarge} past the cap.
 */
async function readBody(response: Response, deadline: Deadline): Promise<string> {
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
    throw new BodyTooLarge();
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
      throw new BodyTooLarge();
    }
    text += decoder.decode(chunk, { stream: true });
  }
}

/**
 * `answer` (an asynchronous schema's), or a rejection with `late()` once `ms`
 * have passed, or with the caller's abort: a schema that never answers cannot
 * hold a call past its attempt's deadline.
 */
export function withinAttempt(
  answer: PromiseLike<unknown>,
  call: Call,
  ms: number,
  late: () => LunasError,
): Promise<unknown> {
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

/*
 * The caller's signal, fanned in: one listener on an `AbortSignal` however
 * many calls of lunas, and their waits between attempts, wait on it.
 *
 * Merchants share one `AbortSignal` across many parallel calls (a request's
 * or a shutdown's). A listener per attempt and per retry wait would pass
 * Node's limit of 10 listeners and print `MaxListenersExceededWarning`, a
 * false memory-leak alarm. Here the calls in flight on a signal share a single
 * listener, added with the first and removed with the last, so nothing stays
 * on the signal once they end. `AbortSignal.any` would also avoid the
 * warning, but costs far more per call (docs/performance.md), and the
 * combined signals it creates pile up on a long-lived source signal.
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
