/**
 * The retry loop: one call is one logical operation, one Idempotency-Key and
 * up to `maxRetries + 1` attempts, all ended by the caller's signal, with a
 * request and a response event per attempt. This module holds the retry loop
 * (the {@link Transport} a client sends its calls through), the headers every
 * attempt sends, each attempt's publication on the `lunas:attempt` tracing
 * channel (report/tracing.ts) when it has subscribers, and the client's
 * {@link Queue} (`maxConcurrentRequests`) each attempt waits in for its turn;
 * each attempt is attempt.ts's, and what is retried and when is
 * retry-policy.ts's.
 *
 * The retry loop is lunas's, not ky's, because the contract's policy (409
 * retried, any 5xx, `retry-after-ms`, waits over 60 s replaced by backoff, a
 * timeout that also covers reading the body) does not fit ky's retry options.
 *
 * The success path builds nothing it does not need: the masked label of a
 * call is built only for a message or a log line, and whether anyone listens
 * or logs at debug level is a field read, as whether a channel has subscribers is.
 */
import { Call, maskedURL, onAbort, sendAttempt, withinAttempt } from './attempt.js';
import { describeThrown } from '../report/describe-value.js';
import { decodeFailure, decodeSuccess, type PageEnvelope } from '../wire/envelope.js';
import { APIError, APIUserAbortError, LunasError, ResponseBodyError } from '../report/errors.js';
import type { Events } from '../report/events.js';
import { type Ky, loadKy, type SendInit } from '../wire/send.js';
import { type ClientSettings, isAddableHeader, type RequestOptions } from '../checks/options.js';
import type { ResponseInfo, StandardSchema } from '../types.js';
import { isRetryable, retryDelay, waitToRetry, withAttempts } from './retry-policy.js';
import { redact, type Secret } from '../report/secrets.js';
import {
  type AttemptContext,
  hasSubscribers,
  type Mutable,
  type OperationContext,
  publishEnd,
  publishStart,
  record,
  tracingChannels,
} from '../report/tracing.js';

// The queue.

/**
 * A place in the queue, a ring linked both ways through the queue's own
 * link: a request that gives up leaves at once, wherever it stands, so the
 * queue holds only requests still waiting and a turn given back goes to the
 * first of them. A link out of the ring points to itself, so taking it out
 * again changes nothing.
 */
interface Link {
  prev: Link;
  next: Link;
}

/** A request waiting for a turn. */
interface Waiter extends Link {
  /** Settles its wait: true when it is handed the turn, false when its signal aborted first. */
  readonly resolve: (granted: boolean) => void;
  /** Stops listening to the caller's signal. */
  stop?: (() => void) | undefined;
}

/** Takes `link` out of the ring it is in, if any. */
function unlink(link: Link): void {
  link.prev.next = link.next;
  link.next.prev = link.prev;
  link.prev = link.next = link;
}

/**
 * A client's queue (`maxConcurrentRequests`): at most `limit` requests sent
 * at once, the rest waiting in the order they came. A batch of thousands of
 * calls then holds that many connections and that many requests' worth of
 * memory, rather than one of each per call. The wait for a turn is lunas's,
 * not the service's: an attempt takes its turn before its events, its
 * tracing and its deadline start ({@link Transport}).
 */
export class Queue {
  #free: number;
  /** The queue's own link: its `next` is the longest waiting request, its `prev` the latest; itself when none waits. */
  readonly #waiting = {} as Link;

  constructor(limit: number) {
    this.#free = limit;
    this.#waiting.prev = this.#waiting.next = this.#waiting;
  }

  /**
   * Takes a turn: `true` when one is free now (nothing to await), else a
   * promise of `true` once an earlier request gives its turn back, or of
   * `false` as soon as `signal` aborts (the turn is then never taken; so too,
   * at once, when it had aborted already). Every turn taken is given back by
   * {@link release}.
   */
  take(signal: AbortSignal | undefined): boolean | Promise<boolean> {
    // An aborted signal fires no further event: it would wait for a turn it never uses.
    if (signal?.aborted) return false;
    if (this.#free > 0) {
      this.#free--;
      return true;
    }
    return new Promise<boolean>((resolve) => {
      const queue = this.#waiting;
      const last = queue.prev;
      const waiter: Waiter = { prev: last, next: queue, resolve };
      last.next = waiter;
      queue.prev = waiter;
      if (signal) {
        waiter.stop = onAbort(signal, () => {
          unlink(waiter);
          resolve(false);
        });
      }
    });
  }

