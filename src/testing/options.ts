/** The options of {@link startSandbox} and {@link createSandbox}: their names, their checks and their defaults. */
import {
  DEFAULT_ACCOUNTS,
  DEFAULT_API_KEY,
  DEFAULT_PAYMENT_METHODS,
  DEFAULT_PAYOUTS,
  DEFAULT_SOURCE_ACCOUNT,
  DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
} from './defaults.js';
import type { WebhookAttemptListener, WebhookHandler } from './webhooks/delivery-types.js';
import { readNewAccount } from './control/account-input.js';
import { checkOptionNames } from './option-names.js';
import { isPlainObject } from './service/rules.js';
import type { SandboxAccount } from './types.js';
import { kindOf } from './webhooks/handler-call.js';
import { hasReadableCredentials } from './webhooks/webhook.js';

/**
 * Options of {@link startSandbox}; every one has a default.
 * @category Testing
 */
export interface SandboxOptions {
  /** The one valid API key, at least 12 characters (as the SDK requires). Default `'sk_test_sandbox'`. */
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
   * When set, each event is POSTed here (an absolute `http:` or `https:` URL)
   * as JSON with a `lunas-event-id` header, and retried on
   * `webhookRetryDelaysMs` until a 2xx answer. Every delivery is recorded in
   * {@link Sandbox.deliveries}; a failing receiver never breaks the API.
   * A `URL` object is taken as its `href`. A user name and password in it
   * (`http://alice:secret@127.0.0.1:3000/hooks`, percent-encoded UTF-8) are
   * sent as `Authorization: Basic …` to the URL without them, and the
   * password is never shown in what the sandbox records or prints.
   * Not with {@link SandboxOptions.webhook}: one receiver per sandbox.
   */
  webhookUrl?: string | URL;
  /**
   * A receiver in your test's own process instead of a URL: a fetch-style
   * function (`(request: Request) => Response | Promise<Response>`) such as a
   * Hono app's `app.fetch` or a Next.js route's `POST`. Each event reaches it
   * as `POST https://sandbox.lunas.invalid/webhook` with the JSON body and
   * headers a URL gets, with the same retries, time limit and records in
   * {@link Sandbox.deliveries}; no port is opened for it. What it throws, and
   * an answer that is not a `Response`, is a failed attempt recorded with what
   * happened. Not with {@link SandboxOptions.webhookUrl} (a `TypeError`).
   *
   * @example
   * ```ts
   * const sandbox = createSandbox({ webhook: app.fetch, webhookRetryDelaysMs: [10] });
   * ```
   */
  webhook?: WebhookHandler;
  /**
   * The waits before each retry of a failed delivery (network error, timeout,
   * non-2xx answer), in milliseconds; its length is the number of retries.
   * Default `[1000, 5000, 30000, 120000]`: five attempts, the last about 2.6
   * minutes after the first. `[]` never retries. Tests pass short ones, e.g. `[10, 10]`.
   */
  webhookRetryDelaysMs?: readonly number[];
  /** How long one attempt may take before it counts as failed (timed out), in milliseconds. Default 10000. */
  webhookTimeoutMs?: number;
  /**
   * Called after every delivery attempt with a copy of the delivery. The
   * sandbox prints nothing itself; the `lunas-sandbox` command prints its
   * lines from this. What the function throws is ignored.
   *
   * @example
   * ```ts
   * const sandbox = await startSandbox({
   *   webhookUrl: 'http://127.0.0.1:3000/webhooks',
   *   onWebhookAttempt: (delivery) => console.log(delivery.eventType, delivery.state),
   * });
   * ```
   */
  onWebhookAttempt?: WebhookAttemptListener;
  /**
   * Your clock, for every timestamp and for charge expiry. Default: the real
   * clock, on which a pending charge expires by itself at its `expires_at`
   * (a timer wakes the sandbox). With your clock, time moves only when you
   * move it: {@link Sandbox.advanceClock} adds to what `now()` returns (the
   * sandbox's time is `now()` plus every advance so far) and expires what
   * falls due; moving your own clock expires charges at the next read or
   * change of a charge (a request, a helper). It must return a valid `Date`
   * from year 0000 to `9999-01-01T00:00:00.000Z`, the sandbox's latest time
   * (advances included). Outside it, starting the sandbox throws a
   * `TypeError`; once started, its helpers throw one and its requests answer 500.
   *
   * @example
   * ```ts
   * let now = new Date('2025-01-01T00:00:00Z');
   * const sandbox = await startSandbox({ now: () => now });
   * // ... create a qris charge, then either:
   * await sandbox.advanceClock(16 * 60_000); // past its 15-minute expiry: payment_charge.failed is sent
   * // or move your clock, and read the charge:
   * now = new Date(now.getTime() + 16 * 60_000);
   * ```
   */
  now?: () => Date;
}

