/**
 * A merchant's code, type-checked and never run. `npm run check:types`
 * compiles it against the packed tarball (bundler, node16 and node10
 * resolution, `--strict`, no `skipLibCheck`); `npm run typecheck` compiles it
 * against the source. Every `@ts-expect-error` line is a bug the types must
 * catch: if one ever compiles, the directive is unused and tsc fails.
 */
import {
  type Charge,
  type ChargeCreateParams,
  type ChargeStatus,
  Client,
  type CreatedCharge,
  getResponseInfo,
  idempotencyKeyFor,
  isChargeEvent,
  LunasError,
  parseEvent,
  type Payout,
  RateLimitError,
  type Transfer,
  type TransferStatus,
} from 'lunas-sdk';
import { instrumentLunas } from 'lunas-sdk/otel';
import { createSandbox, startSandbox } from 'lunas-sdk/testing';
import { undiciFetch } from 'lunas-sdk/undici';

declare function fulfil(orderId: string): void;
declare function warn(message: string): void;

/** The four bugs of the issue: each compiled silently while types were open. */
export async function typos(client: Client, id: string): Promise<void> {
  const charge = await client.charges.retrieve(id);
  // @ts-expect-error: a misspelt field
  if (charge.stauts === 'success') fulfil(id);
  // @ts-expect-error: the field is paid_at
  if (charge.paidAt) fulfil(id);
  // @ts-expect-error: only the create response carries the QR code
  void (await client.charges.retrieve(id)).qr_code_url;

  const transfer = await client.transfers.create({ destination_account_id: 'acc_partner', amount: 1, currency: 'idr' });
  // @ts-expect-error: transfers say 'succeeded'; 'success' is a charge status
  if (transfer.status === 'success') fulfil(id);
  // @ts-expect-error: a value no charge status can take
  if (charge.status === 'paid') fulfil(id);
  // @ts-expect-error: request fields are the wire names
  await client.charges.create({ payment_method: 'qris', amount: 1, clientReferenceId: 'order-1' });
  // @ts-expect-error: not a payment method
  await client.charges.create({ payment_method: 'card', amount: 1 });
  const va = await client.charges.create({ payment_method: 'virtual_account', amount: 1 });
  // @ts-expect-error: a misspelt account_number, which the buyer would never see
  warn(va.payment_method_options?.virtual_account?.acount_number);
}

/** Webhook mistakes: acting on the event's unchecked data, a Request passed as the body. */
export async function webhookMistakes(client: Client, request: Request): Promise<void> {
  const event = parseEvent(await request.text());
  // @ts-expect-error: the event's data promises only an id; act on the charge confirm reads back
  if (isChargeEvent(event) && event.data.status === 'success') fulfil(event.data.id);
  // @ts-expect-error: the event id is optional and unchecked, not a string to key on blindly
  const eventId: string = event.id;
  // @ts-expect-error: a Request is not its body: pass await request.text()
  await client.webhooks.confirm(request);
  void eventId;
}

/** A job's transfer: the key made from the job's id, which a job engine types as possibly undefined. */
export async function jobMistakes(client: Client, jobId: string | undefined): Promise<number | undefined> {
  // @ts-expect-error: a job without an id has no key; check the id first
  await idempotencyKeyFor(jobId);
  // @ts-expect-error: a key names an operation: at least one part
  await idempotencyKeyFor();
  try {
    const idempotencyKey = await idempotencyKeyFor(jobId ?? 'settlement', 'payout');
    await client.transfers.create({ destination_account_id: 'acc_a', amount: 1, currency: 'idr' }, { idempotencyKey });
  } catch (error) {
    if (error instanceof RateLimitError) return error.retryAfterMs;
    if (error instanceof LunasError && error.outcomeUnknown) throw error;
  }
  return undefined;
}

