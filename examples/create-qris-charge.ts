/**
 * Create a QRIS charge and show the customer its QR code.
 * Run: LUNAS_API_KEY=... LUNAS_BASE_URL=... npx tsx examples/create-qris-charge.ts
 */
import { Client } from 'lunas-sdk';

const client = new Client(); // reads LUNAS_API_KEY and LUNAS_BASE_URL

const charge = await client.charges.create({
  payment_method: 'qris',
  amount: 25_000,
  client_reference_id: 'order-1001',
  description: 'Two iced teas',
  items: [{ name: 'Iced tea', price: 12_500, quantity: 2 }],
  customer_details: { name: 'Siti Rahma', email: 'siti@example.com' },
});

console.log(`Charge ${charge.id} for ${charge.amount} ${charge.currency} is ${charge.status}`);
console.log(`QR code: ${charge.qr_code_url}`);
console.log(`Expires at ${charge.expires_at}`);