  /** Gives a turn back: to the longest waiting request, or to the free ones when none waits. */
  release(): void {
    const first = this.#waiting.next as Waiter;
    if (first === this.#waiting) {
      this.#free++;
      return;
    }
    unlink(first);
    first.stop?.();
    first.resolve(true);
  }
}

/** What the transport needs: the client's settings, already checked, and what the client adds. */
export interface TransportConfig extends ClientSettings {
  userAgent: string;
  /** Listeners of request and response events, shared with derived clients. */
  events: Events;
}

/** One endpoint call, as the request primitive (request.ts) hands it over. */
export interface CallSpec<T> {
  /** The SDK method (`'transfers.create'`), or `'get'`/`'post'` for a raw call: for the tracing channels. */
  operation: string;
  method: 'GET' | 'POST';
  /** Where it goes: relative to the base URL, ids already encoded; and its route, for the tracing channels. */
  path: CallPath;
  query?: Record<string, number | string | boolean | undefined> | undefined;
  /** The JSON text of a POST's body. */
  body?: string | undefined;
  /** Checks the success envelope's `data`; unchecked when absent. */
  schema?: StandardSchema<T> | undefined;
}

/** A call's path: what is sent, and the route it is published under. */
interface CallPath {
  /** Relative to the base URL, without a leading slash. */
  readonly relative: string;
  /** The path template (`/v1/payments/charges/{id}`), built when read. */
  readonly route: string;
}

/** A list call: the result is the page envelope, and `schema` checks its `data`. */
export interface ListCallSpec<T> extends CallSpec<T[]> {
  method: 'GET';
  /** The page requested: an answer for another page is refused. */
  page: number;
}

/** The parsed envelope and the exchange that produced it. */
export interface CallResult<T> {
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
  /** This client's queue (`maxConcurrentRequests`). */
  readonly #queue: Queue;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#queue = new Queue(config.maxConcurrentRequests);
    this.#baseHeaders = clientHeaders(config.apiKey, config.userAgent, config.defaultHeaders);
  }

  /** The key's matcher, for messages built before a call reaches the transport. */
  get secret(): Secret {
    return this.#config.secret;
  }

  /** The key itself, for the quick look before its matcher runs (`mayHoldKey`); never shown. */
  get apiKey(): string {
    return this.#config.apiKey;
  }

  /** A warn-level line through the client's log: something a call saw but did not fail on. */
  warn(message: string): void {
    this.#config.log.write('warn', message);
  }

  /** The full URL a call is sent to, query included, masked: for its tracing context. */
  urlOf(spec: CallSpec<unknown>): string {
    return maskedURL(this.#config.baseURL, target(spec), this.#config.secret);
  }

  /**
   * `options` come checked, by name and value, from `checkRequestOptions` (the
   * API does it once per call); `operation` is the call's context on
   * `lunas:operation` when it is published, which its attempts point to.
   */
  request<T>(
    spec: ListCallSpec<T>,
    options: RequestOptions,
    operation: OperationContext | undefined,
  ): Promise<CallResult<PageEnvelope<T>>>;
  request<T>(
    spec: CallSpec<T>,
    options: RequestOptions,
    operation: OperationContext | undefined,
  ): Promise<CallResult<T>>;
  async request(
    spec: CallSpec<unknown> & { page?: number },
    options: RequestOptions,
    operation: OperationContext | undefined,
  ): Promise<CallResult<unknown>> {
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
      target: target(spec),
      init: { method, headers: callHeaders(this.#baseHeaders, options.headers, idempotencyKey, body), body },
      timeout: options.timeout ?? config.timeout,
      signal: options.signal,
      idempotencyKey,
    });
    const { signal, timeout } = call;
    const queue = this.#queue;
    const observed = events.observed;
    // As sent (fetch percent-encodes a raw path), and without the key should a
    // caller have put it in a path or query: events and log lines show it.
    const url = observed || log.debugEnabled ? call.url : '';
    const channel = tracingChannels?.attempt;

    for (let attempt = 1; ; attempt++) {
      // The turn in the queue comes first: the wait for it is lunas's, not the
      // service's, so it is in no event, log line, span, duration or deadline.
      // It is held until the attempt's answer is read and decoded, and given
      // back before the wait for a retry; `held` is false when the signal
      // aborted first (awaiting a plain false costs a tick on that path only).
      const turn = queue.take(signal);
      const held = turn === true || (await turn);
      // Aborted before the first attempt was sent (before the call, while it
      // waited for its turn, or as the turn came, which then goes unused): no
      // attempt, so no events either, and no key on the error, since no
      // request carried one.
      if (attempt === 1 && signal?.aborted) {
        if (held) queue.release();
        throw new APIUserAbortError(`${call.label} was aborted by the caller before it was sent`);
      }
      let failure: LunasError;
      let failedHeaders: Headers | undefined;
      let status: number | undefined;
      let requestId: string | undefined;
      let sent = attempt;
      const started = performance.now();
      // Published only to a channel somebody listens to: the context is built for them alone.
      const traced =
        channel !== undefined && hasSubscribers(channel) ? attemptContext(spec, call, attempt, operation) : undefined;
      try {
        if (observed) events.emit('request', { method, url, attempt, idempotencyKey }, log);
        if (traced) publishStart(channel!, traced);
        // Aborted in the wait before this retry (for its time or its turn): the
        // attempt ends unsent, with its pair of events, so the call's last
        // event says `willRetry: false`; an earlier attempt carried the key.
        if (attempt > 1 && signal?.aborted) {
          sent--;
          throw new APIUserAbortError(`${call.label} was aborted by the caller while waiting to retry`, {
            idempotencyKey,
          });
        }
        if (log.debugEnabled) log.write('debug', `${method} ${url} attempt ${attempt} of ${maxRetries + 1}`);
        const raw = await sendAttempt(call, traced ? withAddedHeaders(call.init, traced.headers) : call.init, traced);
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
          if (traced) publishEnd(channel!, ended(traced, status, requestId, false), undefined);
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
      } finally {
        if (held) queue.release();
      }
      const willRetry = attempt <= maxRetries && isRetryable(failure);
      if (observed) {
        const durationMs = performance.now() - started;
        const event = { method, url, attempt, idempotencyKey, status, requestId, durationMs };
        events.emit('response', { ...event, error: failure, willRetry }, log);
      }
      if (traced) publishEnd(channel!, ended(traced, status, requestId, willRetry), failure);
      if (!willRetry) throw withAttempts(failure, sent);
      const wait = retryDelay(attempt, failedHeaders);
      log.write('info', `${call.label} retrying in ${Math.round(wait)} ms after: ${failure.message}`);
      await waitToRetry(wait, signal);
    }
  }
}

