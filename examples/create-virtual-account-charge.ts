/**
 * Create a virtual-account charge with a chosen account name and expiry.
 * Run: LUNAS_API_KEY=... LUNAS_BASE_URL=... npx tsx examples/create-virtual-account-charge.ts
 */
import { Client } from 'lunas-sdk';

const client = new Client();

const charge = await client.charges.create({
  payment_method: 'virtual_account',
  channel: 'mandiri',
  amount: '150000.50',
  customer_details: { name: 'Budi Santoso', email: 'budi@example.com' },
  expires_at: new Date(Date.now() + 24 * 60 * 60 * 1000),
  payment_method_options: { virtual_account: { account_name: 'Toko Budi' } },
});

console.log(`Charge ${charge.id} for ${charge.amount} ${charge.currency} is ${charge.status}`);
console.log(`Payment page: ${charge.payment_url}`);
// The account the customer transfers to. The service documents it for the request only, so it may be missing:
// the payment page then tells the customer how to pay. Store it with the order: retrieve does not promise it.
const account = charge.payment_method_options?.virtual_account;
if (account?.account_number) console.log(`Transfer to account ${account.account_number} (${account.account_name})`);

// Later (for example when a webhook arrives), read the charge again.
const current = await client.charges.retrieve(charge.id);
console.log(`Status now: ${current.status}`);
