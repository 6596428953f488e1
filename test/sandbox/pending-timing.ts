/**
 * How long a create and a settle take with many webhook deliveries pending:
 * a sandbox's deliveries with a receiver that holds every request, filled
 * with `pending` deliveries, then timed over `samples` more events sent (each
 * charge created records one), then over every held one settled at once
 * (given up: the receiver answers 500 and there are no retries). The deliveries log
 * keeps 10,000, so past it every pending delivery is one the log may not drop.
 *
 *   npx tsx test/sandbox/pending-timing.ts 1000,10000,30000
 */
import { WebhookDeliveries } from '../../src/testing/webhooks/deliveries.js';
import { KEPT_DELIVERIES } from '../../src/testing/defaults.js';
import type { SandboxEvent } from '../../src/testing/index.js';

/** Milliseconds per event sent and per delivery settled, with `pending` deliveries pending. */
export async function timePending(pending: number, samples = 200): Promise<{ perSend: number; perSettle: number }> {
  const held: ((response: Response) => void)[] = [];
  const deliveries = new WebhookDeliveries({
    url: undefined,
    handler: () => new Promise<Response>((resolve) => held.push(resolve)),
    retryDelaysMs: [],
    timeoutMs: 3_600_000,
    onAttempt: undefined,
    keep: KEPT_DELIVERIES,
  });
  let id = 0;
  const event = (): SandboxEvent =>
    ({ id: `evt_${++id}`, type: 'payment_charge.created', created_at: '', data: {} }) as unknown as SandboxEvent;
  for (let index = 0; index < pending; index++) deliveries.send(event());
  await until(() => held.length === pending);

  const sendStart = performance.now();
  for (let index = 0; index < samples; index++) deliveries.send(event());
  const perSend = (performance.now() - sendStart) / samples;
  await until(() => held.length === pending + samples);

  // Every pending delivery given up at once (the receiver answers 500, no retries): the oldest first.
  const settling = held.length;
  const settleStart = performance.now();
  for (const resolve of held.splice(0)) resolve(new Response(null, { status: 500 }));
  await deliveries.settled();
  const perSettle = (performance.now() - settleStart) / settling;
  deliveries.close();
  return { perSend, perSettle };
}

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 0));
}

if (process.argv[1]?.endsWith('pending-timing.ts')) {
  for (const pending of (process.argv[2] ?? '1000,10000,30000').split(',').map(Number)) {
    const { perSend, perSettle } = await timePending(pending);
    console.log(
      `${pending} pending: ${(perSend * 1000).toFixed(1)} µs per create, ${(perSettle * 1000).toFixed(1)} µs per settle`,
    );
  }
}
