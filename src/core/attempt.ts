/**
 * One attempt: sent, then read to the end of the body (at most
 * MAX_RESPONSE_BODY_BYTES of it, chunk by chunk, so a huge or endless body
 * costs no more memory than that), under one timeout and the caller's signal.
 * ky's own timeout covers the wait for the headers (its abort signal is
 * already on the Request, so this costs no signal of ours); the rest of the
 * attempt's time covers the body, whose read is cancelled at the deadline,
 * which closes the connection. Only a caller's signal needs a signal of the
 * attempt's own beside the Request.
 */
import { onAbort } from './abort-relay.js';
import { followedRedirectError, type RawResponse } from './envelope.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  type LunasError,
  ResponseBodyError,
} from './errors.js';
import { FollowedRedirect, type KyHttp, type SendInit } from './ky-http.js';
import { describeError, foreignError, redact, type Secret, withoutSecret } from './secrets.js';

/** What every attempt of one call shares, built once per call. */
export interface AttemptSpec {
  http: KyHttp;
  /** Relative to the base URL, with its query. */
  target: string;
  init: SendInit;
  /** The caller's signal: it ends the attempt, whichever stage it is at. */
  signal: AbortSignal | undefined;
  /** `POST https://…/v1/transfers`, masked, for messages. */
  label: string;
  idempotencyKey: string | undefined;
  /** The API key's matcher: masks it in the body's text and the headers. */
  secret: Secret;
}

/** The error of a call the caller aborted while an attempt was under way. */
function callerAbort(spec: AttemptSpec): APIUserAbortError {
  return new APIUserAbortError(`${spec.label} was aborted by the caller`, { idempotencyKey: spec.idempotencyKey });
}

/**
 * Sends one attempt and reads its body; rejects with the {@link LunasError}
 * for a timeout, the caller's abort, a connection failure, a redirect a
 * custom fetch followed, or a body too large or unreadable, and leaves
 * nothing running whichever way it ends.
 */
