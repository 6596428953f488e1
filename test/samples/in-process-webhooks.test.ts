import { afterEach, beforeEach, expect, it } from 'vitest';
import { Client } from 'lunas-sdk';
import { createSandbox, type InProcessSandbox } from 'lunas-sdk/testing';

// Your web app, shaped as Hono builds one: `app.fetch` answers a Request with a
// Response. It takes the lunas client it confirms events with.
function createApp(client: Client) {
  const fulfilled = new Set<string>();
  const fetch = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST' || new URL(request.url).pathname !== '/webhook') {
      return new Response('Not found', { status: 404 });
    }
    try {
      // An event is a hint: confirm reads the charge it names back from the API.
      const { charge } = await client.webhooks.confirm(await request.arrayBuffer());
      if (charge?.status === 'success') fulfilled.add(charge.id); // your fulfilment, done once
      return new Response(null, { status: 204 });
    } catch {
      return new Response('Try again', { status: 503 }); // not handled: the sender retries
    }
  };
  return { fetch, fulfilled };
}

let sandbox: InProcessSandbox;
let client: Client;
let app: ReturnType<typeof createApp>;

beforeEach(() => {
  // No port anywhere: the client calls the API through sandbox.fetch, and the
  // sandbox posts each event to app.fetch (at https://sandbox.lunas.invalid/webhook).
  client = new Client({
    fetch: (input, init) => sandbox.fetch(input, init),
    baseURL: 'https://sandbox.lunas.invalid',
    apiKey: 'sk_test_sandbox',
    maxRetries: 0, // a failed read answers 503 at once: the sandbox's retry is the one to see
  });
  app = createApp(client);
  sandbox = createSandbox({ webhook: app.fetch, webhookRetryDelaysMs: [10, 10] });
});
afterEach(() => sandbox.close());

it('fulfils a paid order once, however often its event comes', async () => {
  const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
  await sandbox.payCharge(charge.id);
  await sandbox.webhooksSettled();
  const paid = sandbox.events.find((event) => event.type === 'payment_charge.succeeded')!;
  sandbox.redeliver(paid.id, { times: 2, concurrently: true });
  await sandbox.webhooksSettled();

  expect(sandbox.deliveries).toHaveLength(4); // created, succeeded and the two redeliveries
  expect(sandbox.deliveries.every((delivery) => delivery.state === 'delivered')).toBe(true);
  expect([...app.fulfilled]).toEqual([charge.id]);
});

it('is retried after answering 503 when the API could not confirm the event', async () => {
  const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
  await sandbox.webhooksSettled();
  sandbox.inject({ kind: 'status', status: 503, method: 'GET' }); // the app's next read fails once
  await sandbox.payCharge(charge.id);
  await sandbox.webhooksSettled();

  const paid = sandbox.deliveries.find((delivery) => delivery.eventType === 'payment_charge.succeeded')!;
  expect(paid.attempts.map((attempt) => attempt.status)).toEqual([503, 204]);
  expect([...app.fulfilled]).toEqual([charge.id]);
});
