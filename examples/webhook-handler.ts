/**
/**
 * Receive webhook events with node:http and act only on what the API confirms.
 * An event carries no signature, so it is only a hint: `client.webhooks.confirm`
 * parses it and reads the charge it names back from the API; the handler acts
 * on that charge, and answers 2xx only once it has done so. When the charge
 * cannot be read within 5 s, it answers 503, so the event is not marked as handled.
 * Run: LUNAS_API_KEY=... LUNAS_BASE_URL=... npx tsx examples/webhook-handler.ts
 * Then point your webhook at the printed URL. Set EXIT_AFTER_EVENTS=n to stop after n events.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { type Charge, Client, EventValidationError, NotFoundError } from 'lunas-sdk';

const client = new Client();
const exitAfter = Number(process.env.EXIT_AFTER_EVENTS ?? Infinity);
let received = 0;

// Stands in for your database. One payment can be reported by several events
// (a repeated delivery, `created` arriving after the payment), so the work is
// keyed on the charge id and done once.
const fulfilledCharges = new Set<string>();

async function fulfilOrder(charge: Charge): Promise<void> {
  if (fulfilledCharges.has(charge.id)) return;
  fulfilledCharges.add(charge.id);
  console.log(`fulfilled the order paid by ${charge.id}`);
}

/** Handles one delivery and returns the status to answer with. */
async function handle(request: IncomingMessage): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);

  try {
    // Trust the charge the API reports, not the one in the event. The deadline is shorter than
    // the sender's wait (the sandbox's is 10 s), so a slow API still gets an answer (503) sent.
    const { event, charge } = await client.webhooks.confirm(Buffer.concat(chunks), {
      signal: AbortSignal.timeout(5_000),
    });
    if (charge === undefined) {
      console.log(`${event.type}: ignored`);
      return 204;
    }
    console.log(`${event.type}: ${charge.id} is ${charge.status} (${charge.amount} ${charge.currency})`);
    if (charge.status === 'success') await fulfilOrder(charge);
    return 204;
  } catch (error) {
    if (error instanceof EventValidationError) {
      console.log('not an event: refused');
      return 400;
    }
    if (error instanceof NotFoundError) {
      console.log('names no charge of ours: refused');
      return 404;
    }
    // Not confirmed, so not handled: a periodic check of pending charges catches what is never redelivered.
    console.error(`could not confirm the event: ${String(error)}`);
    return 503;
  }
}

const server = createServer((request, response) => {
  handle(request)
    .catch(() => 500) // the request broke off while being read
    .then((status) => {
      response.writeHead(status).end();
      if (++received >= exitAfter) server.close();
    });
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}/`);
});
