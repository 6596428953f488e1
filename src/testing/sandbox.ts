/** The handle of a sandbox: what {@link startSandbox} resolves to, and {@link createSandbox} returns with `fetch`. */
import type { RedeliverOptions, ReleaseWebhooksOptions, WebhookDelivery } from './webhooks/delivery-types.js';
import type { Fault } from './transport/faults.js';
import type {
  AccountRecord,
  ChargeCreateBody,
  ChargeRecord,
  NewAccount,
  RecordedRequest,
  SandboxEvent,
  TransferRecord,
} from './types.js';

/**
 * A running sandbox, returned by {@link startSandbox} (and, with `fetch`, by
 * {@link createSandbox}). After {@link Sandbox.close},
 * every helper that reads or changes its state (`balance`, `addAccount`,
 * `fund`, `accounts`, `payCharge`, `failCharge`, `expireCharge`, `now`,
 * `advanceClock`, `seedCharges`, `addPayouts`, `charges`, `transfers`,
 * `inject`, `clearFaults`, `redeliver`, `holdWebhooks`, `releaseWebhooks`)
 * throws (or rejects with) a
 * {@link SandboxError}; the records of what happened (`events`, `requests`,
 * `deliveries`, `webhookFailures`) stay readable for assertions, and
 * `webhooksSettled()` resolves at once.
 *
 * What a helper returns, and what a record getter reads, is a copy: changing
 * it, however deep, changes nothing the sandbox holds, serves or sends.
 *
 * @see [The sandbox](../../docs/sandbox.md), the guide
 * @category Testing
 */
