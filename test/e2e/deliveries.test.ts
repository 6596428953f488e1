/**
 * The merchant's loop end to end: the SDK creates a charge, the sandbox is
 * paid and delivers over real HTTP, the handler confirms each event with the
 * SDK; duplicates and out-of-order deliveries change nothing it did.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Client } from 'lunas-sdk';
import { listenForTest } from '../helpers/recorders.js';
import { start } from './helpers.js';

/**
 * A receiver that confirms every event with the API and fulfils each paid
 * charge once, the way examples/webhook-handler.ts does, answering 204.
 */
async function exactlyOnceReceiver() {
  /** Set once the sandbox is started: the receiver's URL must be known first. */
  const api: { client?: Client } = {};
  const fulfilled: string[] = [];
  const confirmed: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void api.client!.webhooks.confirm(Buffer.concat(chunks)).then(
        ({ event, charge }) => {
          confirmed.push(`${event.type} ${charge?.status ?? 'none'}`);
          if (charge?.status === 'success' && !fulfilled.includes(charge.id)) fulfilled.push(charge.id);
          response.writeHead(204).end();
        },
        () => response.writeHead(503).end(),
      );
    });
  });
  return { url: `${await listenForTest(server)}/webhooks`, api, fulfilled, confirmed };
}

describe('webhook deliveries with the SDK', () => {
  it('start, pay, settle, confirm: the handler sees the charge paid, and fulfils it once', async () => {
    const hook = await exactlyOnceReceiver();
    const { sandbox, client } = await start({ webhookUrl: hook.url });
    hook.api.client = client;

    const charge = await client.charges.create({ payment_method: 'qris', amount: 15_000 });
    await sandbox.payCharge(charge.id);
    await sandbox.webhooksSettled();

    expect(sandbox.deliveries.map(({ eventType, state }) => `${eventType} ${state}`).sort()).toEqual([
      'payment_charge.created delivered',
      'payment_charge.succeeded delivered',
    ]);
    expect(hook.confirmed).toContain('payment_charge.succeeded success');
    expect(hook.fulfilled).toEqual([charge.id]);

    // The same payment reported three more times at once: still one fulfilment.
    const succeeded = sandbox.events.find(({ type }) => type === 'payment_charge.succeeded')!;
    sandbox.redeliver(succeeded.id, { times: 3, concurrently: true });
    await sandbox.webhooksSettled();
    expect(sandbox.deliveries.filter(({ redelivery }) => redelivery)).toHaveLength(3);
    expect(hook.confirmed.filter((line) => line === 'payment_charge.succeeded success')).toHaveLength(4);
    expect(hook.fulfilled).toEqual([charge.id]);
  });

  it('out of order: succeeded before created, and confirm reads the charge as it is now', async () => {
    const hook = await exactlyOnceReceiver();
    const { sandbox, client } = await start({ webhookUrl: hook.url });
    hook.api.client = client;

    sandbox.holdWebhooks();
    const charge = await client.charges.create({ payment_method: 'virtual_account', amount: 20_000 });
    await sandbox.payCharge(charge.id);
    sandbox.releaseWebhooks({ order: 'reversed' });
    await sandbox.webhooksSettled();

    // The late `created` event still confirms a paid charge: the API, not the event, is the truth.
    expect(hook.confirmed).toEqual(['payment_charge.succeeded success', 'payment_charge.created success']);
    expect(hook.fulfilled).toEqual([charge.id]);
  });

  it('in process: a fetch-style handler as `webhook` confirms each event over HTTP, and fulfils once', async () => {
    const api: { client?: Client } = {};
    const fulfilled: string[] = [];
    // Shaped as a web framework's handler (Hono's app.fetch, a Next.js route's POST): a Request in, a Response out.
    const webhook = async (request: Request): Promise<Response> => {
      const { charge } = await api.client!.webhooks.confirm(await request.arrayBuffer());
      if (charge?.status === 'success' && !fulfilled.includes(charge.id)) fulfilled.push(charge.id);
      return new Response(null, { status: 204 });
    };
    const { sandbox, client } = await start({ webhook });
    api.client = client;

    const charge = await client.charges.create({ payment_method: 'qris', amount: 15_000 });
    await sandbox.payCharge(charge.id);
    const succeeded = sandbox.events.find(({ type }) => type === 'payment_charge.succeeded')!;
    sandbox.redeliver(succeeded.id, { times: 2, concurrently: true });
    await sandbox.webhooksSettled();

    expect(sandbox.deliveries.map(({ state }) => state)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(fulfilled).toEqual([charge.id]);
    // Each confirmation read the charge back over HTTP, with the key.
    const reads = sandbox.requests.filter(
      ({ method, path }) => method === 'GET' && path === `/v1/payments/charges/${charge.id}`,
    );
    expect(reads.map(({ authorized }) => authorized)).toEqual([true, true, true, true]);
  });
});
