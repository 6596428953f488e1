/**
 * `lunas-sdk/testing`: an in-memory implementation of the lunas payments service,
 * served over real HTTP on 127.0.0.1 ({@link startSandbox}) or in process
 * through a fetch function ({@link createSandbox}), for integration tests.
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
import { assembleSandbox } from './assemble.js';
import { SandboxError } from './errors.js';
import { InProcessTransport, IN_PROCESS_URL } from './transport/in-process.js';
import { readOptions, type InProcessSandboxOptions, type SandboxOptions } from './options.js';
import type { InProcessSandbox, Sandbox } from './sandbox.js';

export { SandboxError };
export type {
  RedeliverOptions,
  ReleaseWebhooksOptions,
  WebhookAttempt,
  WebhookAttemptListener,
  WebhookDelivery,
  WebhookDeliveryState,
  WebhookHandler,
} from './webhooks/delivery-types.js';
export type { Fault, FaultKind, FaultTarget } from './transport/faults.js';
export type { InProcessSandboxOptions, SandboxOptions } from './options.js';
export type { InProcessSandbox, Sandbox } from './sandbox.js';
export {
  fakeCharge,
  fakeCreatedCharge,
  fakeTransfer,
  type ChargeOverrides,
  type TransferOverrides,
} from './fakes/factories.js';
export * from './service/envelopes.js';
export type {
  AccountRecord,
  ChargeCreateBody,
  ChargeItemRecord,
  ChargeRecord,
  ChargeStatus,
  NewAccount,
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
export async function startSandbox(options?: SandboxOptions): Promise<Sandbox> {
  const settings = readOptions(options);
  const parts = assembleSandbox(settings);
  // Imported here, not at the top: node:http must not load where only createSandbox is used.
  const { HOST, SandboxServer } = await import('./transport/server.js');
  const server = new SandboxServer(parts.gateway);
  const port = await server.listen(settings.port);
  return parts.handle(`http://${HOST}:${port}`, () => server.close(), 'startSandbox');
}

/**
 * Creates a sandbox in process: the same service and helpers as
 * {@link startSandbox}, no port, and a `fetch` to hand to a client, an msw
 * handler or a Worker's test. Its `url` is `https://sandbox.lunas.invalid`, a
 * name that never resolves, so nothing leaves the process. It works under
 * fake timers and on every runtime with `fetch` (Node.js, Bun, Deno, workerd).
 * Throws a `TypeError` for invalid options, an unknown option's name, or `port`.
 *
 * @example
 * ```ts
 * import { Client } from 'lunas-sdk';
 * import { createSandbox } from 'lunas-sdk/testing';
 *
 * const sandbox = createSandbox();
 * const client = new Client({ fetch: sandbox.fetch, baseURL: sandbox.url, apiKey: sandbox.apiKey });
 * const charge = await client.charges.create({ payment_method: 'qris', amount: 10000 });
 * await sandbox.payCharge(charge.id);
 * await sandbox.close();
 * ```
 * @throws `TypeError` when an option is invalid, unknown (naming the closest known one), or `port`.
 * @category Testing
 */
export function createSandbox(options?: InProcessSandboxOptions): InProcessSandbox {
  const parts = assembleSandbox(readOptions(options, 'in-process'));
  const transport = new InProcessTransport(parts.gateway);
  const handle = parts.handle(IN_PROCESS_URL, () => transport.close(), 'createSandbox');
  return Object.assign(handle, { fetch: transport.fetch });
}
