/**
 * The one module that talks HTTP (and the only one that imports ky). One call
 * here is one logical operation: one Idempotency-Key, up to `maxRetries + 1`
 * attempts, each with its own timeout, all cancelled by the caller's signal.
 *
 * ky sends each attempt (base URL joining, query, JSON body, headers); the
 * retry loop is ours because the contract's policy (409 retried, any 5xx,
 * `retry-after-ms`, waits over 60 s replaced by backoff, a timeout that also
 * covers reading the body) does not fit ky's retry options.
 */
import type { KyInstance, Options } from 'ky';
import { onAbort } from './abort-relay.js';
import { decodeFailure, decodeSuccess, type RawResponse } from './envelope.js';
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError, LunasError } from './errors.js';
import type { Events } from './events.js';
import { describeThrown } from './describe-value.js';
import type { Log } from './log.js';
import type { PageEnvelope } from './pagination.js';
import type { RequestOptions } from './request-options.js';
import { isRetryable, retryDelay } from './retry.js';
import { describeError, foreignError, redact, type Secret, withoutSecret } from './secrets.js';
import type { StandardSchema } from './standard-schema.js';

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
export interface RequestSpec<T> {
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
export interface ListRequestSpec<T> extends RequestSpec<T[]> {
  method: 'GET';
  /** The page requested: an answer for another page is refused. */
  page: number;
}

/** What lunas knows about the HTTP exchange behind a result: see {@link getResponseInfo}. */
export interface ResponseInfo {
  /** HTTP status of the final attempt. */
  readonly status: number;
  /** Response headers of the final attempt. */
  readonly headers: Headers;
  /** The `x-request-id` header, when the service sent one. */
  readonly requestId: string | undefined;
  /** Number of attempts made, 1 when there was no retry. */
  readonly attempts: number;
  /** The Idempotency-Key sent, for POST calls. */
  readonly idempotencyKey: string | undefined;
}

/** The parsed envelope and the exchange that produced it. */
export interface Result<T> {
  body: T;
  info: ResponseInfo;
}

export class Transport {
  readonly #config: TransportConfig;
  #ky: KyInstance | undefined;
  /** The headers of every call, built once. */
  readonly #baseHeaders: Record<string, string>;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#baseHeaders = lowerCased(
      { accept: 'application/json', 'user-agent': config.userAgent },
      config.defaultHeaders,
      { authorization: `Bearer ${config.apiKey}` },
    );
  }

  /**
   * ky is loaded with the first request, not with `import 'lunas-sdk'`: a process
   * that starts, builds a client and may never call pays nothing for it.
   */
  async #http(): Promise<KyInstance> {
    if (this.#ky) return this.#ky;
    const { default: ky } = await loadKy();
    const custom = this.#config.fetch;
    this.#ky ??= ky.create({
      prefixUrl: this.#config.baseURL,
      retry: 0,
      timeout: false, // Set per attempt.
      throwHttpErrors: false,
      // A caller's abort reaches fetch as the attempt's own signal beside the
      // Request (ky passes options it does not know to fetch): given to ky, it
      // would be merged with ky's own with `AbortSignal.any`, a cost on every
      // call. Without one, `init.signal` is the Request's own, which ky's
      // timeout aborts, so a custom fetch that reads `init.signal` sees it.
      // The global fetch is looked up per call, so a test's mock is seen.
      fetch: (request, init) => {
        const send = custom ?? globalThis.fetch;
        const { attemptSignal, ...rest } = init as AttemptInit;
        return send(request, { ...rest, signal: attemptSignal ?? (request as Request).signal });
      },
    });
    return this.#ky;
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
    const { log, events } = this.#config;
    const maxRetries = options.maxRetries ?? this.#config.maxRetries;
    const timeout = options.timeout ?? this.#config.timeout;
    const idempotencyKey = spec.method === 'POST' ? (options.idempotencyKey ?? crypto.randomUUID()) : undefined;
    const headers = this.#headers(options.headers, idempotencyKey, spec.body !== undefined);
    const target = spec.query ? withQuery(spec.path, spec.query) : spec.path;
    // The full URL, so a wrong baseURL shows in every message and log line;
    // masked, should a raw call have put the key in its path or query.
    const label = redact(`${spec.method} ${this.#config.baseURL}/${target}`, this.#config.secret);
    // Loaded before the first attempt's timer starts: loading code is not waiting on the network.
    const http = this.#ky ?? (await this.#http());
    // Aborted before anything is sent: no attempt, so no events either, and
    // no key on the error, since no request carried one.
    if (options.signal?.aborted) throw new APIUserAbortError(`${label} was aborted by the caller before it was sent`);
    const observed = events.has('request') || events.has('response');
    // As sent (fetch percent-encodes a raw path), and without the key should a
    // caller have put it in a path or query: events and log lines show it.
    const url =
      observed || log.enabled('debug')
        ? redact(new URL(`${this.#config.baseURL}/${target}`).href, this.#config.secret)
        : '';

    for (let attempt = 1; ; attempt++) {
      let failure: LunasError;
      let failedHeaders: Headers | undefined;
      let status: number | undefined;
      let requestId: string | undefined;
      let sent = attempt;
      const started = performance.now();
      const ended = (error: LunasError | undefined, willRetry: boolean) => {
        if (observed) {
          const durationMs = performance.now() - started;
          const event = { method: spec.method, url, attempt, idempotencyKey };
          events.emit('response', { ...event, status, requestId, durationMs, error, willRetry }, log);
        }
      };
      try {
        if (observed) events.emit('request', { method: spec.method, url, attempt, idempotencyKey }, log);
        // Aborted in the wait before this retry: the attempt ends unsent, with
        // its pair of events, so the call's last event says `willRetry: false`.
        if (attempt > 1 && options.signal?.aborted) {
          sent--;
          throw new APIUserAbortError(`${label} was aborted by the caller while waiting to retry`, { idempotencyKey });
        }
        if (log.enabled('debug')) log.write('debug', `${spec.method} ${url} attempt ${attempt} of ${maxRetries + 1}`);
        const raw = await this.#attempt(
          http,
          spec.method,
          target,
          spec.body,
          headers,
          timeout,
          options.signal,
          label,
          idempotencyKey,
        );
        status = raw.status;
        requestId = raw.headers.get('x-request-id') ?? undefined;
        const info: ResponseInfo = { status, headers: raw.headers, requestId, attempts: attempt, idempotencyKey };
        if (status >= 200 && status < 300) {
          // An asynchronous schema shares the attempt's timeout, so a call's
          // documented bound holds whatever the schema does.
          const body = await decodeSuccess(raw, spec.schema, spec.page, (answer, late) =>
            bounded(answer, started + timeout - performance.now(), options.signal, late, () => {
              return new APIUserAbortError(`${label} was aborted by the caller`, { idempotencyKey });
            }),
          );
          ended(undefined, false);
          return { body, info };
        }
        failure = decodeFailure(raw);
        failedHeaders = raw.headers;
      } catch (error) {
        // Whatever escaped (a plug-in's odd value, a bug of lunas), the call
        // still rejects with a LunasError and the attempt still ends with its event.
        failure =
          error instanceof LunasError
            ? error
            : new LunasError(`${label} failed: ${redact(describeThrown(error), this.#config.secret)}`, {
                idempotencyKey,
              });
      }
      const willRetry = attempt <= maxRetries && isRetryable(failure);
      ended(failure, willRetry);
      if (!willRetry) throw withAttempts(failure, sent);
      const wait = retryDelay(attempt, failedHeaders);
      log.write('info', `${label} retrying in ${Math.round(wait)} ms after: ${failure.message}`);
      await sleep(wait, options.signal);
    }
  }

  /**
   * Later sources win, whatever the case of the names: SDK defaults, client,
   * call, then auth. A plain record, not `Headers`: ky copies it into one anyway.
   */
  #headers(
    extra: Record<string, string> | undefined,
    idempotencyKey: string | undefined,
    json: boolean,
  ): Record<string, string> {
    const base = this.#baseHeaders;
    if (extra === undefined && idempotencyKey === undefined && !json) return base;
    const headers = lowerCased(base, extra);
    // Neither can come from `extra` (checked), but they always win.
    headers.authorization = base.authorization!;
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    if (json) headers['content-type'] = 'application/json';
    return headers;
  }

  /**
   * One attempt, read to the end of the body under one timeout. ky's own
   * timeout covers the wait for the headers (its abort signal is already on
   * the Request, so this costs no signal of ours); the rest of the attempt's
   * time covers the body, whose read is cancelled at the deadline, which
   * closes the connection. Only a caller's signal needs a signal of the
   * attempt's own beside the Request.
   */
  async #attempt(
    http: KyInstance,
    method: 'GET' | 'POST',
    target: string,
    body: string | undefined,
    headers: Record<string, string>,
    timeout: number,
    signal: AbortSignal | undefined,
    label: string,
    idempotencyKey: string | undefined,
  ): Promise<RawResponse> {
    const userAbort = () => new APIUserAbortError(`${label} was aborted by the caller`, { idempotencyKey });
    if (signal?.aborted) throw userAbort();
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
    const secret = this.#config.secret;
    try {
      const init = { method, headers, body, timeout } as AttemptOptions;
      if (controller) init.attemptSignal = controller.signal;
      const response = await Promise.race([http(target, init), halted]);
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
      if (signal?.aborted) throw userAbort();
      if (timedOut || isInstance(error, (await loadKy()).TimeoutError)) {
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
}

/** ky's options for one attempt; `attemptSignal`, unknown to ky, reaches fetch beside the Request. */
type AttemptOptions = Options & { attemptSignal?: AbortSignal };

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

/** What ky hands its fetch: the options it does not know, the attempt's signal among them. */
type AttemptInit = RequestInit & { attemptSignal?: AbortSignal };

/** One record from several, names lower-cased so a later source replaces an earlier one in any case. */
function lowerCased(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const source of sources)
    if (source) for (const [name, value] of Object.entries(source)) merged[name.toLowerCase()] = value;
  return merged;
}

/** The path with its query: built here, since ky's `searchParams` builds the Request twice. */
function withQuery(path: string, query: Record<string, number | string | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

let kyModule: Promise<typeof import('ky')> | undefined;

/** ky, imported once per process whatever the number of clients. */
function loadKy(): Promise<typeof import('ky')> {
  kyModule ??= import('ky').then(
    (module) => module,
    (error: unknown) => {
      kyModule = undefined; // A later call tries again.
      const cause = foreignError(error);
      throw new LunasError(`lunas could not load ky, the HTTP client it sends requests with: ${describeError(cause)}`, {
        cause,
      });
    },
  );
  return kyModule;
}

/** `instanceof` that cannot throw: a thrown Proxy may trap reading its prototype. */
function isInstance(value: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/** Adds the attempt count to a final error, and the safe way to retry a POST. */
function withAttempts(error: LunasError, attempts: number): LunasError {
  if (attempts > 1) error.message += ` (after ${attempts} attempts)`;
  if (error.idempotencyKey !== undefined && isRetryable(error)) {
    error.message += `; retry with idempotencyKey "${error.idempotencyKey}" to avoid a duplicate`;
  }
  return error;
}

/** Resolves after `ms`, or as soon as `signal` aborts: the next attempt then ends unsent. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
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

/**
 * `answer` (an asynchronous schema's), or a rejection with `late()` once `ms`
 * have passed, or with `aborted()` when `signal` aborts: a schema that never
 * answers cannot hold a call past its attempt's timeout.
 */
function bounded(
  answer: PromiseLike<unknown>,
  ms: number,
  signal: AbortSignal | undefined,
  late: () => LunasError,
  aborted: () => LunasError,
): Promise<unknown> {
  if (signal?.aborted) return Promise.reject(aborted());
  return new Promise((resolve, reject) => {
    // Whichever comes first, nothing of the others stays behind.
    const settle = (act: () => void) => {
      clearTimeout(timer);
      stopListening?.();
      act();
    };
    const stopListening = signal ? onAbort(signal, () => settle(() => reject(aborted()))) : undefined;
    const timer = setTimeout(() => settle(() => reject(late())), Math.max(ms, 0));
    // Not Promise.resolve: it reads a promise's `constructor`, which may throw.
    new Promise((settled) => settled(answer)).then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