/**
 * Options of {@link createSandbox}: those of {@link startSandbox} but `port`,
 * since an in-process sandbox listens on none.
 * @category Testing
 */
export type InProcessSandboxOptions = Omit<SandboxOptions, 'port'>;

/** How a sandbox is served: on a port of 127.0.0.1, or in process through its `fetch`. */
type Serving = 'listening' | 'in-process';

/** The names of {@link SandboxOptions}; the compiler keeps it in step with the interface. */
const SANDBOX_OPTION_NAMES = Object.keys({
  apiKey: 0,
  port: 0,
  accounts: 0,
  account: 0,
  payouts: 0,
  paymentMethods: 0,
  webhookUrl: 0,
  webhook: 0,
  webhookRetryDelaysMs: 0,
  webhookTimeoutMs: 0,
  onWebhookAttempt: 0,
  now: 0,
} satisfies Record<keyof SandboxOptions, 0>) as (keyof SandboxOptions)[];

function assertOptions(options: SandboxOptions): void {
  const { apiKey, port, accounts, payouts, paymentMethods, now } = options;
  if (apiKey !== undefined && !(typeof apiKey === 'string' && /^[\x21-\x7e]+$/.test(apiKey))) {
    throw new TypeError('apiKey must be a non-empty string of printable ASCII without spaces');
  }
  // lunas-sdk's Client refuses a key under 12 characters, so a sandbox with one could not be called.
  if (apiKey !== undefined && apiKey.length < 12) {
    throw new TypeError('apiKey must be at least 12 characters, as lunas-sdk requires of an API key');
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
      // What addAccount refuses, refused here too: a misspelt field, a non-boolean active, money the SDK would not send.
      try {
        readNewAccount(account);
      } catch (error) {
        throw new TypeError(`Account ${account.id}: ${(error as Error).message}`);
      }
      if (typeof account.balance !== 'string') {
        throw new TypeError(
          `Account ${account.id}: balance must be a decimal string of at least 0 with at most two decimals, like "1000.00"`,
        );
      }
    }
  }
  if (payouts !== undefined) assertObjectList('payouts', payouts);
  if (paymentMethods !== undefined) assertObjectList('paymentMethods', paymentMethods);
  assertWebhookOptions(options);
  if (now !== undefined && typeof now !== 'function') throw new TypeError('now must be a function returning a Date');
}

/** Refuses `items` unless it is an array of plain objects: the payouts and payment methods served as given. */
export function assertObjectList(name: 'payouts' | 'paymentMethods', items: unknown): void {
  if (!(Array.isArray(items) && items.every(isPlainObject))) throw new TypeError(`${name} must be an array of objects`);
}

/** The longest wait the sandbox schedules: an hour (a real service's longer ones would outlive any test). */
const MAX_RETRY_DELAY_MS = 3_600_000;

