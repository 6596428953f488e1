/**
 * Webhook deliveries: each event POSTed to the webhook URL (or handed to the
 * `webhook` handler in process), retried on a schedule when the receiver
 * fails, and every attempt recorded, the newest deliveries kept. A receiver
 * cannot break the API under test: nothing here throws into the code that
 * recorded the event. The retry waits and attempt time limits keep the process
 * alive only while someone awaits `settled()`.
 */
import { BoundedLog, type LogEntry } from '../bounded-log.js';
import type {
  RedeliverOptions,
  ReleaseWebhooksOptions,
  WebhookAttemptListener,
  WebhookDelivery,
  WebhookGivenUp,
  WebhookHandler,
} from './delivery-types.js';
import { outcome } from './delivery-lines.js';
import { SandboxError } from '../errors.js';
import { checkOptionNames } from '../option-names.js';
import type { Page } from '../service/page.js';
import { BackgroundTimers } from '../timers.js';
import { Sleeps } from '../transport/sleeps.js';
import type { SandboxEvent } from '../types.js';
import {
  type AttemptOutcome,
  attemptDelivery,
  maskedWebhookUrl,
  webhookTarget,
  type WebhookTarget,
} from './webhook.js';

/**
 * How deliveries are made: where to (a URL or a handler, never both), when to
 * retry, how long an attempt may take, who hears of each, how many are kept.
 */
export interface DeliverySettings {
  /** The webhook URL, credentials included (sent as Basic auth). */
  url: string | undefined;
  /** The receiver in process, instead of a URL. */
  handler: WebhookHandler | undefined;
  /** The waits before the second, third... attempt; its length is the number of retries. */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  onAttempt: WebhookAttemptListener | undefined;
  /** How many deliveries the log keeps, the newest (pending ones beyond it too, until they settle). */
  keep: number;
}

const MAX_REDELIVERIES = 100;

/** The deliveries of one sandbox. */
export class WebhookDeliveries {
  readonly #settings: DeliverySettings;
  /** Where attempts go: the URL without credentials and their Authorization, or the handler. */
  readonly #target: WebhookTarget | undefined;
  /** The newest deliveries; a pending one is never dropped, so `settled()` and its retries stay true. */
  readonly #records: BoundedLog<WebhookDelivery>;
  /** Each pending delivery's place in the log, released when it settles: no scan of the log per settle. */
  readonly #inLog = new Map<WebhookDelivery, LogEntry>();
  /** Every event recorded, for `redeliver`: kept when its deliveries have been dropped from the log. */
  readonly #events = new Map<string, SandboxEvent>();
  /** What `close()` calls: one per attempt in flight (no listener pile-up on one signal). */
  readonly #cancels = new Set<() => void>();
  /** The retry waits' and attempts' timers: they keep the process alive only while `settled()` is awaited. */
  readonly #timers = new BackgroundTimers();
  /** The waits before retries, ended by `close()`. */
  readonly #retryWaits = new Sleeps(this.#timers);
  /**
   * The events given up, by id, in the order they were: an event's latest
   * delivery ended `failed`. A later delivery of it that is delivered takes it
   * out. Kept apart from the bounded log, so none is forgotten.
   */
  readonly #givenUp = new Map<string, WebhookGivenUp>();
  /** Failed attempts so far, those of deliveries dropped from the log included. */
  #failedAttempts = 0;
  /** Deliveries pending: counted, since the log may be long and `settled()` asks after every attempt. */
  #pending = 0;
  #closed = false;
  readonly #onSettled: (() => void)[] = [];
  /** Events recorded since `hold()`, not yet delivered; `undefined` when not holding. */
  #held: SandboxEvent[] | undefined;

  constructor(settings: DeliverySettings) {
    this.#settings = settings;
    this.#target =
      settings.url !== undefined
        ? webhookTarget(settings.url)
        : settings.handler !== undefined
          ? { kind: 'handler', handler: settings.handler }
          : undefined;
    this.#records = new BoundedLog(settings.keep);
  }

