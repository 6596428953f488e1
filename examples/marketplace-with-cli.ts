/**
 * A marketplace's whole story against a sandbox it starts as a separate
 * process and drives with `lunas-sandbox` subcommands, as a shell script or a
 * Playwright suite would: the sellers, the customer paying, time passing and
 * the checks go through the command; only the merchant's own code (checkout,
 * payout to a seller) uses the SDK.
 *
 * 1. The sandbox starts with the marketplace's own accounts (`--accounts FILE`).
 * 2. A seller opens (`account add`).
 * 3. A buyer checks out with a virtual account and pays (`pay`); the merchant's
 *    webhook endpoint hears of it (`wait`, no sleep), and the merchant's
 *    balance grows by the amount less the fee.
 * 4. The seller is paid their share by a transfer, exactly once.
 * 5. An order nobody pays expires a day later (`advance 1d`).
 *
 * Run: npx tsx examples/marketplace-with-cli.ts
 * (LUNAS_SANDBOX_CLI names another way to run the command, e.g. from a checkout of lunas.)
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'lunas-sdk';

const [command = 'npx', ...commandArgs] = (process.env.LUNAS_SANDBOX_CLI ?? 'npx lunas-sandbox').split(' ');

// Money as integer cents: amounts come as decimal strings ("250000.00"), never through a float.
const cents = (amount: string): bigint => BigInt(amount.replace('.', ''));
const decimal = (value: bigint): string => `${value / 100n}.${(value % 100n).toString().padStart(2, '0')}`;

// The merchant's webhook endpoint: remembers what it heard and answers 204.
const heard: string[] = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const event = JSON.parse(body) as { type: string; data: { id: string } };
    heard.push(`${event.type} ${event.data.id}`);
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/lunas`;

// 1. The marketplace's accounts, replacing the sandbox's defaults.
const dir = mkdtempSync(join(tmpdir(), 'lunas-marketplace-'));
const accountsFile = join(dir, 'accounts.json');
writeFileSync(
  accountsFile,
  JSON.stringify([
    { id: 'acc_pasar', name: 'Pasar Online', balance: '0.00' },
    { id: 'acc_batik', name: 'Batik Sari', balance: '0.00' },
  ]),
);
const sandbox = spawn(
  command,
  [...commandArgs, '--accounts', accountsFile, '--account', 'acc_pasar', '--webhook-url', webhookUrl],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const url = await new Promise<string>((resolve, reject) => {
  let printed = '';
  sandbox.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    printed += chunk;
    const listening = /listening on (\S+)/.exec(printed);
    if (listening) resolve(listening[1]!);
  });
  sandbox.on('exit', (code) => reject(new Error(`lunas-sandbox exited with ${code} before listening`)));
});

const run = promisify(execFile);

/**
 * `lunas-sandbox <args> --json` against the sandbox started above: what its
 * helper returns. Asynchronous, so the webhook endpoint above keeps answering
 * while `wait` waits for it.
 */
async function sandboxCli<T>(...args: string[]): Promise<T> {
  const env = { ...process.env, LUNAS_BASE_URL: url, LUNAS_API_KEY: 'sk_test_sandbox' };
  const { stdout } = await run(command, [...commandArgs, ...args, '--json'], { encoding: 'utf8', env });
  return JSON.parse(stdout) as T;
}

try {
  const client = new Client({ apiKey: 'sk_test_sandbox', baseURL: url });
  console.log(`Sandbox at ${url} with ${(await sandboxCli<unknown[]>('accounts')).length} accounts from accounts.json`);

  // 2. A new seller opens a shop.
  const seller = await sandboxCli<{ id: string; name: string }>('account', 'add', 'acc_kopi', '--name', 'Toko Kopi');
  console.log(`Seller ${seller.id} (${seller.name}) opened`);

  // 3. A buyer checks out by virtual account, and pays it.
  const merchantBefore = cents(await sandboxCli<string>('balance', 'acc_pasar'));
  const order = await client.charges.create(
    {
      payment_method: 'virtual_account',
      channel: 'bca',
      amount: 250_000,
      client_reference_id: 'order-kopi-1',
      customer_details: { name: 'Dewi Lestari' },
    },
    { idempotencyKey: 'checkout-order-kopi-1' },
  );
  const vaNumber = order.payment_method_options?.virtual_account?.account_number;
  console.log(`Order ${order.id}: pay ${order.amount} ${order.currency} into virtual account ${vaNumber}`);
  await sandboxCli('pay', order.id);
  const settled = await sandboxCli<{ settled: boolean; pending: number }>('wait', '--timeout', '10s');
  console.log(
    `Webhooks settled: ${settled.settled}; heard ${heard
      .filter((line) => line.endsWith(order.id))
      .sort()
      .join(', ')}`,
  );

  const paid = await client.charges.retrieve(order.id);
  const merchantAfter = cents(await sandboxCli<string>('balance', 'acc_pasar'));
  const expected = cents(paid.amount) - cents(paid.fee);
  console.log(
    `Merchant balance grew by ${decimal(merchantAfter - merchantBefore)} (amount ${paid.amount} less fee ${paid.fee}): ` +
      (merchantAfter - merchantBefore === expected ? 'as expected' : 'WRONG'),
  );

  // 4. The seller's share, 90 % of what the marketplace received, moved once however often this runs.
  const share = decimal(((merchantAfter - merchantBefore) * 90n) / 100n);
  for (let attempt = 0; attempt < 2; attempt++) {
    await client.transfers.create(
      { destination_account_id: 'acc_kopi', amount: share, currency: 'idr', client_reference_id: order.id },
      { idempotencyKey: `seller-share-${order.id}` },
    );
  }
  console.log(`Seller acc_kopi now holds ${await sandboxCli<string>('balance', 'acc_kopi')} (paid ${share} once)`);

  // 5. An order nobody pays: a day later it has expired, and the endpoint hears it failed.
  const abandoned = await client.charges.create({ payment_method: 'qris', amount: 75_000 });
  const fellDue = await sandboxCli<{ type: string; data: { id: string } }[]>('advance', '1d');
  await sandboxCli('wait', '--timeout', '10s');
  const status = (await client.charges.retrieve(abandoned.id)).status;
  console.log(
    `A day later ${abandoned.id} is ${status}; fell due: ${fellDue.map((event) => event.type).join(', ')}; ` +
      `endpoint heard: ${heard.includes(`payment_charge.failed ${abandoned.id}`)}`,
  );
  console.log(`Sandbox time now ${(await sandboxCli<{ now: string }>('clock')).now}`);
} finally {
  sandbox.kill('SIGTERM');
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
