/**
 * One attempt: sent, then read to the end of the body, under one timeout and
 * the caller's signal. ky's own timeout covers the wait for the headers (its
 * abort signal is already on the Request, so this costs no signal of ours);
 * the rest of the attempt's time covers the body, whose read is cancelled at
 * the deadline, which closes the connection. Only a caller's signal needs a
 * signal of the attempt's own beside the Request.
 */
import { onAbort } from './abort-relay.js';
import type { RawResponse } from './envelope.js';
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError, type LunasError } from './errors.js';
import type { KyHttp, SendInit } from './ky-http.js';
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
 * for a timeout, the caller's abort or a connection failure, and leaves
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
  try {
    const response = await Promise.race([spec.http.send(spec.target, spec.init, controller?.signal), halted]);
    bodyTimer = setTimeout(
      () => {
        timedOut = true;
        stop();
      },
      Math.max(timeout - (performance.now() - started), 0),
    );
    const read = readText(response, (cancel) => (cancelRead = cancel));
    const text = redact(await Promise.race([read, halted]), secret);
    // A cancelled read ends like a finished one: only the flag tells them apart.
    if (timedOut) throw new Error('the body was cut off at the deadline');
    return {
      status: response.status,
      headers: withoutSecret(response.headers, secret),
      text,
      label,
      idempotencyKey,
      secret,
    };
  } catch (error) {
    // Whatever ended the attempt, nothing of it keeps running.
    stop();
    if (signal?.aborted) throw callerAbort(spec);
    if (timedOut || spec.http.isTimeout(error)) {
      throw new APIConnectionTimeoutError(`${label} timed out after ${timeout} ms`, { idempotencyKey });
    }
    // Rebuilt from safe parts, never attached as thrown: a custom fetch's error
    // may carry the Request, its Headers or an axios-style config.
    const cause = foreignError(error, secret);
    throw new APIConnectionError(`${label} got no response: ${describeError(cause)}`, { cause, idempotencyKey });
  } finally {
    clearTimeout(bodyTimer);
    stopListening?.();
  }
}

/**
 * The body as text, as `Response#text` reads it, but through a reader whose
 * `cancel` is handed out: cancelling ends a pending read and closes the
 * connection, which `text()` (locking the body) does not allow.
 */
async function readText(response: Response, setCancel: (cancel: () => void) => void): Promise<string> {
  const body: unknown = response.body;
  // A custom fetch's body that is not a web stream (node-fetch's): its own text().
  if (typeof (body as ReadableStream | null)?.getReader !== 'function') return response.text();
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  setCancel(() => void reader.cancel().catch(() => undefined));
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
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
