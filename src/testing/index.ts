/**
 * `lunas-sdk/testing`: an in-memory implementation of the lunas payments service,
 * served over real HTTP on 127.0.0.1, for integration tests.
 *
 * @example
 * ```ts
 * import { startSandbox } from 'lunas-sdk/testing';
 *
 * const sandbox = await startSandbox();
 * const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url });
 * const charge = await client.charges.create({ payment_method: 'qris', amount: 10000 });
 * await sandbox.payCharge(charge.id);
 * await sandbox.close();
 * ```
 *
 * @module lunas-sdk/testing
 */
import { ChargeBook } from './charges.js';
import {
  DEFAULT_ACCOUNTS,
  DEFAULT_API_KEY,
  DEFAULT_PAYMENT_METHODS,
  DEFAULT_PAYOUTS,
  DEFAULT_SOURCE_ACCOUNT,
} from './defaults.js';
import { closedError, SandboxError } from './errors.js';
import { EventLog } from './events.js';
import { FaultQueue, type Fault } from './faults.js';
import { Ledger } from './ledger.js';
import { checkOptionNames } from './option-names.js';
import { checkCharge, isPlainObject } from './rules.js';
import { HOST, SandboxServer } from './server.js';
import type {
  ChargeCreateBody,
  ChargeRecord,
  RecordedRequest,
  SandboxAccount,
  SandboxEvent,
  TransferRecord,
} from './types.js';
import { WebhookSender } from './webhook.js';

export { SandboxError };
export type { Fault, FaultKind, FaultTarget } from './faults.js';
export type {
  ChargeCreateBody,
  ChargeItemRecord,
  ChargeRecord,
  ChargeStatus,
  PaymentMethodType,
  RecordedRequest,
  SandboxAccount,
  SandboxEvent,
  SandboxEventType,
  TransferRecord,
} from './types.js';

/** Options of {@link startSandbox}; every one has a default. */
export interface SandboxOptions {
  /** The one valid API key. Default `'sk_test_sandbox'`. */
  apiKey?: string;
  /** Port on 127.0.0.1; `0` (the default) picks a free one. */
  port?: number;
  /**
   * The platform's accounts. Default: `acc_merchant` ("Merchant", 1000000.00),
   * `acc_partner` ("Partner", 0.00) and the inactive `acc_closed` ("Closed", 0.00).
   */
  accounts?: SandboxAccount[];
  /**
   * The caller's own account: the source of every transfer and the account
   * whose transfers `GET /v1/transfers` lists. Default `acc_merchant` when it
   * exists, else the first account.
   */
  account?: string;
  /** Items served by `GET /v1/payouts`, in the order given (newest first). Default: three example payouts. */
  payouts?: Record<string, unknown>[];
  /** Items served by `GET /v1/payments/methods`, in the order given. Default: QRIS and five virtual-account banks. */
  paymentMethods?: Record<string, unknown>[];
  /**
   * When set, each event is POSTed here as JSON with a `lunas-event-id`
   * header, fire-and-forget: failures are counted in
   * {@link Sandbox.webhookFailures}, never thrown.
   */
  webhookUrl?: string;
  /**
   * The clock for every timestamp and for charge expiry. Default `() => new Date()`.
   *
   * @example
   * ```ts
   * let now = new Date('2025-01-01T00:00:00Z');
   * const sandbox = await startSandbox({ now: () => now });
   * // ... create a qris charge, then:
   * now = new Date(now.getTime() + 16 * 60_000); // past its 15-minute expiry
   * ```
   */
  now?: () => Date;
}

/**
 * A running sandbox, returned by {@link startSandbox}. After {@link Sandbox.close},
 * every helper that reads or changes its state (`balance`, `payCharge`,
 * `failCharge`, `seedCharges`, `addPayouts`, `transfers`, `inject`, `clearFaults`) throws a
 * {@link SandboxError}; the records of what happened (`events`, `requests`,
 * `webhookFailures`) stay readable for assertions.
 */
