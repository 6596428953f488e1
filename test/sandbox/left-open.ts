/**
 * A program for keep-alive.test.ts, run in a child process: in-process
 * sandboxes whose receivers fail, with a retry pending.
 *
 * - `leave`: two sandboxes (a failing handler, an unreachable URL) and a
 *   pending charge, left open: the process must exit at once, not when the
 *   retries (10 minutes away) or the expiry come.
 * - `await`: `await sandbox.webhooksSettled()` while a retry waits: the
 *   process must stay until the retry has delivered, and print the states.
 */
import { createSandbox, type InProcessSandbox, type WebhookDelivery } from '../../src/testing/index.js';

const TEN_MINUTES = 600_000;

const report = (name: string) => (delivery: WebhookDelivery) =>
  console.log(`${name}: attempt ${delivery.attempts.length} ${delivery.state}, retry ${delivery.retryAt !== null}`);

async function createCharge(sandbox: InProcessSandbox): Promise<void> {
  const response = await sandbox.fetch(`${sandbox.url}/v1/payments/charges`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ payment_method: 'qris', amount: 10_000 }),
  });
  if (response.status !== 200) throw new Error(`charge not created: HTTP ${response.status}`);
}

if (process.argv[2] === 'leave') {
  const handler = createSandbox({
    webhook: () => new Response('down', { status: 503 }),
    webhookRetryDelaysMs: [TEN_MINUTES],
    onWebhookAttempt: report('handler'),
  });
  // Port 9 (discard) on loopback: refused at once, a network error.
  const url = createSandbox({
    webhookUrl: 'http://127.0.0.1:9/hooks',
    webhookRetryDelaysMs: [TEN_MINUTES],
    onWebhookAttempt: report('url'),
  });
  await createCharge(handler);
  await createCharge(url);
} else {
  let calls = 0;
  const sandbox = createSandbox({
    webhook: () => new Response(null, { status: calls++ === 0 ? 503 : 204 }),
    webhookRetryDelaysMs: [300],
  });
  await createCharge(sandbox);
  await sandbox.webhooksSettled();
  console.log(`settled: ${sandbox.deliveries.map(({ attempts, state }) => `${state} after ${attempts.length}`)}`);
}