export async function runAttempt(spec: AttemptSpec): Promise<RawResponse> {
  const { signal, label, idempotencyKey, secret } = spec;
  const { timeout } = spec.init;
  if (signal?.aborted) throw callerAbort(spec);
  const started = performance.now();
  const controller = signal ? new AbortController() : undefined;
  // Ends the attempt at the deadline or the caller's abort even when a custom
  // fetch ignores the signal, or hands back a body that never ends.
  let timedOut = false;
  let cancelRead: (() => void) | undefined;
  let halt!: (reason: unknown) => void;
  const halted = new Promise<never>((_resolve, reject) => (halt = reject));
  halted.catch(() => undefined);
  const stop = () => {
    controller?.abort();
    cancelRead?.();
    halt(undefined);
  };
  const stopListening = signal ? onAbort(signal, stop) : undefined;
  let bodyTimer: ReturnType<typeof setTimeout> | undefined;
  // Set once the status and headers are in: from then on, a failure is the body's, not the connection's.
  let arrived: Arrived | undefined;
  try {
    const response = await Promise.race([spec.http.send(spec.target, spec.init, controller?.signal), halted]);
    arrived = { status: response.status, headers: withoutSecret(response.headers, secret) };
    bodyTimer = setTimeout(
      () => {
        timedOut = true;
        stop();
      },
      Math.max(timeout - (performance.now() - started), 0),
    );
    const read = readBody(response, (cancel) => (cancelRead = cancel));
    const text = redact(await Promise.race([read, halted]), secret);
    // A cancelled read ends like a finished one: only the flag tells them apart.
    if (timedOut) throw new Error('the body was cut off at the deadline');
    return { ...arrived, text, label, idempotencyKey, secret };
  } catch (error) {
    // Whatever ended the attempt, nothing of it keeps running.
    stop();
    if (signal?.aborted) throw callerAbort(spec);
    if (timedOut || spec.http.isTimeout(error)) {
      throw new APIConnectionTimeoutError(`${label} timed out after ${timeout} ms`, { idempotencyKey });
    }
    const followed = asFollowedRedirect(error);
    if (followed) {
      const { status, url } = followed;
      const headers = withoutSecret(followed.headers, secret);
      const from = url === undefined ? undefined : redact(url, secret);
      throw followedRedirectError({ label, status, headers, url: from, idempotencyKey });
    }
    if (arrived) throw bodyError(spec, arrived, error);
    // Rebuilt from safe parts, never attached as thrown: a custom fetch's error
    // may carry the Request, its Headers or an axios-style config.
    const cause = foreignError(error, secret);
    throw new APIConnectionError(`${label} got no response: ${describeError(cause)}`, { cause, idempotencyKey });
  } finally {
    clearTimeout(bodyTimer);
    stopListening?.();
  }
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

/**
 * The most bytes of one response body an attempt reads, counted after
 * decompression: 8 MiB, some 80 times a page of 100 items (about 100 KB).
 * Past it the read stops (the connection is closed) and the call rejects with
 * a {@link ResponseBodyError} whose `reason` is `'too-large'`.
 */
export const MAX_RESPONSE_BODY_BYTES = 8 * 1024 * 1024;

/**
 * A method a response may offer (a Node-only fetch of lunas' own) that reads
 * its body as text: `(limit, signal) => Promise<string>`, rejecting with an
 * error named {@link TOO_LARGE} past `limit` bytes, and giving up when
 * `signal` aborts. Read before the body itself, so every path has one cap.
 */
const READ_BODY = Symbol.for('lunas.readBody');

/** The `name` of the error a body read rejects with past the cap, whichever reader read it. */
const TOO_LARGE = 'LunasBodyTooLarge';

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
function bodyError(spec: AttemptSpec, arrived: Arrived, error: unknown): ResponseBodyError {
  const { label, idempotencyKey, secret } = spec;
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
 * The body as text, at most {@link MAX_RESPONSE_BODY_BYTES} of it, through a
 * reader whose `cancel` is handed out: cancelling ends a pending read and
 * closes the connection, which `text()` (locking the body) does not allow.
 * Rejects with an error named {@link TOO_LARGE} past the cap.
 */
async function readBody(response: Response, setCancel: (cancel: () => void) => void): Promise<string> {
  const own = (response as unknown as Record<symbol, unknown>)[READ_BODY];
  if (typeof own === 'function') {
    const stopped = new AbortController();
    setCancel(() => stopped.abort());
    const text: unknown = await own.call(response, MAX_RESPONSE_BODY_BYTES, stopped.signal);
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
    setCancel(quiet);
    return quiet;
  };
  if (typeof (body as ReadableStream | null)?.getReader === 'function') {
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    return readChunks(
      () => reader.read(),
      cancelling(() => reader.cancel()),
    );
  }
  // A custom fetch's body that is a Node.js stream (node-fetch's): return() destroys it.
  if (typeof (body as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function') {
    const chunks = (body as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    return readChunks(
      () => chunks.next(),
      cancelling(() => chunks.return?.()),
    );
  }
  // Nothing to read chunk by chunk: the response's own text(), measured once whole.
  const text = await response.text();
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
 * hold a call past its attempt's timeout.
 */
export function withinAttempt(
  answer: PromiseLike<unknown>,
  spec: AttemptSpec,
  ms: number,
  late: () => LunasError,
): Promise<unknown> {
  const { signal } = spec;
  if (signal?.aborted) return Promise.reject(callerAbort(spec));
  return new Promise((resolve, reject) => {
    // Whichever comes first, nothing of the others stays behind.
    const settle = (act: () => void) => {
      clearTimeout(timer);
      stopListening?.();
      act();
    };
    const stopListening = signal ? onAbort(signal, () => settle(() => reject(callerAbort(spec)))) : undefined;
    const timer = setTimeout(() => settle(() => reject(late())), Math.max(ms, 0));
    // Not Promise.resolve: it reads a promise's `constructor`, which may throw.
    new Promise((settled) => settled(answer)).then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
