/**
 * The whole development loop in one program, with no account and no network:
 * a sandbox delivers webhooks to a receiver in this same process; the SDK
 * creates a charge, the customer pays on the charge's payment page (the
 * form its Pay button sends), and the receiver confirms the event
 * with the API and fulfils the order exactly once, even when the event comes
 * twice.
 * Run: npx tsx examples/dev-loop.ts
 */
import { createServer } from 'node:http';
import { Client, EventValidationError } from 'lunas-sdk';
import { startSandbox } from 'lunas-sdk/testing';

// 1. Your webhook endpoint. Here a node:http server; in your app, your route.
//    An event is only a hint: confirm() reads the charge it names from the API.
const fulfilledOrders = new Set<string>(); // stands in for your database
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      const { event, charge } = await client.webhooks.confirm(Buffer.concat(chunks));
      console.log(`received ${event.type}: ${charge?.id} is ${charge?.status}`);
      // Keyed on the charge: a repeated or late event must not fulfil the order twice.
      if (charge?.status === 'success' && !fulfilledOrders.has(charge.id)) {
        fulfilledOrders.add(charge.id);
        console.log(`fulfilled ${charge.client_reference_id} (${charge.id})`);
      }
      response.writeHead(204).end(); // 2xx: handled, do not send it again
    } catch (error) {
      if (error instanceof EventValidationError) {
        response.writeHead(400).end(); // not an event: sending it again will not help
        return;
      }
      console.error(`could not confirm the event: ${String(error)}`);
      response.writeHead(503).end(); // not handled: the sandbox retries, as the service would
    }
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const { port } = receiver.address() as { port: number };
const webhookUrl = `http://127.0.0.1:${port}/webhooks/lunas`;
console.log(`Receiver listening on ${webhookUrl}`);

// 2. A sandbox that POSTs every event to the receiver, retrying when it fails.
const sandbox = await startSandbox({ webhookUrl });
const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url });

try {
  // 3. Create a charge as your checkout would. Amounts are rupiah: 25000 is Rp 25.000.
  const charge = await client.charges.create({
    payment_method: 'qris',
    amount: 25_000,
    client_reference_id: 'order-42',
  });
  console.log(`Charge ${charge.id}: ${charge.amount} ${charge.currency}, ${charge.status}`);

  // 4. The customer pays on the page at payment_url: here, the form its Pay button
  //    sends, with the token the page's form carries, which keeps other sites from
  //    pressing it (open the URL in a browser to press it yourself; in a test,
  //    sandbox.payCharge(charge.id) does the same). Then wait for the webhooks to
  //    be delivered: no polling, no sleep.
  const page = await (await fetch(charge.payment_url)).text();
  const token = /name="token" value="(\w+)"/.exec(page)?.[1] ?? '';
  const paying = await fetch(charge.payment_url, {
    method: 'POST',
    body: new URLSearchParams({ token, action: 'pay' }),
  });
  console.log(`Pressed Pay on ${charge.payment_url}: HTTP ${paying.status}`);
  await sandbox.webhooksSettled();

  // 5. Every delivery is recorded: event, attempts, statuses, timings.
  for (const delivery of sandbox.deliveries) {
    const statuses = delivery.attempts.map((attempt) => attempt.status ?? attempt.error).join(', ');
    console.log(`delivery of ${delivery.eventType}: ${delivery.state} (${statuses})`);
  }

  // 6. The service may deliver an event twice: make it happen, and check the order is still fulfilled once.
  const succeeded = sandbox.events.find((event) => event.type === 'payment_charge.succeeded');
  if (succeeded) sandbox.redeliver(succeeded.id);
  await sandbox.webhooksSettled();
  console.log(`orders fulfilled: ${fulfilledOrders.size}`);

  // 7. The API agrees: the charge is paid.
  const paid = await client.charges.retrieve(charge.id);
  console.log(`Charge ${paid.id} is ${paid.status}, paid at ${paid.paid_at}`);
} finally {
  await sandbox.close();
  receiver.close();
}
