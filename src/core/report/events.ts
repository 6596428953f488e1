/**
 * Request and response events: one pair per attempt, for a merchant's own logs,
 * metrics and traces. Listeners run synchronously and are isolated: one that
 * throws (or returns a rejected promise) is reported at warn level and never
 * breaks or delays the call.
 */
import { describeThrown } from './describe-value.js';
import { LunasError } from './errors.js';
import { isThenable, type Log } from './log.js';

/**
 * Emitted before each attempt is sent, once it has its turn on the wire
 * (`maxConcurrentRequests`). When your signal aborts during the wait before a
 * retry, that retry still gets its `request` event, at once followed by its
 * final `response` event: nothing is sent (see {@link ResponseEvent}). A call
 * your signal aborts before its first attempt is sent, in the queue for a
 * turn too, emits no event.
 *
 * @example
 * ```ts
 * client.on('request', (e) => log.debug(`${e.method} ${e.url} (attempt ${e.attempt})`));
 * ```
 * @category Events
 */
export interface RequestEvent {
  /** `GET` or `POST`. */
  readonly method: string;
  /** The full URL of the attempt, query included. It never holds the API key. */
  readonly url: string;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
  /** The Idempotency-Key sent, for a POST; the same on every attempt of one call. */
  readonly idempotencyKey: string | undefined;
}

/**
 * Emitted when each attempt ends, whether or not a response came. Every call
 * that sends anything ends with exactly one event whose `willRetry` is false,
 * its last. When your signal aborts during the wait before a retry, that
 * retry ends unsent: its events come at once, this one with `status`
 * undefined, `error` an `APIUserAbortError` and `willRetry` false.
 *
 * @example
 * ```ts
 * client.on('response', (e) => metrics.timing('lunas.request', e.durationMs, { status: String(e.status ?? 'none') }));
 * ```
 * @category Events
 */
export interface ResponseEvent extends RequestEvent {
  /** The HTTP status; undefined when no response came (connection failure, timeout, abort). */
  readonly status: number | undefined;
  /** The `x-request-id` response header, when the service sent one. */
  readonly requestId: string | undefined;
  /**
   * Milliseconds from sending the attempt to the end of reading (and checking)
   * its body; the wait for a turn on the wire before it is not counted.
   */
  readonly durationMs: number;
  /** Why the attempt failed; undefined when it succeeded. */
  readonly error: LunasError | undefined;
  /** Whether another attempt follows this one; false on the call's last event, and only there. */
  readonly willRetry: boolean;
}

/**
 * The events a {@link Client} emits, by name.
 * @category Events
 */
export interface ClientEvents {
  /** Before each attempt is sent. */
  request: RequestEvent;
  /** When each attempt ends. */
  response: ResponseEvent;
}

/**
 * A listener for the event `E`.
 * @category Events
 */
export type ClientEventListener<E extends keyof ClientEvents> = (event: ClientEvents[E]) => void;

/** The listeners of one client and the clients derived from it. */
export class Events {
  readonly #listeners: { [E in keyof ClientEvents]: Set<ClientEventListener<E>> } = {
    request: new Set(),
    response: new Set(),
  };

  /**
   * Whether anyone listens to either event: a plain field, kept up to date by
   * `add` and `remove`, so a call with no listener skips building events at
   * the cost of one read.
   */
  observed = false;

  add<E extends keyof ClientEvents>(name: E, listener: ClientEventListener<E>): void {
    // Refused here, not at the first emit: a typo or a non-function would
    // otherwise fail silently, or on every request.
    if (typeof listener !== 'function') throw new LunasError('An event listener must be a function');
    this.#listenersOf(name).add(listener);
    this.observed = true;
  }

  remove<E extends keyof ClientEvents>(name: E, listener: ClientEventListener<E>): void {
    this.#listenersOf(name).delete(listener);
    this.observed = this.#listeners.request.size + this.#listeners.response.size > 0;
  }

  #listenersOf<E extends keyof ClientEvents>(name: E): Set<ClientEventListener<E>> {
    if (!Object.hasOwn(this.#listeners, name)) {
      const shown = typeof name === 'string' ? JSON.stringify(name) : `of type ${typeof name}`;
      throw new LunasError(`Unknown event ${shown}: a client emits 'request' or 'response'`);
    }
    return this.#listeners[name];
  }

  emit<E extends keyof ClientEvents>(name: E, event: ClientEvents[E], log: Log): void {
    // A copy: a listener that adds another at each event would otherwise never let the loop end.
    for (const listener of [...this.#listeners[name]]) {
      try {
        const result: unknown = listener(event);
        // A listener may be async; its rejection must not surface as an unhandled one.
        if (isThenable(result)) result.then(undefined, (error: unknown) => reportListenerError(log, name, error));
      } catch (error) {
        reportListenerError(log, name, error);
      }
    }
  }
}

function reportListenerError(log: Log, name: string, error: unknown): void {
  log.write('warn', `a '${name}' event listener threw, and was ignored: ${describeThrown(error)}`);
}