/** The right uses, which must compile. */
export async function rightUses(client: Client, orderId: string): Promise<string[]> {
  const params: ChargeCreateParams = {
    payment_method: 'qris',
    amount: '25000.00',
    client_reference_id: orderId,
    expires_at: new Date(),
    items: [{ name: 'Iced tea', price: 12_500, quantity: 2 }],
  };
  const created: CreatedCharge = await client.charges.create(params);
  const qrCode: string | undefined = created.qr_code_url;
  const paymentPage: string = created.payment_url;
  // The number a buyer of a virtual_account charge transfers to: typed, no `in` and no cast.
  const accountNumber: string | null | undefined = created.payment_method_options?.virtual_account?.account_number;

  const charge: Charge = await client.charges.retrieve(created.id);
  if (charge.status === 'success' && charge.paid_at !== null) fulfil(orderId);
  const amount: string = charge.amount;
  const status: ChargeStatus = charge.status;
  const customerName: string | null | undefined = charge.customer_details?.name;

  // A field this version of the types does not know: narrow with `in`, then check its type.
  const refundId = 'refund_id' in charge && typeof charge.refund_id === 'string' ? charge.refund_id : undefined;

  const transfer: Transfer = await client.transfers.create(
    { destination_account_id: 'acc_partner', amount: 125_000, currency: 'idr' },
    { idempotencyKey: `settle-${orderId}` },
  );
  const settled: boolean = transfer.status === 'succeeded';
  const transferStatus: TransferStatus = transfer.status;

  for await (const payout of client.payouts.list({ pagesize: 100 })) {
    const payoutId: unknown = (payout satisfies Payout).id;
    if (typeof payoutId === 'string') warn(payoutId);
  }

  // Reconciliation: walk back to a time, on the lists documented newest first only.
  const yesterday = new Date(Date.now() - 86_400_000);
  for await (const recent of client.charges.list({ pagesize: 100 }).since(yesterday)) warn(recent.created_at);
  const recentTransfers: Transfer[] = await client.transfers
    .list()
    .since('2026-01-01T00:00:00Z')
    .toArray({ limit: 10 });
  warn(String(recentTransfers.length));
  // @ts-expect-error: payout items document no created_at, so no walk since a time
  client.payouts.list().since(yesterday);
  // @ts-expect-error: nor do payment methods
  client.paymentMethods.list().since(yesterday);

  // A webhook: the event is a hint; act on the charge confirm reads back, as the webhook guide says.
  const body = '{"type":"payment_charge.succeeded","data":{"id":"ch_1"}}';
  const event = parseEvent(body);
  if (isChargeEvent(event)) warn(`event for ${event.data.id}`);
  const { charge: confirmed } = await client.webhooks.confirm(body);
  if (confirmed?.status === 'success') fulfil(confirmed.id);

  const requestId: string | undefined = getResponseInfo(charge)?.requestId;
  return [
    qrCode,
    paymentPage,
    accountNumber,
    amount,
    status,
    customerName,
    refundId,
    String(settled),
    transferStatus,
    requestId,
  ].filter((value): value is string => typeof value === 'string');
}

/** A switch over status, as the Charges guide shows it: exhaustive at compile time, safe for a status added later. */
export function onCharge(charge: Charge): void {
  switch (charge.status) {
    case 'success':
      fulfil(charge.id);
      break;
    case 'failed':
      warn(`charge ${charge.id} failed`);
      break;
    case 'pending':
      break;
    default: {
      // Never reached by the types; reached at run time by a status newer than this lunas.
      const unknownStatus: never = charge.status;
      warn(`charge ${charge.id}: unknown status ${String(unknownStatus)}, not fulfilled`);
    }
  }
}

/** Known values narrow a status; a value the types do not know yet is compared as a string, on purpose. */
export function isRefunded(charge: Charge): boolean {
  return (charge.status as string) === 'refunded';
}

/** The whole object, unknown fields included, for code that takes any record. */
export function toRecord(charge: Charge): Record<string, unknown> {
  const record: Record<string, unknown> = { ...charge };
  return record;
}

/** The sandbox entry point's declarations are checked too. */
export async function withSandbox(): Promise<string> {
  const sandbox = await startSandbox({ port: 0 });
  try {
    const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url });
    const charge = await client.charges.create({ payment_method: 'virtual_account', amount: 1 });
    await sandbox.payCharge(charge.id);
    return sandbox.balance('acc_merchant');
  } finally {
    await sandbox.close();
  }
}

/** createSandbox's fetch is a Client's fetch option; its options have no port. */
export async function withInProcessSandbox(): Promise<string> {
  const sandbox = createSandbox({ apiKey: 'sk_test_types' });
  const client = new Client({ fetch: sandbox.fetch, baseURL: sandbox.url, apiKey: sandbox.apiKey });
  const charge = await client.charges.create({ payment_method: 'qris', amount: 1 });
  // @ts-expect-error an in-process sandbox listens on no port
  createSandbox({ port: 0 });
  await sandbox.close();
  return charge.id;
}

/** Webhook deliveries: the records are typed, and the helpers' options closed. */
export async function withDeliveries(): Promise<string[]> {
  const sandbox = await startSandbox({ webhookUrl: 'http://127.0.0.1:3000/hooks', webhookRetryDelaysMs: [10] });
  try {
    sandbox.holdWebhooks();
    // @ts-expect-error: the orders are 'recorded' and 'reversed'
    sandbox.releaseWebhooks({ order: 'shuffled' });
    // @ts-expect-error: the option is `times`
    sandbox.redeliver('evt_1', { count: 2 });
    await sandbox.webhooksSettled();
    return sandbox.deliveries.map((delivery) => `${delivery.eventType} ${delivery.state}`);
  } finally {
    await sandbox.close();
  }
}

/** lunas-sdk/otel and lunas-sdk/undici, each with its peer installed beside the package (mcp-consumer.ts: lunas-sdk/mcp). */
export function optionalEntryPoints(): () => void {
  const client = new Client({ apiKey: 'sk_test_types', fetch: undiciFetch });
  // @ts-expect-error: the option is `tracerProvider`
  instrumentLunas({ tracer: undefined });
  void client;
  return instrumentLunas();
}