export interface Sandbox {
  /**
   * Base URL, with no trailing slash: `http://127.0.0.1:PORT` from
   * {@link startSandbox}, `https://sandbox.lunas.invalid` from {@link createSandbox}.
   * Charges' `payment_url` starts with it.
   */
  readonly url: string;
  /** The one valid API key. */
  readonly apiKey: string;
  /**
   * An account's balance, formatted like the wire: `'1000000.00'`.
   * Throws a {@link SandboxError} when there is no such account.
   *
   * @throws {@link SandboxError} when there is no such account, or {@link SandboxError} once the sandbox is closed.
   */
  balance(accountId: string): string;
  /**
   * Opens an account on the running sandbox, after the others: a seller of a
   * marketplace, say, that transfers then pay out to. `balance` is money as a
   * request takes it (a number or a decimal string, at least 0, at most two
   * decimals; default `'0.00'`), `active` defaults to `true`. Returns a copy
   * of the account.
   *
   * @throws `TypeError` when a field is invalid or unknown (naming the closest known one).
   * @throws {@link SandboxError} when an account already has that id, or once the sandbox is closed.
   *
   * @example
   * ```ts
   * sandbox.addAccount({ id: 'acc_seller_1', name: 'Toko Kopi' });
   * await client.transfers.create({ destination_account_id: 'acc_seller_1', amount: 45_000, currency: 'idr' });
   * sandbox.balance('acc_seller_1'); // '45000.00'
   * ```
   */
  addAccount(account: NewAccount): AccountRecord;
  /**
   * Adds money to an account, active or not (it is a test's own top-up, not a
   * transfer: no transfer is recorded). `amount` is money as a request takes
   * it, greater than 0. Returns a copy of the account after.
   *
   * @throws `TypeError` when `accountId` is not a string or `amount` is not money greater than 0.
   * @throws {@link SandboxError} when there is no such account, or once the sandbox is closed.
   *
   * @example
   * ```ts
   * sandbox.fund('acc_merchant', '250000.00').balance; // '1250000.00' with the default accounts
   * ```
   */
  fund(accountId: string, amount: number | string): AccountRecord;
  /**
   * Every account, copies with their balances now: those of the `accounts`
   * option in their order, then those added since.
   *
   * @throws {@link SandboxError} once the sandbox is closed.
   */
  accounts(): readonly AccountRecord[];
  /**
   * Simulates the customer paying: a pending charge becomes `success`,
   * `paid_at` is set and `payment_charge.succeeded` is recorded.
   * Rejects with a {@link SandboxError} when the charge does not exist or is
   * not pending (an expired charge reads as failed).
   *
   * @throws {@link SandboxError} when the charge does not exist or is not pending, or {@link SandboxError} once the sandbox is closed.
   *
   * @example
   * ```ts
   * const paid = await sandbox.payCharge(charge.id);
   * paid.status; // 'success'
   * ```
   */
  payCharge(id: string): Promise<ChargeRecord>;
  /**
   * Simulates a failed payment: a pending charge becomes `failed` and
   * `payment_charge.failed` is recorded. Rejects like {@link Sandbox.payCharge}.
   *
   * @throws {@link SandboxError} when the charge does not exist or is not pending, or {@link SandboxError} once the sandbox is closed.
   */
  failCharge(id: string): Promise<ChargeRecord>;
  /**
   * Expires a pending charge now, as its `expires_at` coming would: it
   * becomes `failed`, its `expires_at` and `updated_at` become the sandbox's
   * time, and `payment_charge.failed` is recorded and delivered. Charges
   * already due expire first, in time order. Rejects with a
   * {@link SandboxError} for an unknown id, and for a charge that is not
   * pending (naming its status).
   *
   * @throws {@link SandboxError} when the charge does not exist or is not pending, or {@link SandboxError} once the sandbox is closed.
   *
   * @example
   * ```ts
   * const expired = await sandbox.expireCharge(charge.id);
   * expired.status; // 'failed'
   * ```
   */
  expireCharge(id: string): Promise<ChargeRecord>;
  /**
   * Moves the sandbox's clock forward by `ms` (the `now` option's time, or
   * the real clock's, plus every advance so far), then expires every pending
   * charge that fell due, in the order of their `expires_at`: each becomes
   * `failed` and its `payment_charge.failed` event is recorded (with
   * `created_at` its expiry) and handed to delivery before this resolves.
   * Resolves with those events, oldest first. The webhook retry schedule
   * keeps to real timers (fake timers move it); {@link Sandbox.webhooksSettled}
   * waits for the deliveries.
   *
   * The clock never passes `9999-01-01T00:00:00.000Z`, so every time the
   * sandbox serves (an expiry up to a day later, a charge's own `expires_at`
   * up to the end of year 9999) keeps a four-digit year.
   *
   * @throws `TypeError` unless `ms` is a positive integer, or when it would move the clock past `9999-01-01T00:00:00.000Z`.
   * @throws {@link SandboxError} once the sandbox is closed.
   *
   * @example
   * ```ts
   * const charge = await client.charges.create({ payment_method: 'qris', amount: 10000 });
   * const [failed] = await sandbox.advanceClock(15 * 60_000); // qris charges expire after 15 minutes
   * failed?.data.id === charge.id; // true
   * ```
   */
  advanceClock(ms: number): Promise<readonly SandboxEvent[]>;
  /**
   * The sandbox's time, as ISO 8601 UTC: the `now` option's time (or the real
   * clock's) plus every {@link Sandbox.advanceClock} so far. Every timestamp
   * it serves comes from it, and a charge's `expires_at` must come after it.
   *
   * @throws {@link SandboxError} once the sandbox is closed.
   * @throws `TypeError` when the `now` option's clock has moved past `9999-01-01T00:00:00.000Z`.
   *
   * @example
   * ```ts
   * await sandbox.advanceClock(24 * 60 * 60_000);
   * const expires_at = new Date(Date.parse(sandbox.now()) + 60 * 60_000); // an hour from the sandbox's now
   * ```
   */
  now(): string;
  /**
   * Creates `count` charges at once, for pagination tests, without events.
   * The template is merged over `{ payment_method: 'qris', amount: 10000 }` and
   * validated by the same rules as `POST /v1/payments/charges`; an invalid
   * template throws a `TypeError` carrying the field messages.
   *
   * @throws `TypeError` when `count` is not a non-negative integer or the template is invalid.
   * @throws {@link SandboxError} once the sandbox is closed.
   *
   * @example
   * ```ts
   * sandbox.seedCharges(1_050, { payment_method: 'virtual_account', amount: '25000.00' });
   * ```
   */
  seedCharges(count: number, template?: Partial<ChargeCreateBody>): void;
  /**
   * Puts `payouts` at the head of `GET /v1/payouts`, in the order given (as
   * the newest), the way payouts made while a client walks the list arrive.
   * Throws a `TypeError` unless every payout is a plain object.
   *
   * @throws `TypeError` unless every payout is a plain object.
   * @throws {@link SandboxError} once the sandbox is closed.
   *
   * @example
   * ```ts
   * sandbox.addPayouts([{ id: 'po_new', amount: '1000.00' }]);
   * ```
   */
  addPayouts(payouts: Record<string, unknown>[]): void;
  /**
   * Every event recorded so far, oldest first (copies). Events are all kept
   * (at most two a charge: its creation and its end), so
   * {@link Sandbox.redeliver} finds any of them.
   */
  readonly events: readonly SandboxEvent[];
  /**
   * The requests received, oldest first, whatever became of them (copies):
   * the newest 10,000, so a sandbox serving for days holds no more.
   */
  readonly requests: readonly RecordedRequest[];
  /**
   * Failed webhook attempts (network error, timeout, non-2xx answer, a
   * handler's throw) across every delivery: the attempts in
   * {@link Sandbox.deliveries} with `ok: false`, and those of deliveries no
   * longer kept. It grows with each failed retry; a delivery the sandbox gave
   * up on has `state: 'failed'`.
   */
  readonly webhookFailures: number;
  /**
   * The webhook deliveries, oldest first (copies): the event, each attempt's
   * start, status or error and duration, and the delivery's state. The newest
   * 10,000 are kept, and every one still pending beyond them until it
   * settles (the oldest settled ones go first). Empty without
   * {@link SandboxOptions.webhookUrl} or {@link SandboxOptions.webhook}.
   *
   * @example
   * ```ts
   * const mine = sandbox.deliveries.filter((delivery) => delivery.event.data.id === charge.id);
   * ```
   */
  readonly deliveries: readonly WebhookDelivery[];
  /**
   * Delivers a recorded event again, as a new delivery (`redelivery: true`)
   * with its own retries; `times` and `concurrently` produce duplicates on
   * purpose, to test a receiver's exactly-once handling. Any recorded event,
   * also one whose earlier deliveries the log no longer keeps. Throws a
   * {@link SandboxError} when no event has that id or there is no webhook
   * receiver (URL or handler), and a `TypeError` for invalid options.
   *
   * @throws {@link SandboxError} for an unknown event id, without a webhook receiver, or once the sandbox is closed.
   * @throws `TypeError` when `options` are invalid or name an unknown option.
   *
   * @example
   * ```ts
   * const [created] = sandbox.events;
   * sandbox.redeliver(created.id, { times: 2, concurrently: true }); // two at once
   * await sandbox.webhooksSettled();
   * ```
   */
  redeliver(eventId: string, options?: RedeliverOptions): void;
  /**
   * Holds new events unsent (they are not in `deliveries` yet) until
   * {@link Sandbox.releaseWebhooks}, so they can be delivered out of order.
   * {@link Sandbox.redeliver} is not held.
   *
   * @throws {@link SandboxError} without a webhook receiver (URL or handler), or once the sandbox is closed.
   */
  holdWebhooks(): void;
  /**
   * Delivers the held events and stops holding: one at a time (each when the
   * previous is delivered or failed) in the order asked, or all at once.
   *
   * @throws {@link SandboxError} without a webhook receiver (URL or handler), or once the sandbox is closed.
   * @throws `TypeError` when `options` are invalid or name an unknown option.
   *
   * @example
   * ```ts
   * sandbox.holdWebhooks();
   * await sandbox.payCharge(charge.id);
   * sandbox.releaseWebhooks({ order: 'reversed' }); // succeeded arrives before created
   * await sandbox.webhooksSettled();
   * ```
   */
  releaseWebhooks(options?: ReleaseWebhooksOptions): void;
  /**
   * Resolves when no delivery is pending, retries included: at once when none
   * is, and at `close()` (which abandons what is pending). Never rejects:
   * failures are in {@link Sandbox.deliveries}. Held events are not waited for.
   * The retry waits keep the process alive while this is awaited, and only
   * then: a sandbox left open with a retry pending lets its process exit.
   *
   * @example
   * ```ts
   * await sandbox.payCharge(charge.id);
   * await sandbox.webhooksSettled();
   * expect(sandbox.deliveries.map((delivery) => delivery.state)).toEqual(['delivered', 'delivered']);
   * ```
   */
  webhooksSettled(): Promise<void>;
  /**
   * Every charge, oldest first, as retrieve serves it (due expiries swept
   * first), seeded ones included: built afresh on each call, so the caller's to
   * change.
   *
   * @throws {@link SandboxError} once the sandbox is closed.
   */
  charges(): readonly ChargeRecord[];
  /**
   * Every stored transfer, oldest first, in wire shape.
   *
   * @throws {@link SandboxError} once the sandbox is closed.
   */
  transfers(): readonly TransferRecord[];
  /**
   * Arms a fault; faults are matched in the order armed and each matching
   * request uses up one hit of the first match. Throws a `TypeError` for an
   * invalid fault: a field its kind does not have (naming the closest one),
   * a `method` or `path` that could match no request, `headers` that could
   * not be sent.
   *
   * @throws `TypeError` for an invalid fault, or a field its kind does not have (naming the closest one).
   * @throws {@link SandboxError} once the sandbox is closed.
   *
   * @example
   * ```ts
   * sandbox.inject({ kind: 'status', status: 503, times: 2 });
   * sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers' });
   * ```
   */
  inject(fault: Fault): void;
  /**
   * Disarms every fault.
   *
   * @throws {@link SandboxError} once the sandbox is closed.
   */
  clearFaults(): void;
  /**
   * Stops the server and destroys open connections, hung ones included (in
   * process: requests not yet answered reject with a `TypeError`, as a cut
   * connection does). Safe to call twice. Pending webhook deliveries become
   * `abandoned` (an attempt in flight is aborted, no retry comes) and held
   * events are dropped. The expiry timer is cleared. (Left open, a sandbox's
   * expiry and retry timers keep no process alive: they are `unref`'d; what
   * {@link startSandbox} listens on does, until this.) The helpers then throw a
   * {@link SandboxError}.
   */
  close(): Promise<void>;
}

/**
 * A sandbox in process, returned by {@link createSandbox}: the helpers of
 * {@link Sandbox}, no port, and a `fetch` that answers requests to
 * {@link Sandbox.url} (`https://sandbox.lunas.invalid`) without a network.
 * @category Testing
 */
export interface InProcessSandbox extends Sandbox {
  /**
   * A fetch-compatible function serving this sandbox: for
   * `new Client({ fetch: sandbox.fetch, baseURL: sandbox.url, apiKey: sandbox.apiKey })`,
   * an msw handler or a Worker's test. It honours `init.signal` (rejecting
   * with its reason), and the faults act as a network would: `drop` and
   * `lost-response` reject with a `TypeError` like `fetch`, `hang` settles
   * only when the signal aborts or the sandbox closes, `delay` waits on a
   * timer (so fake timers move it). A URL of another origin rejects with a
   * {@link SandboxError}, and nothing is recorded.
   *
   * @example
   * ```ts
   * import { http } from 'msw';
   *
   * const handlers = [http.all('https://sandbox.lunas.invalid/*', ({ request }) => sandbox.fetch(request))];
   * ```
   */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
}
