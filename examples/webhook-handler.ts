/**
 * Receive webhook events with node:http, parse them with `parseEvent`, and
 * confirm with the API before acting (events carry no signature).
 * Run: LUNAS_API_KEY=... LUNAS_BASE_URL=... npx tsx examples/webhook-handler.ts
 * Then point your webhook at the printed URL. Set EXIT_AFTER_EVENTS=n to stop after n events.
 */
import { createServer } from 'node:http';
import { Client, EventValidationError, isChargeEvent, parseEvent } from 'lunas-sdk';

const client = new Client();
const exitAfter = Number(process.env.EXIT_AFTER_EVENTS ?? Infinity);
let received = 0;

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      const event = parseEvent(Buffer.concat(chunks));
      response.writeHead(204).end(); // acknowledge first; do the work after
      if (isChargeEvent(event) && event.type === 'payment_charge.succeeded') {
        const charge = await client.charges.retrieve(event.data.id); // trust the API, not the message
        console.log(`${event.type}: ${charge.id} is ${charge.status} (${charge.amount} ${charge.currency})`);
      } else {
        console.log(`${event.type}: ignored`);
      }
    } catch (error) {
      if (error instanceof EventValidationError) response.writeHead(400).end();
      else console.error(error);
    }
    if (++received >= exitAfter) server.close();
  });
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}/`);
});
