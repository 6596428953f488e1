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
import { closedError, SandboxError } from './errors.js';
import { EventLog } from './events.js';
import { FaultQueue } from './faults.js';
import { IdSource } from './ids.js';
import { Ledger } from './ledger.js';
import { readOptions, type SandboxOptions } from './options.js';
import { checkCharge, isPlainObject } from './rules.js';
import type { Sandbox } from './sandbox.js';
import { HOST, SandboxServer } from './server.js';
import type { RecordedRequest } from './types.js';
import { WebhookSender } from './webhook.js';

export { SandboxError };
export type { Fault, FaultKind, FaultTarget } from './faults.js';
export type { SandboxOptions } from './options.js';
export type { Sandbox } from './sandbox.js';
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

/**
 * Starts a sandbox on 127.0.0.1 and resolves once it is listening.
 *
 * @see [Testing your integration](../../docs/testing.md) and [The sandbox](../../docs/sandbox.md), the guides
 * Rejects when the options are invalid, an option's name is unknown (with
 * the closest known name), or the port is taken.
 *
 * @throws `TypeError` when an option is invalid, or unknown (naming the closest known one).
 * @throws The server's listen error (`EADDRINUSE`) when `options.port` is taken.
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
 * @category Testing
 */
export async function startSandbox(given?: SandboxOptions): Promise<Sandbox> {
  const { apiKey, now, webhookUrl, ...settings } = readOptions(given);
  const ids = new IdSource();
  const webhook = webhookUrl === undefined ? undefined : new WebhookSender(webhookUrl);
  const events = new EventLog(now, ids, webhook && ((event) => webhook.send(event)));
  const charges = new ChargeBook(now, ids, events);
  const ledger = new Ledger(settings.accounts, settings.account, now, ids);
  const faults = new FaultQueue();
  const requests: RecordedRequest[] = [];
  const state = {
    baseUrl: '',
    ledger,
    charges,
    // Mutable: addPayouts puts new ones at its head.
    payouts: structuredClone([...settings.payouts]),
    paymentMethods: structuredClone(settings.paymentMethods),
  };
  const server = new SandboxServer({ apiKey, ids, state, faults, requests });
  const port = await server.listen(settings.port);
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
