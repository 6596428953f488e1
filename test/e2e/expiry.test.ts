/**
 * Expiry end to end: a shop reserves stock for a charge and releases it when
 * payment_charge.failed arrives, confirmed with the SDK, whether the time
 * comes through advanceClock, expireCharge or the control surface over HTTP.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Client } from 'lunas-sdk';
import { listenForTest } from '../helpers/recorders.js';
import { start } from './helpers.js';

const T0 = new Date('2025-03-01T10:00:00.000Z');

/** A shop's stock of one item and its webhook endpoint: a failed charge releases what it reserved. */
async function shop(onHand: number) {
  const api: { client?: Client } = {};
  const reserved = new Map<string, number>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void api.client!.webhooks.confirm(Buffer.concat(chunks)).then(
        ({ charge }) => {
          if (charge?.status === 'failed') reserved.delete(charge.id);
          response.writeHead(204).end();
        },
        () => response.writeHead(503).end(),
      );
    });
  });
  return {
    url: `${await listenForTest(server)}/webhooks`,
    api,
    reserve: (chargeId: string, quantity: number) => reserved.set(chargeId, quantity),
    available: () => onHand - [...reserved.values()].reduce((sum, quantity) => sum + quantity, 0),
  };
}

describe('expiry with the SDK', () => {
  it('advanceClock: the charge expires unread, the shop is told and releases the stock', async () => {
    const stock = await shop(10);
    const { sandbox, client } = await start({ now: () => T0, webhookUrl: stock.url });
    stock.api.client = client;
    const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
    stock.reserve(charge.id, 2);
    expect(stock.available()).toBe(8);

    const [failed] = await sandbox.advanceClock(15 * 60_000);
    expect(failed).toMatchObject({ type: 'payment_charge.failed', data: { id: charge.id, status: 'failed' } });
    await sandbox.webhooksSettled();
    expect(stock.available()).toBe(10);
    const mine = sandbox.deliveries.filter((delivery) => delivery.event.data.id === charge.id);
    expect(mine.map(({ event, state }) => [event.type, state])).toEqual([
      ['payment_charge.created', 'delivered'],
      ['payment_charge.failed', 'delivered'],
    ]);
    expect(await client.charges.retrieve(charge.id)).toMatchObject({ status: 'failed', expires_at: charge.expires_at });
  });

  it('expireCharge and the control surface expire a charge now, for the SDK as for the shop', async () => {
    const stock = await shop(5);
    const { sandbox, client } = await start({ webhookUrl: stock.url });
    stock.api.client = client;
    const [first, second] = [
      await client.charges.create({ payment_method: 'virtual_account', amount: 50_000 }),
      await client.charges.create({ payment_method: 'qris', amount: 10_000 }),
    ];
    stock.reserve(first.id, 1);
    stock.reserve(second.id, 3);

    await sandbox.expireCharge(first.id);
    const response = await fetch(`${sandbox.url}/_sandbox/charges/${second.id}/expire`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { id: string; status: string } };
    expect(data).toEqual(JSON.parse(JSON.stringify(await client.charges.retrieve(second.id))));
    await sandbox.webhooksSettled();
    expect(stock.available()).toBe(5);
    expect((await client.charges.list().toArray({ limit: 10 })).map(({ status }) => status)).toEqual([
      'failed',
      'failed',
    ]);
  });
});