function assertWebhookOptions({
  webhookUrl,
  webhook,
  webhookRetryDelaysMs,
  webhookTimeoutMs,
  onWebhookAttempt,
}: SandboxOptions) {
  if (webhook !== undefined && typeof webhook !== 'function') {
    throw new TypeError(
      `webhook must be a function taking a Request and answering a Response (such as a Hono app's fetch), not ${kindOf(webhook)}` +
        (typeof webhook === 'string' || (webhook as unknown) instanceof URL ? ': a URL goes in webhookUrl' : ''),
    );
  }
  if (webhook !== undefined && webhookUrl !== undefined) {
    throw new TypeError(
      'webhook and webhookUrl cannot both be given: a sandbox delivers to one receiver, a function in process (webhook) or a URL (webhookUrl)',
    );
  }
  if (webhookUrl !== undefined && !isWebhookUrl(webhookUrl)) {
    throw new TypeError('webhookUrl must be an absolute http: or https: URL');
  }
  // Never quoted: the URL may carry a password.
  if (webhookUrl !== undefined && !hasReadableCredentials(webhookUrl instanceof URL ? webhookUrl.href : webhookUrl)) {
    throw new TypeError(webhookCredentialsMessage('webhookUrl'));
  }
  const isDelay = (ms: unknown) => Number.isInteger(ms) && (ms as number) >= 0 && (ms as number) <= MAX_RETRY_DELAY_MS;
  if (
    webhookRetryDelaysMs !== undefined &&
    !(Array.isArray(webhookRetryDelaysMs) && webhookRetryDelaysMs.length <= 20 && webhookRetryDelaysMs.every(isDelay))
  ) {
    throw new TypeError(`webhookRetryDelaysMs must be an array of at most 20 integers from 0 to ${MAX_RETRY_DELAY_MS}`);
  }
  if (webhookTimeoutMs !== undefined && !(isDelay(webhookTimeoutMs) && webhookTimeoutMs > 0)) {
    throw new TypeError(`webhookTimeoutMs must be an integer from 1 to ${MAX_RETRY_DELAY_MS}`);
  }
  if (onWebhookAttempt !== undefined && typeof onWebhookAttempt !== 'function') {
    throw new TypeError('onWebhookAttempt must be a function');
  }
}

/** Why a webhook URL's credentials are refused; `name` is the option or flag that gave it. */
export const webhookCredentialsMessage = (name: string): string =>
  `${name}'s user name and password must be percent-encoded UTF-8 (write % as %25)`;

/** An absolute `http:` or `https:` URL (the command line checks `--webhook-url` with it too). */
export function isWebhookUrl(url: unknown): url is string | URL {
  const text = url instanceof URL ? url.href : url;
  return typeof text === 'string' && URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);
}

/** Every option of a sandbox, with its default in place of what was left out. */
export interface SandboxSettings {
  apiKey: string;
  port: number;
  accounts: readonly SandboxAccount[];
  /** The caller's own account (the ledger refuses one that is not among `accounts`). */
  account: string;
  payouts: readonly Record<string, unknown>[];
  paymentMethods: readonly Record<string, unknown>[];
  webhookUrl: string | undefined;
  webhook: WebhookHandler | undefined;
  webhookRetryDelaysMs: readonly number[];
  webhookTimeoutMs: number;
  onWebhookAttempt: WebhookAttemptListener | undefined;
  /** The caller's clock; `undefined` for the real one, which alone moves by itself (expiry timers). */
  now: (() => Date) | undefined;
}

/**
 * Checks the options of {@link startSandbox} or {@link createSandbox} by name
 * and by value, throwing a `TypeError` for the first problem, and fills in the
 * defaults.
 */
export function readOptions(given: SandboxOptions | undefined, serving: Serving = 'listening'): SandboxSettings {
  const inProcess = serving === 'in-process';
  // Only an object can name port; anything else is refused as not one, below.
  if (inProcess && isPlainObject(given) && Object.prototype.propertyIsEnumerable.call(given, 'port')) {
    throw new TypeError(
      'createSandbox() takes no port: it listens on none and answers in process through sandbox.fetch. ' +
        'Leave port out, or call startSandbox({ port }) to serve on 127.0.0.1',
    );
  }
  const names = inProcess ? SANDBOX_OPTION_NAMES.filter((name) => name !== 'port') : SANDBOX_OPTION_NAMES;
  // `null`, JavaScript's "nothing", counts as no options.
  const options = checkOptionNames(given ?? {}, names, 'options must be an object') as SandboxOptions;
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
    webhookUrl: options.webhookUrl instanceof URL ? options.webhookUrl.href : options.webhookUrl,
    webhook: options.webhook,
    webhookRetryDelaysMs: [...(options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS)],
    webhookTimeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    onWebhookAttempt: options.onWebhookAttempt,
    now: options.now,
  };
}