  /**
   * Copies of every delivery kept, oldest first. One `structuredClone` of them
   * all: an event redelivered many times is copied once, not once a delivery.
   */
  get all(): WebhookDelivery[] {
    return structuredClone(this.#records.all());
  }

  /** Copies of the newest `count` deliveries, newest first, and how many are kept in all. */
  newest(count: number): Page<WebhookDelivery> {
    return { data: structuredClone(this.#records.newest(count)), total: this.#records.size };
  }

  /** Attempts that failed (network error, timeout, non-2xx), across every delivery, dropped ones included. */
  get failedAttempts(): number {
    return this.#failedAttempts;
  }

  /** Deliveries not yet delivered, failed or abandoned (held events are not deliveries yet). */
  get pendingCount(): number {
    return this.#pending;
  }

  /** Copies of the events given up, in the order they were ({@link WebhookGivenUp}). */
  givenUp(): WebhookGivenUp[] {
    return [...this.#givenUp.values()].map((failure) => ({ ...failure }));
  }

  /** Takes a newly recorded event: delivers it, holds it, or only remembers it (no receiver). */
  send(event: SandboxEvent): void {
    this.#events.set(event.id, event);
    if (this.#target === undefined || this.#closed) return;
    if (this.#held) this.#held.push(event);
    else this.#start([event], false, true);
  }

  /** New deliveries of a recorded event (`Sandbox.redeliver`): options checked first, nothing sent on a bad one. */
  redeliver(eventId: unknown, options: RedeliverOptions | undefined): void {
    if (typeof eventId !== 'string') throw new TypeError('eventId must be a string, the id of a recorded event');
    const { times = 1, concurrently = false } = readHelperOptions(options, [
      'times',
      'concurrently',
    ]) as RedeliverOptions;
    if (!(Number.isInteger(times) && times >= 1 && times <= MAX_REDELIVERIES)) {
      throw new TypeError(`times must be an integer from 1 to ${MAX_REDELIVERIES}`);
    }
    checkConcurrently(concurrently);
    const event = this.#events.get(eventId);
    if (event === undefined) throw new SandboxError(`No event ${JSON.stringify(eventId)} was recorded by this sandbox`);
    this.#requireReceiver('redeliver');
    this.#start(
      Array.from({ length: times }, () => event),
      true,
      concurrently,
    );
  }

  /** From now on, new events wait unsent (and out of `all`) until `release()`. */
  hold(): void {
    this.#requireReceiver('holdWebhooks');
    this.#held ??= [];
  }

  /** Delivers the held events in the order asked, and stops holding (`Sandbox.releaseWebhooks`). */
  release(options: ReleaseWebhooksOptions | undefined): void {
    const { order = 'recorded', concurrently = false } = readHelperOptions(options, [
      'order',
      'concurrently',
    ]) as ReleaseWebhooksOptions;
    if (order !== 'recorded' && order !== 'reversed') throw new TypeError("order must be 'recorded' or 'reversed'");
    checkConcurrently(concurrently);
    this.#requireReceiver('releaseWebhooks');
    const held = this.#held ?? [];
    this.#held = undefined;
    this.#start(order === 'reversed' ? held.reverse() : held, false, concurrently);
  }

  /** Resolves once no delivery is pending; at once when none is. Held events are not waited for. */
  settled(): Promise<void> {
    if (this.#pending === 0) return Promise.resolve();
    // Someone waits now: a retry's wait must keep the process alive, or a script's `await` would end with it.
    this.#timers.keepProcessAlive(true);
    return new Promise((resolve) => this.#onSettled.push(resolve));
  }

  /** Abandons every pending delivery and held event: attempts in flight are aborted, retries never come. */
  close(): void {
    this.#closed = true;
    this.#held = undefined;
    for (const cancel of this.#cancels) cancel();
    this.#cancels.clear();
    this.#retryWaits.stop();
    for (const record of [...this.#inLog.keys()]) {
      record.state = 'abandoned';
      record.retryAt = null;
      this.#pending -= 1;
      this.#settle(record);
    }
    this.#settleWaiters();
  }

  #requireReceiver(helper: string): void {
    if (this.#target === undefined) {
      throw new SandboxError(
        `${helper}() needs a webhook URL or handler: start the sandbox with the webhookUrl or webhook option`,
      );
    }
  }

  /** Records a pending delivery per event at once (so `settled()` waits for all), then runs them. */
  #start(events: readonly SandboxEvent[], redelivery: boolean, concurrently: boolean): void {
    const runs = events.map((event) => {
      const record: WebhookDelivery = {
        event,
        eventId: event.id,
        eventType: event.type,
        redelivery,
        state: 'pending',
        attempts: [],
        retryAt: null,
      };
      this.#inLog.set(record, this.#records.push(record, true));
      this.#pending += 1;
      return () => this.#run(record, event);
    });
    if (concurrently) for (const run of runs) void run();
    else void runs.reduce<Promise<void>>((previous, run) => previous.then(run), Promise.resolve());
  }

  /** Attempts until a 2xx, the end of the schedule, or `close()`. Never rejects. */
  async #run(record: WebhookDelivery, event: SandboxEvent): Promise<void> {
    const { retryDelaysMs, timeoutMs } = this.#settings;
    const target = this.#target;
    for (let retry = 0; record.state === 'pending' && target !== undefined; retry++) {
      const startedAt = new Date();
      const outcome = await this.#attempt(target, event, timeoutMs);
      if (outcome === undefined || record.state !== 'pending') break;
      const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      const endedAt = Date.now();
      record.attempts.push({ startedAt, durationMs: endedAt - startedAt.getTime(), ...outcome, ok });
      if (!ok) this.#failedAttempts += 1;
      const delay = ok ? undefined : retryDelaysMs[retry];
      record.state = ok ? 'delivered' : delay === undefined ? 'failed' : 'pending';
      record.retryAt = delay === undefined ? null : new Date(endedAt + delay);
      this.#report(record);
      if (record.state !== 'pending') {
        this.#pending -= 1;
        this.#settle(record);
        this.#noteOutcome(record);
      }
      if (delay !== undefined && !(await this.#retryWaits.sleep(delay))) break;
      record.retryAt = null;
    }
    this.#settleWaiters();
  }

  /** Remembers an event given up, or forgets it once a delivery of it is delivered. */
  #noteOutcome(record: WebhookDelivery): void {
    this.#givenUp.delete(record.eventId);
    const last = record.attempts.at(-1);
    if (record.state !== 'failed' || last === undefined) return;
    const { url } = this.#settings;
    this.#givenUp.set(record.eventId, {
      eventId: record.eventId,
      eventType: record.eventType,
      url: url === undefined ? null : maskedWebhookUrl(url),
      attempts: record.attempts.length,
      error: outcome(last),
    });
  }

  /** A delivery no longer pending: it may now give way to newer ones past the log's limit. */
  #settle(record: WebhookDelivery): void {
    const place = this.#inLog.get(record);
    if (place === undefined) return;
    this.#inLog.delete(record);
    this.#records.release(place);
  }

  /** One attempt, aborted by `close()` (then `undefined`: no outcome to record). */
  async #attempt(target: WebhookTarget, event: SandboxEvent, timeoutMs: number): Promise<AttemptOutcome | undefined> {
    if (this.#closed) return undefined;
    const abandon = new AbortController();
    const cancel = (): void => abandon.abort();
    this.#cancels.add(cancel);
    try {
      return await attemptDelivery(target, event, { timeoutMs, abandon: abandon.signal, timers: this.#timers });
    } finally {
      this.#cancels.delete(cancel);
    }
  }

  /** Tells the listener, whose mistakes must not stop the delivery. */
  #report(record: WebhookDelivery): void {
    const listener = this.#settings.onAttempt;
    if (listener === undefined) return;
    try {
      void Promise.resolve(listener(copyDelivery(record))).catch(() => {});
    } catch {
      // A throwing listener loses its report, not the delivery.
    }
  }

  #settleWaiters(): void {
    if (this.#pending > 0) return;
    this.#timers.keepProcessAlive(false);
    for (const resolve of this.#onSettled.splice(0)) resolve();
  }
}

function copyDelivery(record: WebhookDelivery): WebhookDelivery {
  return structuredClone(record);
}

function readHelperOptions(options: object | undefined, names: readonly string[]): Record<string, unknown> {
  if (options === undefined) return {};
  return checkOptionNames(options, names, 'options must be an object');
}

function checkConcurrently(concurrently: unknown): void {
  if (typeof concurrently !== 'boolean') throw new TypeError('concurrently must be a boolean');
}
