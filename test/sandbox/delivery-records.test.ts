/**
 * What a delivery record says it delivered: the event itself, as sent, and
 * where a redirecting receiver pointed. Written once, run against
 * startSandbox and createSandbox.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { InProcessSandboxOptions } from '../../src/testing/index.js';
import { listenForTest } from '../helpers/recorders.js';
import { createCharge, inProcessSandbox, sandbox } from './helpers.js';
import { webhookReceiver } from './webhook-receiver.js';

const ENTRIES = [
  ['startSandbox', (options?: InProcessSandboxOptions) => sandbox(options)],
  ['createSandbox', async (options?: InProcessSandboxOptions) => inProcessSandbox(options)],
] as const;

describe.each(ENTRIES)('%s: delivery records', (_entry, open) => {
  it('carry the event they delivered, exactly as sent, so a charge finds its own deliveries', async () => {
    const hook = await webhookReceiver();
    const box = await open({ webhookUrl: hook.url });
    const mine = (await createCharge(box)).body.data.id;
    const other = (await createCharge(box)).body.data.id;
    await box.payCharge(mine);
    await box.failCharge(other);
    await box.webhooksSettled();

    const deliveries = box.deliveries.filter((delivery) => delivery.event.data.id === mine);
    expect(deliveries.map(({ event }) => event.type)).toEqual(['payment_charge.created', 'payment_charge.succeeded']);
    for (const delivery of box.deliveries) {
      expect(delivery.event).toEqual(box.events.find(({ id }) => id === delivery.eventId));
      expect([delivery.eventId, delivery.eventType]).toEqual([delivery.event.id, delivery.event.type]);
      const sent = hook.received.find(({ event }) => event.id === delivery.eventId);
      expect(JSON.stringify(delivery.event)).toBe(sent?.text);
    }
  });

  it('show the Location of a redirect on the attempt, which failed (a receiver must answer itself)', async () => {
    const redirecting = createServer((_request, response) => {
      _request.resume();
      response.writeHead(308, { location: '/hooks/v2?from=sandbox' }).end();
    });
    const url = `${await listenForTest(redirecting)}/hooks`;
    const box = await open({ webhookUrl: url, webhookRetryDelaysMs: [] });
    await createCharge(box);
    await box.webhooksSettled();
    const [delivery] = box.deliveries;
    expect(delivery?.state).toBe('failed');
    expect(delivery?.attempts).toEqual([
      expect.objectContaining({ status: 308, ok: false, error: null, location: '/hooks/v2?from=sandbox' }),
    ]);
  });

  it('give no Location to an answer that is not a redirect', async () => {
    const hook = await webhookReceiver((index) => (index === 0 ? 500 : 204));
    const box = await open({ webhookUrl: hook.url, webhookRetryDelaysMs: [1] });
    await createCharge(box);
    await box.webhooksSettled();
    for (const attempt of box.deliveries[0]?.attempts ?? []) expect(attempt).not.toHaveProperty('location');
    expect(box.deliveries[0]?.attempts.map(({ status }) => status)).toEqual([500, 204]);
  });
});