export interface Sandbox {
  /** Base URL, `http://127.0.0.1:PORT`, with no trailing slash. */
  readonly url: string;
  /** The one valid API key. */
  readonly apiKey: string;
  /**
   * An account's balance, formatted like the wire: `'1000000.00'`.
   * Throws a {@link SandboxError} when there is no such account.
   */
  balance(accountId: string): string;
  /**
   * Simulates the customer paying: a pending charge becomes `success`,
   * `paid_at` is set and `payment_charge.succeeded` is recorded.
   * Rejects with a {@link SandboxError} when the charge does not exist or is
   * not pending (an expired charge reads as failed).
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
   */
  failCharge(id: string): Promise<ChargeRecord>;
  /**
   * Creates `count` charges at once, for pagination tests, without events.
   * The template is merged over `{ payment_method: 'qris', amount: 10000 }` and
   * validated by the same rules as `POST /v1/payments/charges`; an invalid
   * template throws a `TypeError` carrying the field messages.
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
  /** Every stored transfer, oldest first, in wire shape. */
  transfers(): readonly TransferRecord[];
  /**
   * Arms a fault; faults are matched in the order armed and each matching
   * request uses up one hit of the first match. Throws a `TypeError` for an
   * invalid fault.
   *
   * @example
   * ```ts
   * sandbox.inject({ kind: 'status', status: 503, times: 2 });
   * sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers' });
   * ```
   */
  inject(fault: Fault): void;
  /** Disarms every fault. */
  clearFaults(): void;
  /**
   * Stops the server and destroys open connections, hung ones included. Safe
   * to call twice. The helpers then throw a {@link SandboxError}.
   */
  close(): Promise<void>;
}

/** The names of {@link SandboxOptions}; the compiler keeps it in step with the interface. */
const SANDBOX_OPTION_NAMES = Object.keys({
  apiKey: 0,
  port: 0,
  accounts: 0,
  account: 0,
  payouts: 0,
  paymentMethods: 0,
  webhookUrl: 0,
  now: 0,
} satisfies Record<keyof SandboxOptions, 0>) as (keyof SandboxOptions)[];

function assertOptions(options: SandboxOptions): void {
  const { apiKey, port, accounts, webhookUrl, payouts, paymentMethods, now } = options;
  if (apiKey !== undefined && !(typeof apiKey === 'string' && /^[\x21-\x7e]+$/.test(apiKey))) {
    throw new TypeError('apiKey must be a non-empty string of printable ASCII without spaces');
  }
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535)) {
    throw new TypeError('port must be an integer from 0 to 65535');
  }
  if (accounts !== undefined) {
    if (!Array.isArray(accounts) || accounts.length === 0) throw new TypeError('accounts must be a non-empty array');
    for (const account of accounts) {
      if (!isPlainObject(account) || typeof account.id !== 'string' || account.id === '') {
        throw new TypeError('Every account needs a non-empty string id');
      }
      if (typeof account.name !== 'string') throw new TypeError(`Account ${account.id}: name must be a string`);
    }
  }
  for (const [name, items] of [
    ['payouts', payouts],
    ['paymentMethods', paymentMethods],
  ] as const) {
    if (items !== undefined && !(Array.isArray(items) && items.every(isPlainObject))) {
      throw new TypeError(`${name} must be an array of objects`);
    }
  }
  if (webhookUrl !== undefined && !/^https?:$/.test(URL.canParse(webhookUrl) ? new URL(webhookUrl).protocol : '')) {
    throw new TypeError('webhookUrl must be an http: or https: URL');
  }
  if (now !== undefined && typeof now !== 'function') throw new TypeError('now must be a function returning a Date');
}

