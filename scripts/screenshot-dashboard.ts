// The screenshot of the sandbox's page that docs/sandbox.md shows, taken in Debian's Chromium:
//   npx tsx scripts/screenshot-dashboard.ts [output file]
// Default: docs/images/sandbox-dashboard.png. A sandbox with a few charges (one paid,
// one failed, two pending), a transfer, and webhooks to a receiver here that fails
// each event's first attempt, so the page shows a retry. Then shrink it with Debian's
// pngquant (`pngquant --quality=60-85`): the image ships in the package.
import { createServer } from 'node:http';
import { Client } from 'lunas-sdk';
import { startSandbox } from 'lunas-sdk/testing';
import { launchChromium } from '../test/helpers/chromium.js';

const [output = 'docs/images/sandbox-dashboard.png'] = process.argv.slice(2);

const seen = new Set<string>();
const receiver = createServer((request, response) => {
  const id = request.headers['lunas-event-id'];
  const first = typeof id === 'string' && !seen.has(id);
  if (typeof id === 'string') seen.add(id);
  request.resume().on('end', () => response.writeHead(first ? 500 : 204).end());
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const { port } = receiver.address() as { port: number };

const sandbox = await startSandbox({
  webhookUrl: `http://127.0.0.1:${port}/webhooks/lunas`,
  webhookRetryDelaysMs: [50],
});
const browser = await launchChromium();
try {
  const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url });
  const paid = await client.charges.create({
    payment_method: 'virtual_account',
    amount: 150_000,
    channel: 'bca',
    description: 'Order 1041',
  });
  await sandbox.payCharge(paid.id);
  const failed = await client.charges.create({ payment_method: 'qris', amount: 42_500, description: 'Order 1042' });
  await sandbox.failCharge(failed.id);
  await client.charges.create({ payment_method: 'qris', amount: 25_000, description: 'Order 1043' });
  await client.charges.create({ payment_method: 'qris', amount: 99_000, description: 'Order 1044' });
  await client.transfers.create(
    {
      destination_account_id: 'acc_partner',
      amount: 15_000,
      currency: 'idr',
      description: 'Partner share, order 1041',
    },
    { idempotencyKey: 'share-1041' },
  );
  await sandbox.webhooksSettled();

  const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
  await page.goto(`${sandbox.url}/`);
  await page.screenshot({ path: output, fullPage: true });
  console.log(output);
} finally {
  await browser.close();
  await sandbox.close();
  receiver.close();
}
