/** The public shapes of webhook deliveries: what `sandbox.deliveries` holds and what its helpers take. */
import type { SandboxEvent, SandboxEventType } from '../types.js';

/**
 * Where a delivery stands:
 * - `pending`: an attempt is in flight, a retry is scheduled, or it waits its
 *   turn in a sequence (`redeliver` or `releaseWebhooks` one at a time);
 * - `delivered`: an attempt got a 2xx answer;
 * - `failed`: every attempt of the schedule failed, and the sandbox gave up;
 * - `abandoned`: the sandbox closed while it was pending.
 * @category Testing
 */
export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed' | 'abandoned';

/** One POST of an event to the webhook URL. @category Testing */
export interface WebhookAttempt {
  /** When the attempt started: the wall clock, not the `now` option (so retry gaps can be measured). */
  startedAt: Date;
  /** How long the attempt took, from sending to the answer's status or the error, in milliseconds. */
  durationMs: number;
  /** The answer's HTTP status; `null` when there was none (network error or timeout). */
  status: number | null;
  /** Why there was no answer (`'timed out after 10000 ms'`, the network error); `null` when there was one. */
  error: string | null;
  /** Whether the answer was a 2xx: anything else is a failed attempt, retried on the schedule. */
  ok: boolean;
  /**
   * A redirect's (3xx) `Location` header, as the receiver sent it; absent
   * otherwise. The sandbox does not follow redirects: a webhook URL must
   * answer itself, so a redirect is a failed attempt.
   */
  location?: string;
}

/**
 * One delivery of one event: its first sending or a `redeliver`, with every
 * attempt it took. {@link Sandbox.deliveries} holds copies of these.
 *
 * @example
 * ```ts
 * await sandbox.webhooksSettled();
 * const [first] = sandbox.deliveries;
 * first.state; // 'delivered'
 * first.attempts.map((attempt) => attempt.status); // [500, 200]: one retry
 * ```
 * @category Testing
 */
export interface WebhookDelivery {
  /**
   * The event delivered, exactly as it is sent: find a charge's deliveries
   * with `deliveries.filter((d) => d.event.data.id === charge.id)`.
   */
  event: SandboxEvent;
  /** The event's id, `evt_…` (`event.id`), also sent as the `lunas-event-id` header. */
  eventId: string;
  /** The event's type (`event.type`). */
  eventType: SandboxEventType;
  /** `true` for a delivery made by {@link Sandbox.redeliver}, `false` for the event's own first delivery. */
  redelivery: boolean;
  /** Where the delivery stands. */
  state: WebhookDeliveryState;
  /** Every attempt made so far, oldest first (an attempt in flight appears once it has ended). */
  attempts: WebhookAttempt[];
  /** When the next attempt is due (wall clock), while a retry waits; `null` otherwise. */
  retryAt: Date | null;
}

/**
 * An event the sandbox gave up delivering: its latest delivery ended
 * `failed` (every attempt of the schedule failed) and none delivered it
 * since. What `lunas-sandbox wait` names and fails on.
 */
export interface WebhookGivenUp {
  /** The event's id, `evt_…`. */
  eventId: string;
  /** The event's type. */
  eventType: SandboxEventType;
  /** Where it was sent, its password masked; `null` for the in-process `webhook` handler. */
  url: string | null;
  /** How many attempts the delivery made. */
  attempts: number;
  /** What the last attempt got: `HTTP 503`, or why there was no answer (the network error, the timeout). */
  error: string;
}

/** Options of {@link Sandbox.redeliver}. @category Testing */
export interface RedeliverOptions {
  /** How many new deliveries of the event to make, from 1 to 100. Default 1. */
  times?: number;
  /**
   * `true` starts them all at once, so the receiver handles them in parallel;
   * `false` (the default) starts each when the previous one is delivered or failed.
   */
  concurrently?: boolean;
}

/** Options of {@link Sandbox.releaseWebhooks}. @category Testing */
export interface ReleaseWebhooksOptions {
  /** `'recorded'` (the default): oldest event first; `'reversed'`: newest first. */
  order?: 'recorded' | 'reversed';
  /**
   * `false` (the default) starts each delivery when the previous one is
   * delivered or failed, so the receiver sees them in exactly that order;
   * `true` starts them all at once.
   */
  concurrently?: boolean;
}

/** A function called after every attempt, with a copy of its delivery (`state` and `retryAt` say what comes next). @category Testing */
export type WebhookAttemptListener = (delivery: WebhookDelivery) => void;

/**
 * A webhook receiver in process, for the `webhook` option: a fetch-style
 * function such as a Hono app's `app.fetch` or a Next.js route's `POST`. It
 * gets each event as `POST https://sandbox.lunas.invalid/webhook` with a JSON
 * body and the headers a URL gets, and answers a `Response`: a 2xx delivers
 * the event, anything else is a failed attempt, retried on the schedule. A
 * throw, a rejection or an answer that is not a `Response` is a failed
 * attempt too, recorded with what happened; the sandbox carries on.
 *
 * @example
 * ```ts
 * const sandbox = createSandbox({
 *   webhook: async (request) => {
 *     const event = await request.json();
 *     console.log(event.type, request.headers.get('lunas-event-id'));
 *     return new Response(null, { status: 204 });
 *   },
 * });
 * ```
 * @category Testing
 */
export type WebhookHandler = (request: Request) => Response | Promise<Response>;