/**
 * Starts a sandbox on 127.0.0.1 and resolves once it is listening.
 * Rejects when the options are invalid, an option's name is unknown (with
 * the closest known name), or the port is taken.
 *
 * @example
 * ```ts
 * const sandbox = await startSandbox({
 *   accounts: [
 *     { id: 'acc_shop', name: 'Shop', balance: '500.00' },
 *     { id: 'acc_supplier', name: 'Supplier', balance: '0.00' },
 *   ],
 *   account: 'acc_shop',
 * });
 * try {
 *   // point the client at sandbox.url with sandbox.apiKey
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 */
export async function startSandbox(given?: SandboxOptions): Promise<Sandbox> {
  // `null`, JavaScript's "nothing", counts as no options.
  if (typeof (given ?? {}) !== 'object' || Array.isArray(given)) throw new TypeError('options must be an object');
  const options = checkOptionNames(given ?? {}, SANDBOX_OPTION_NAMES) as SandboxOptions;
  assertOptions(options);
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  const accounts = options.accounts ?? DEFAULT_ACCOUNTS;
  const source =
    options.account ??
    (accounts.some((account) => account.id === DEFAULT_SOURCE_ACCOUNT) ? DEFAULT_SOURCE_ACCOUNT : accounts[0]?.id);
  const now = options.now ?? (() => new Date());

  const webhook = options.webhookUrl === undefined ? undefined : new WebhookSender(options.webhookUrl);
  const events = new EventLog(now, webhook && ((event) => webhook.send(event)));
  const charges = new ChargeBook(now, events);
  const ledger = new Ledger(accounts, source ?? '', now);
  const faults = new FaultQueue();
  const requests: RecordedRequest[] = [];
  const state = {
    baseUrl: '',
    ledger,
    charges,
    // Mutable: addPayouts puts new ones at its head.
    payouts: structuredClone([...(options.payouts ?? DEFAULT_PAYOUTS)]),
    paymentMethods: structuredClone(options.paymentMethods ?? DEFAULT_PAYMENT_METHODS),
  };
  const server = new SandboxServer({ apiKey, state, faults, requests });
  const port = await server.listen(options.port ?? 0);
  const url = `http://${HOST}:${port}`;
  state.baseUrl = url;

  let closed = false;
  /** Runs a helper, or refuses once the sandbox is closed: its state went with the server. */
  const whileOpen = <T>(helper: string, act: () => T): T => {
    if (closed) throw closedError(helper);
    return act();
  };

  return {
    url,
    apiKey,
    balance: (accountId) => whileOpen('balance', () => ledger.balance(accountId)),
    payCharge: async (id) => whileOpen('payCharge', () => charges.settle(id, 'success')),
    failCharge: async (id) => whileOpen('failCharge', () => charges.settle(id, 'failed')),
    seedCharges(count, template = {}) {
      whileOpen('seedCharges', () => {
        if (!(Number.isSafeInteger(count) && count >= 0)) throw new TypeError('count must be a non-negative integer');
        const checked = checkCharge({ payment_method: 'qris', amount: 10_000, ...template });
        if (!checked.ok) throw new TypeError(`Invalid charge template: ${JSON.stringify(checked.errors)}`);
        for (let i = 0; i < count; i++) charges.seed(checked.value);
      });
    },
    addPayouts(payouts) {
      whileOpen('addPayouts', () => {
        if (!(Array.isArray(payouts) && payouts.every(isPlainObject))) {
          throw new TypeError('payouts must be an array of objects');
        }
        state.payouts.unshift(...structuredClone(payouts));
      });
    },
    get events() {
      return events.all.slice();
    },
    get requests() {
      return requests.slice();
    },
    get webhookFailures() {
      return webhook?.failures ?? 0;
    },
    transfers: () => whileOpen('transfers', () => ledger.all()),
    inject: (fault) => whileOpen('inject', () => faults.arm(fault)),
    clearFaults: () => whileOpen('clearFaults', () => faults.clear()),
    async close() {
      closed = true;
      webhook?.close();
      await server.close();
    },
  };
}
