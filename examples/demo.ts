/**
 * A short walk through lunas against the embedded sandbox: `npm run demo`.
 * Everything below runs over real HTTP on 127.0.0.1.
 */
import { Client } from 'lunas-sdk';
import { startSandbox } from 'lunas-sdk/testing';

const sandbox = await startSandbox();
const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url });
console.log(`Sandbox serving at ${sandbox.url}\n`);

// 1. Take payments: a QRIS charge and a virtual-account charge.
const qris = await client.charges.create({
  payment_method: 'qris',
  amount: 25_000,
  client_reference_id: 'order-1001',
  customer_details: { name: 'Siti Rahma', email: 'siti@example.com' },
});
console.log(`QRIS charge ${qris.id}: ${qris.amount} ${qris.currency}, ${qris.status}`);
console.log(`  show the customer ${qris.qr_code_url}`);

const va = await client.charges.create({
  payment_method: 'virtual_account',
  channel: 'mandiri',
  amount: '150000.50',
  customer_details: { name: 'Budi Santoso' },
});
console.log(`VA charge ${va.id}: ${va.amount} ${va.currency}, ${va.status}`);
console.log(`  customer pays at ${va.payment_url}`);

// 2. The customer pays the QRIS charge (simulated by the sandbox).
await sandbox.payCharge(qris.id);
const paid = await client.charges.retrieve(qris.id);
console.log(`\n${paid.id} is now ${paid.status}, paid at ${paid.paid_at}`);

// 3. List every charge, across pages, newest first.
console.log('\nAll charges:');
for await (const charge of client.charges.list({ pagesize: 1 })) {
  console.log(`  ${charge.id}  ${charge.payment_method.padEnd(15)} ${charge.amount.padStart(10)}  ${charge.status}`);
}

// 4. A transfer whose response is lost on the way back: the SDK retries with
//    the same Idempotency-Key, and the service moves the money exactly once.
sandbox.inject({ method: 'POST', path: '/v1/transfers', kind: 'lost-response' });
const transfer = await client.transfers.create(
  { destination_account_id: 'acc_partner', amount: 100_000, currency: 'idr', description: 'Weekly settlement' },
  { idempotencyKey: 'settlement-2026-w47' },
);
console.log(
  `\nTransfer ${transfer.id}: ${transfer.amount} to ${transfer.destination_account_name}, ${transfer.status}`,
);
console.log(
  `  transfers made: ${sandbox.transfers().length} (the first response was dropped; the retry did not pay twice)`,
);

// 5. Balances, to the cent: the merchant's holds the paid QRIS charge less its
//    0.7 % fee, less the transfer.
console.log(`\nBalances: merchant ${sandbox.balance('acc_merchant')}, partner ${sandbox.balance('acc_partner')}`);

await sandbox.close();
