/** The options of {@link startSandbox}: their names, their checks and their defaults. */
import {
  DEFAULT_ACCOUNTS,
  DEFAULT_API_KEY,
  DEFAULT_PAYMENT_METHODS,
  DEFAULT_PAYOUTS,
  DEFAULT_SOURCE_ACCOUNT,
} from './defaults.js';
import { checkOptionNames } from './option-names.js';
import { isPlainObject } from './rules.js';
import type { SandboxAccount } from './types.js';

/**
 * Options of {@link startSandbox}; every one has a default.
 * @category Testing
 */
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

/** Every option of a sandbox, with its default in place of what was left out. */
interface SandboxSettings {
  apiKey: string;
  port: number;
  accounts: readonly SandboxAccount[];
  /** The caller's own account (the ledger refuses one that is not among `accounts`). */
  account: string;
  payouts: readonly Record<string, unknown>[];
  paymentMethods: readonly Record<string, unknown>[];
  webhookUrl: string | undefined;
  now: () => Date;
}

/**
 * Checks the options of {@link startSandbox} by name and by value, throwing a
 * `TypeError` for the first problem, and fills in the defaults.
 */
export function readOptions(given: SandboxOptions | undefined): SandboxSettings {
  // `null`, JavaScript's "nothing", counts as no options.
  if (typeof (given ?? {}) !== 'object' || Array.isArray(given)) throw new TypeError('options must be an object');
  const options = checkOptionNames(given ?? {}, SANDBOX_OPTION_NAMES) as SandboxOptions;
  assertOptions(options);
  const accounts = options.accounts ?? DEFAULT_ACCOUNTS;
  const account =
    options.account ??
    (accounts.some(({ id }) => id === DEFAULT_SOURCE_ACCOUNT) ? DEFAULT_SOURCE_ACCOUNT : (accounts[0]?.id ?? ''));
  return {
    apiKey: options.apiKey ?? DEFAULT_API_KEY,
    port: options.port ?? 0,
    accounts,
    account,
    payouts: options.payouts ?? DEFAULT_PAYOUTS,
    paymentMethods: options.paymentMethods ?? DEFAULT_PAYMENT_METHODS,
    webhookUrl: options.webhookUrl,
    now: options.now ?? (() => new Date()),
  };
}
