/**
 * Receive webhook events with node:http and confirm each with the API before
 * answering (events carry no signature): `client.webhooks.confirm` parses the
 * event and reads its charge back.
 * Run: LUNAS_API_KEY=... LUNAS_BASE_URL=... npx tsx examples/webhook-handler.ts
 * Then point your webhook at the printed URL. Set EXIT_AFTER_EVENTS=n to stop after n events.
 */
import { createServer } from 'node:http';
import { Client, EventValidationError, NotFoundError } from 'lunas-sdk';

const client = new Client();
const exitAfter = Number(process.env.EXIT_AFTER_EVENTS ?? Infinity);
let received = 0;

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      // Trust the charge the API reports, not the one in the message.
      const { event, charge } = await client.webhooks.confirm(Buffer.concat(chunks));
      if (event.type === 'payment_charge.succeeded' && charge) {
        console.log(`${event.type}: ${charge.id} is ${charge.status} (${charge.amount} ${charge.currency})`);
      } else {
        console.log(`${event.type}: ignored`);
      }
      response.writeHead(204).end(); // acknowledged only once confirmed
    } catch (error) {
      // 400: not an event; 404: it names no charge of ours; 503: it could not be confirmed now.
      const status = error instanceof EventValidationError ? 400 : error instanceof NotFoundError ? 404 : 503;
      if (status === 503) console.error(error);
      response.writeHead(status).end();
    }
    if (++received >= exitAfter) server.close();
  });
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}/`);
});
