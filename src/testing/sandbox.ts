/** The handle of a running sandbox, the object {@link startSandbox} resolves to. */
import type { Fault } from './faults.js';
import type { ChargeCreateBody, ChargeRecord, RecordedRequest, SandboxEvent, TransferRecord } from './types.js';

/**
 * A running sandbox, returned by {@link startSandbox}. After {@link Sandbox.close},
 * every helper that reads or changes its state (`balance`, `payCharge`,
 * `failCharge`, `seedCharges`, `addPayouts`, `transfers`, `inject`, `clearFaults`) throws a
 * {@link SandboxError}; the records of what happened (`events`, `requests`,
 * `webhookFailures`) stay readable for assertions.
 *
 * @see [The sandbox](../../docs/sandbox.md), the guide
 * @category Testing
 */
export interface Sandbox {
  /** Base URL, `http://127.0.0.1:PORT`, with no trailing slash. */
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
  /** Every event recorded so far, oldest first (a copy). */
  readonly events: readonly SandboxEvent[];
  /** Every request received so far, oldest first, whatever became of it (a copy). */
  readonly requests: readonly RecordedRequest[];
  /** Deliveries to {@link SandboxOptions.webhookUrl} that failed: network error, timeout or non-2xx answer. */
  readonly webhookFailures: number;
  /**
   * Every stored transfer, oldest first, in wire shape.
   *
   * @throws {@link SandboxError} once the sandbox is closed.
   */
  transfers(): readonly TransferRecord[];
  /**
   * Arms a fault; faults are matched in the order armed and each matching
   * request uses up one hit of the first match. Throws a `TypeError` for an
   * invalid fault.
   *
   * @throws `TypeError` for an invalid fault.
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
   * Stops the server and destroys open connections, hung ones included. Safe
   * to call twice. The helpers then throw a {@link SandboxError}.
   */
  close(): Promise<void>;
}
