/**
 * `lunas-sandbox wait` and the control surface's wait fail loudly when a
 * delivery was given up: a CI job that waits for its webhooks fails when one
 * never arrived, naming it (event, type, URL, last error), and passes only
 * when every delivery was delivered. What counts: every event whose latest
 * delivery since the sandbox started was given up, whenever that happened
 * (before the wait too); an event delivered since (a redelivery) counts no more.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { listenForTest } from '../helpers/recorders.js';
import { type Run, runSandboxCli } from '../helpers/commands.js';
import { call, createCharge, sandbox } from './helpers.js';
import { webhookReceiver } from './webhook-receiver.js';

const CLI_TEST_MS = 60_000;

const cli = (args: string[], box: Sandbox): Promise<Run> =>
  runSandboxCli(args, { LUNAS_BASE_URL: box.url, LUNAS_API_KEY: box.apiKey });

/** A URL on 127.0.0.1 where nothing listens: every attempt is refused. */
async function downUrl(): Promise<string> {
  const server = createServer();
  const origin = await listenForTest(server);
  await new Promise((resolve) => server.close(resolve));
  return `${origin}/hooks`;
}

const wait = async (box: Sandbox, timeoutMs = 5_000) =>
  (await call(box, 'POST', '/_sandbox/webhooks/wait', { body: { timeoutMs } })).body.data;

describe('waiting for webhooks when a delivery was given up', () => {
  it(
    'lunas-sandbox wait exits 1 naming every delivery given up before it started, 0 once each was delivered',
    async () => {
      const url = await downUrl();
      const box = await sandbox({ webhookUrl: url, webhookRetryDelaysMs: [50, 50] });
      const id = (await createCharge(box)).body.data.id as string;
      await box.payCharge(id);
      await box.webhooksSettled();
      expect(box.deliveries.map(({ state }) => state)).toEqual(['failed', 'failed']);
      const [created, paid] = box.events;

      const run = await cli(['wait', '--timeout', '5s'], box);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('2 webhook deliveries were given up');
      for (const event of [created!, paid!]) {
        expect(run.stderr).toContain(`${event.type} ${event.id}`);
      }
      expect(run.stderr).toContain(`to ${url}`);
      expect(run.stderr).toContain('after 3 attempts');
      expect(run.stderr).toMatch(/ECONNREFUSED/);

      const json = await cli(['wait', '--json'], box);
      expect(json.code).toBe(1);
      const answer = JSON.parse(json.stdout);
      expect(answer).toMatchObject({ settled: true, pending: 0 });
      expect(answer.failed).toEqual([
        expect.objectContaining({ eventId: created!.id, eventType: created!.type, url, attempts: 3 }),
        expect.objectContaining({ eventId: paid!.id, eventType: paid!.type, url, attempts: 3 }),
      ]);
      expect(answer.failed[0].error).toMatch(/ECONNREFUSED/);
    },
    CLI_TEST_MS,
  );

  it('the control surface names a delivery given up during the wait; a redelivery delivered clears it', async () => {
    const hook = await webhookReceiver((index) => (index < 2 ? 503 : 204));
    const box = await sandbox({ webhookUrl: hook.url, webhookRetryDelaysMs: [20] });
    const waiting = wait(box);
    await createCharge(box);
    // The wait started with nothing pending; the delivery that followed was given up: it counts.
    expect(await waiting).toEqual({ settled: true, pending: 0, failed: [] });
    await box.webhooksSettled();
    const [event] = box.events;
    expect(await wait(box)).toEqual({
      settled: true,
      pending: 0,
      failed: [
        {
          eventId: event!.id,
          eventType: 'payment_charge.created',
          url: hook.url,
          attempts: 2,
          error: 'HTTP 503',
        },
      ],
    });
    box.redeliver(event!.id);
    await box.webhooksSettled();
    expect(await wait(box)).toEqual({ settled: true, pending: 0, failed: [] });
  });

  it('a wait that started while a delivery was pending reports it given up', async () => {
    const hook = await webhookReceiver(() => 500);
    const box = await sandbox({ webhookUrl: hook.url, webhookRetryDelaysMs: [100] });
    await createCharge(box);
    const answer = await wait(box);
    expect(answer).toMatchObject({ settled: true, pending: 0, failed: [{ eventId: box.events[0]!.id, attempts: 2 }] });
  });
});
