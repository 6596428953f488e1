/**
 * A crash-and-rerun test of a reconciliation job, against a sandbox running in
 * another terminal and driven with its command alone: no harness code.
 *
 * The job pays a partner 10% of every paid order, one transfer per order with
 * an Idempotency-Key. Its first run crashes after a transfer went through but
 * before the job wrote that down; the rerun must not pay that share twice.
 * The customer's side (paying, time passing) and the checks (transfers,
 * balance, events) go through `lunas-sandbox` subcommands, as a test in any
 * language could.
 *
 * Run:
 *   npx lunas-sandbox --port 4010                 # in another terminal
 *   LUNAS_BASE_URL=http://127.0.0.1:4010 npx tsx examples/reconcile-with-cli.ts
 * (LUNAS_SANDBOX_CLI names another way to run the command, e.g. from a checkout of lunas.)
 */
import { execFileSync } from 'node:child_process';
import { Client, type CreatedCharge } from 'lunas-sdk';

const [command = 'npx', ...commandArgs] = (process.env.LUNAS_SANDBOX_CLI ?? 'npx lunas-sandbox').split(' ');

/** `lunas-sandbox <args> --json`: what the sandbox's helper returns. LUNAS_BASE_URL and LUNAS_API_KEY find it. */
function sandboxCli<T>(...args: string[]): T {
  return JSON.parse(execFileSync(command, [...commandArgs, ...args, '--json'], { encoding: 'utf8' })) as T;
}

// Money in integer cents, never in floating point (the Charges guide): amounts come as two-decimal strings.
/** `'25000.00'` → `2500000n`. */
const cents = (amount: string): bigint => BigInt(amount.replace('.', ''));
/** `250000n` → `'2500.00'`, as requests take money and responses carry it (not for negative amounts). */
const decimal = (amountInCents: bigint): string =>
  `${amountInCents / 100n}.${(amountInCents % 100n).toString().padStart(2, '0')}`;

const client = new Client({ apiKey: process.env.LUNAS_API_KEY ?? 'sk_test_sandbox' });
const run = Date.now().toString(36); // orders of this run, apart from earlier runs on the same sandbox

// 1. Three orders are checked out; the customer pays two and walks away from the third.
const orders = await Promise.all(
  [25_000, 40_000, 15_000].map((amount, index) =>
    client.charges.create({ payment_method: 'qris', amount, client_reference_id: `order-${run}-${index + 1}` }),
  ),
);
const [first, second, abandoned] = orders as [CreatedCharge, CreatedCharge, CreatedCharge];
sandboxCli('pay', first.id);
sandboxCli('pay', second.id);
// An hour passes: the third charge expires, and the sandbox sends payment_charge.failed.
const fellDue = sandboxCli<{ type: string; data: { id: string } }[]>('advance', String(60 * 60_000));
console.log(
  `Paid ${first.id} and ${second.id}; an hour later ${fellDue.map((e) => `${e.type} ${e.data.id}`).join(', ')}`,
);

// 2. The merchant's job: pays the partner's share of each paid order, and records it.
const partnerBefore = cents(sandboxCli<string>('balance', 'acc_partner'));
const recorded = new Set<string>(); // stands in for the job's table of paid shares

async function reconcile({ crashAfterTransfers }: { crashAfterTransfers?: number } = {}): Promise<number> {
  let made = 0;
  for (const order of orders) {
    const charge = await client.charges.retrieve(order.id);
    if (charge.status !== 'success' || recorded.has(charge.id)) continue;
    // 10 %, rounded down to the cent: the partner never gets more than its share.
    const share = decimal(cents(charge.amount) / 10n);
    // The key is the business operation: a rerun sends the same one, and the service answers the first transfer.
    await client.transfers.create(
      {
        destination_account_id: 'acc_partner',
        amount: share,
        currency: 'idr',
        client_reference_id: charge.client_reference_id ?? charge.id,
      },
      { idempotencyKey: `partner-share-${charge.id}` },
    );
    made++;
    if (made === crashAfterTransfers) throw new Error('crashed before recording the transfer');
    recorded.add(charge.id);
  }
  return made;
}

// 3. The first run crashes between the transfer and its record; the rerun finishes the job.
try {
  await reconcile({ crashAfterTransfers: 1 });
} catch (error) {
  console.log(`run 1: ${(error as Error).message}`);
}
console.log(`run 2: sent ${await reconcile()} transfer request(s)`);

// 4. What the sandbox says, read with its command.
const references = new Set(orders.map((order) => order.client_reference_id));
const transfers = sandboxCli<{ client_reference_id: string | null; amount: string }[]>('transfers').filter((transfer) =>
  references.has(transfer.client_reference_id),
);
const partnerGain = decimal(cents(sandboxCli<string>('balance', 'acc_partner')) - partnerBefore);
const failed = sandboxCli<{ type: string; data: { id: string } }[]>('events').filter(
  (event) => event.type === 'payment_charge.failed' && event.data.id === abandoned.id,
);
console.log(
  `transfers made: ${transfers.length} (${transfers.map((t) => t.amount).join(' + ')}); partner +${partnerGain}`,
);
console.log(`payment_charge.failed events for the abandoned order: ${failed.length}`);

const exactlyOnce = transfers.length === 2 && partnerGain === '6500.00' && failed.length === 1;
console.log(exactlyOnce ? 'reconciliation paid each share exactly once' : 'reconciliation is wrong');
process.exitCode = exactlyOnce ? 0 : 1;
