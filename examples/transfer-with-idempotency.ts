/**
 * Move money to another account exactly once, even across retries and restarts.
 * Run: LUNAS_API_KEY=... LUNAS_BASE_URL=... npx tsx examples/transfer-with-idempotency.ts
 */
import { Client, PermissionDeniedError } from 'lunas-sdk';

const client = new Client();
const invoiceId = 'INV-2026-0042';

try {
  // One key per business operation: running this script twice moves the money once.
  const transfer = await client.transfers.create(
    { destination_account_id: 'acc_partner', amount: '125000.00', currency: 'idr', client_reference_id: invoiceId },
    { idempotencyKey: `settle-${invoiceId}` },
  );
  console.log(
    `Transfer ${transfer.id}: ${transfer.amount} ${transfer.currency} to ${transfer.destination_account_name}`,
  );
} catch (error) {
  if (error instanceof PermissionDeniedError) {
    console.log(`Not enough balance: ${error.message}`);
  } else {
    throw error;
  }
}