/**
 * An attempt's context on `lunas:attempt`, before it is sent: its call's
 * operation, route and URL (its operation's, when that is published), and an
 * empty record for the headers a subscriber adds.
 */
function attemptContext(
  spec: CallSpec<unknown>,
  call: Call,
  attempt: number,
  operation: OperationContext | undefined,
): Mutable<AttemptContext> {
  return {
    operation: spec.operation,
    method: spec.method,
    route: operation?.route ?? spec.path.route,
    url: operation?.url ?? call.url,
    idempotencyKey: call.idempotencyKey,
    attempt,
    headers: {},
    operationContext: operation,
    runExchange: undefined,
    status: undefined,
    requestId: undefined,
    willRetry: undefined,
    error: undefined,
  };
}

/** What an attempt ended with, set on its context before the channel publishes its end. */
function ended(
  context: Mutable<AttemptContext>,
  status: number | undefined,
  requestId: string | undefined,
  willRetry: boolean,
): Mutable<AttemptContext> {
  record(context, { status, requestId, willRetry });
  return context;
}

/** A call's target: its path, with its query. */
function target(spec: CallSpec<unknown>): string {
  const { relative } = spec.path;
  return spec.query ? withQuery(relative, spec.query) : relative;
}

/**
 * The attempt's request with the headers a `lunas:attempt` subscriber added
 * (trace context), each sent only when it is a valid header the call does not
 * send already: lunas's own, the client's and the call's headers win. A
 * subscriber's object that throws (a Proxy, a getter) adds what it gave before.
 */
function withAddedHeaders(init: SendInit, added: unknown): SendInit {
  let headers: Record<string, string> | undefined;
  try {
    if (typeof added === 'object' && added !== null) {
      for (const [name, value] of Object.entries(added)) {
        const lower = name.toLowerCase();
        if (Object.hasOwn(init.headers, lower) || !isAddableHeader(name, value)) continue;
        (headers ??= { ...init.headers })[lower] = value;
      }
    }
  } catch {
    // What the subscriber's object gave before it threw is kept; the call goes on.
  }
  return headers === undefined ? init : { ...init, headers };
}

/** The path with its query: built here, since ky's `searchParams` builds the Request twice. */
function withQuery(path: string, query: Record<string, number | string | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

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
