/**
 * Tell apart the failures a merchant backend should handle differently.
 * Run: LUNAS_API_KEY=... LUNAS_BASE_URL=... npx tsx examples/handle-errors.ts
 */
import {
  APIConnectionError,
  BadRequestError,
  Client,
  LunasError,
  NotFoundError,
  RequestValidationError,
} from 'lunas-sdk';

const client = new Client({ maxRetries: 3, timeout: 10_000 });

async function describe(operation: Promise<unknown>): Promise<string> {
  try {
    await operation;
    return 'ok';
  } catch (error) {
    if (error instanceof RequestValidationError) return `fix the request: ${JSON.stringify(error.fields)}`;
    if (error instanceof BadRequestError) return `the service refused it: ${JSON.stringify(error.fields)}`;
    if (error instanceof NotFoundError) return `no such resource (request id ${error.requestId})`;
    if (error instanceof APIConnectionError) {
      return `network trouble; retry later with idempotencyKey ${error.idempotencyKey ?? '(GET, none needed)'}`;
    }
    if (error instanceof LunasError) return `lunas error: ${error.message}`;
    throw error;
  }
}

console.log('bad amount:', await describe(client.charges.create({ payment_method: 'qris', amount: 0 })));
console.log(
  'inactive account:',
  await describe(client.transfers.create({ destination_account_id: 'acc_closed', amount: 1000, currency: 'idr' })),
);
console.log('unknown charge:', await describe(client.charges.retrieve('ch_does_not_exist')));
