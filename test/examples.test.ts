/**
 * Every program in examples/ runs, as a merchant would run it, against a
 * sandbox over real HTTP, and prints what it promises.
 */
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { Client } from 'lunas-sdk';
import { type Sandbox, type SandboxOptions, startSandbox } from 'lunas-sdk/testing';
import { afterEach, describe, expect, onTestFinished, test } from 'vitest';
import { sandboxCommand } from './helpers/commands.js';
import { NODE_WITH_TSX } from './helpers/tsx.js';
import { sleep } from './helpers/waiting.js';

const run = promisify(execFile);
const [node, ...loader] = NODE_WITH_TSX;
let sandbox: Sandbox | undefined;

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function runExample(file: string, env: Record<string, string> = {}, timeout = 30_000): Promise<string> {
  const { stdout } = await run(node, [...loader, `examples/${file}`], { env: { ...process.env, ...env }, timeout });
  return stdout;
}

async function withSandbox(): Promise<Record<string, string>> {
  sandbox = await startSandbox();
  return { LUNAS_API_KEY: sandbox.apiKey, LUNAS_BASE_URL: sandbox.url };
}

/** Money turned into a float: a call that makes a double of an amount, or rounds one to cents for show. */
const FLOAT_MONEY = /\.toFixed\(|parseFloat\(|Number\([^)]*\b(?:amount|balance|fee|price|share)\b/g;

describe('examples', () => {
  test('no example or guide does money in floating point, which the Charges guide forbids', () => {
    const files = [
      ...readdirSync('examples', { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts'))
        .map((name) => `examples/${name}`),
      ...readdirSync('docs')
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
      'README.md',
    ];
    expect(files).toContain('examples/reconcile-with-cli.ts');
    expect(files).toContain('examples/settlement/worker.ts');
    const found = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(FLOAT_MONEY)].map((match) => `${file}: ${match[0]}`),
    );
    expect(found).toEqual([]);
  });

  test('demo.ts walks through charges, a listing, a lost response and balances', async () => {
    const out = await runExample('demo.ts');
    expect(out).toMatch(/QRIS charge ch_\w+: 25000\.00 idr, pending/);
    expect(out).toMatch(/is now success, paid at \d{4}-/);
    expect(out).toContain('transfers made: 1');
    // The merchant's: the paid 25000.00 QRIS charge less its 175.00 fee, less the 100000.00 transfer.
    expect(out).toContain('Balances: merchant 924825.00, partner 100000.00');
  });

  test('create-qris-charge.ts creates a pending QRIS charge with a QR code', async () => {
    const env = await withSandbox();
    const out = await runExample('create-qris-charge.ts', env);
    expect(out).toMatch(/Charge ch_\w+ for 25000\.00 idr is pending/);
    expect(out).toMatch(/QR code: http:\/\/127\.0\.0\.1:\d+\//);
  });

  test('create-virtual-account-charge.ts creates and re-reads a virtual-account charge', async () => {
    const env = await withSandbox();
    const out = await runExample('create-virtual-account-charge.ts', env);
    expect(out).toMatch(/Charge ch_\w+ for 150000\.50 idr is pending/);
    const account = sandbox!.charges()[0]?.payment_method_options?.virtual_account;
    expect(account?.account_number).toMatch(/^\d{16}$/);
    expect(out).toContain(`Transfer to account ${account?.account_number} (Toko Budi)`);
    expect(out).toContain('Status now: pending');
  });

  test('list-charges.ts counts every charge across pages', async () => {
    const env = await withSandbox();
    sandbox!.seedCharges(123);
    const out = await runExample('list-charges.ts', env);
    expect(out).toContain('123 charges, 123 pending');
    expect(out).toContain('page 1: 10 of 123; more: true');
  });

  test('paid-today.ts counts a day by paid_at: a virtual account charge created at 23:30 and paid at 01:00 is in', async () => {
    // The sandbox's clock at 21:50 in Jakarta (UTC+7) on 3 May; advanceClock moves it on.
    sandbox = await startSandbox({ now: () => new Date('2026-05-03T14:50:00Z') });
    const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url });
    const minutes = (count: number) => sandbox!.advanceClock(count * 60_000);

    const yesterdays = await client.charges.create({ payment_method: 'qris', amount: 7_500 });
    await minutes(10);
    await sandbox.payCharge(yesterdays.id); // 22:00 on 3 May: another day's takings
    await minutes(90);
    const lateOrder = await client.charges.create({ payment_method: 'virtual_account', amount: 500_000 }); // 23:30
    await minutes(60);
    const quick = await client.charges.create({ payment_method: 'qris', amount: 10_000 }); // 00:30 on 4 May
    await minutes(5);
    await sandbox.payCharge(quick.id);
    await client.charges.create({ payment_method: 'qris', amount: 20_000 }); // 00:35, never paid
    await minutes(25);
    await sandbox.payCharge(lateOrder.id); // 01:00
    expect((await client.charges.retrieve(lateOrder.id)).paid_at).toBe('2026-05-03T18:00:00.000Z');

    const out = await runExample('paid-today.ts', {
      LUNAS_API_KEY: sandbox.apiKey,
      LUNAS_BASE_URL: sandbox.url,
      DAY: '2026-05-04',
    });
    expect(out).toContain('Paid on 2026-05-04 (Jakarta): 2 charge(s), 510000.00 idr');
    expect(out).toContain("Created since midnight and paid: 10000.00 idr, which is not the day's takings");
  });

  test('transfer-with-idempotency.ts moves the money once, however often it runs', async () => {
    const env = await withSandbox();
    const first = await runExample('transfer-with-idempotency.ts', env);
    const second = await runExample('transfer-with-idempotency.ts', env);
    expect(first).toMatch(/Transfer tr_\w+: 125000\.00 idr to Partner/);
    expect(second).toBe(first);
    expect(sandbox!.transfers()).toHaveLength(1);
    expect(sandbox!.balance('acc_partner')).toBe('125000.00');
  });

  test('handle-errors.ts tells each failure apart', async () => {
    const env = await withSandbox();
    const out = await runExample('handle-errors.ts', env);
    expect(out).toContain('bad amount: fix the request: {"amount":["Amount must be greater than 0"]}');
    expect(out).toContain(
      'inactive account: the service refused it: {"destination_account_id":["Destination account is not active"]}',
    );
    expect(out).toMatch(/unknown charge: no such resource \(request id req_\w+\)/);
  });

  test('dev-loop.ts: a charge paid on its payment page, its webhooks delivered and confirmed, the order fulfilled once', async () => {
    const out = await runExample('dev-loop.ts');
    const id = /Charge (ch_\w+): 25000\.00 idr, pending/.exec(out)?.[1];
    expect(id).toBeDefined();
    expect(out).toMatch(new RegExp(`Pressed Pay on http://127\\.0\\.0\\.1:\\d+/pay/${id}: HTTP 200`));
    expect(out).toMatch(/Receiver listening on http:\/\/127\.0\.0\.1:\d+\/webhooks\/lunas/);
    // `created` may be confirmed before or after the payment; `succeeded` twice (one redelivery).
    expect(out).toMatch(new RegExp(`received payment_charge\\.created: ${id} is (pending|success)`));
    expect(out.split(`received payment_charge.succeeded: ${id} is success`)).toHaveLength(3);
    expect(out.split(`fulfilled order-42 (${id})`)).toHaveLength(2);
    expect(out).toContain('delivery of payment_charge.created: delivered (204)');
    expect(out).toContain('delivery of payment_charge.succeeded: delivered (204)');
    expect(out).toContain('orders fulfilled: 1');
    expect(out).toMatch(new RegExp(`Charge ${id} is success, paid at \\d{4}-`));
  });

  test('reconcile-with-cli.ts: a crash-and-rerun test against `lunas-sandbox` and its subcommands alone', async () => {
    // The sandbox as a merchant starts it, in another process: the command, not startSandbox.
    const [sandboxNode, bundle] = sandboxCommand();
    const server = spawn(sandboxNode, [bundle, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    onTestFinished(() => void server.kill('SIGTERM'));
    let printed = '';
    server.stdout.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
    await until(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(printed));
    const url = /listening on (\S+)/.exec(printed)![1]!;
    const out = await runExample(
      'reconcile-with-cli.ts',
      { LUNAS_BASE_URL: url, LUNAS_API_KEY: 'sk_test_sandbox', LUNAS_SANDBOX_CLI: sandboxCommand().join(' ') },
      90_000,
    );
    expect(out).toMatch(/^Paid ch_\w+ and ch_\w+; an hour later payment_charge\.failed ch_\w+$/m);
    expect(out).toContain('run 1: crashed before recording the transfer');
    expect(out).toContain('run 2: sent 2 transfer request(s)');
    expect(out).toContain('transfers made: 2 (2500.00 + 4000.00); partner +6500.00');
    expect(out).toContain('payment_charge.failed events for the abandoned order: 1');
    expect(out).toContain('reconciliation paid each share exactly once');
  }, 120_000);

  test('marketplace-with-cli.ts: a marketplace started with --accounts and driven by subcommands alone', async () => {
    const out = await runExample('marketplace-with-cli.ts', { LUNAS_SANDBOX_CLI: sandboxCommand().join(' ') }, 90_000);
    expect(out).toMatch(/^Sandbox at http:\/\/127\.0\.0\.1:\d+ with 2 accounts from accounts\.json$/m);
    expect(out).toContain('Seller acc_kopi (Toko Kopi) opened');
    expect(out).toMatch(/^Order (ch_\w+): pay 250000\.00 idr into virtual account \d{16}$/m);
    const order = /^Order (ch_\w+)/m.exec(out)![1]!;
    expect(out).toContain(
      `Webhooks settled: true; heard payment_charge.created ${order}, payment_charge.succeeded ${order}`,
    );
    // The virtual account's flat fee, 4000.00, stays with the service.
    expect(out).toContain('Merchant balance grew by 246000.00 (amount 250000.00 less fee 4000.00): as expected');
    expect(out).toContain('Seller acc_kopi now holds 221400.00 (paid 221400.00 once)');
    expect(out).toMatch(/^A day later ch_\w+ is failed; fell due: payment_charge\.failed; endpoint heard: true$/m);
    expect(out).toMatch(/^Sandbox time now \d{4}-\d\d-\d\dT/m);
  }, 120_000);

  test('webhook-handler.ts confirms each event with the API and fulfils the order once', async () => {
    const handler = await startWebhookHandler();
    const charge = await handler.client.charges.create({ payment_method: 'qris', amount: 5000 });
    await sandbox!.payCharge(charge.id);
    expect(await handler.exited).toBe(0);
    // The created event may be confirmed before or after the payment: either way it reads the API.
    expect(handler.out()).toMatch(
      new RegExp(`payment_charge\\.created: ${charge.id} is (pending|success) \\(5000\\.00 idr\\)`),
    );
    expect(handler.out()).toContain(`payment_charge.succeeded: ${charge.id} is success (5000.00 idr)`);
    expect(handler.out().split(`fulfilled the order paid by ${charge.id}`)).toHaveLength(2);
  });

  test('webhook-handler.ts answers 503, not 2xx, when it cannot confirm the charge', async () => {
    // No retries: the handler exits after two requests, and a retry would find it gone.
    const handler = await startWebhookHandler({ webhookRetryDelaysMs: [] });
    sandbox!.inject({ method: 'GET', kind: 'status', status: 503, times: Infinity });
    const charge = await handler.client.charges.create({ payment_method: 'qris', amount: 5000 });
    await sandbox!.payCharge(charge.id);
    expect(await handler.exited).toBe(0);
    await sandbox!.webhooksSettled();
    expect(sandbox!.webhookFailures).toBe(2);
    expect(sandbox!.deliveries.map(({ attempts }) => attempts.map(({ status }) => status))).toEqual([[503], [503]]);
    expect(handler.err()).toMatch(new RegExp(`could not confirm the event: .*${charge.id}`));
    expect(handler.out()).not.toContain('fulfilled the order');
  });

  test('webhook-handler.ts answers 503 before the sender gives up when the API does not answer', async () => {
    // The sandbox gives up on an attempt after 10 s; the client's defaults would wait 3 x 30 s.
    const handler = await startWebhookHandler({ webhookRetryDelaysMs: [] });
    sandbox!.inject({ method: 'GET', kind: 'hang', times: Infinity });
    const charge = await handler.client.charges.create({ payment_method: 'qris', amount: 5000 });
    await sandbox!.payCharge(charge.id);
    expect(await handler.exited).toBe(0);
    await sandbox!.webhooksSettled();
    expect(sandbox!.deliveries.map(({ attempts }) => attempts.map(({ status }) => status))).toEqual([[503], [503]]);
    expect(handler.err()).toContain('could not confirm the event: APIUserAbortError');
  });
});

/** Starts examples/webhook-handler.ts as the webhook receiver of a new sandbox; it exits after two events. */
async function startWebhookHandler(options: SandboxOptions = {}): Promise<{
  client: Client;
  exited: Promise<number | null>;
  out: () => string;
  err: () => string;
}> {
  const port = await freePort();
  sandbox = await startSandbox({ ...options, webhookUrl: `http://127.0.0.1:${port}/` });
  const env = {
    LUNAS_API_KEY: sandbox.apiKey,
    LUNAS_BASE_URL: sandbox.url,
    PORT: String(port),
    EXIT_AFTER_EVENTS: '2',
  };
  const child = spawn(node, [...loader, 'examples/webhook-handler.ts'], { env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await until(() => out.includes('listening on'));
  return {
    client: new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url }),
    exited,
    out: () => out,
    err: () => err,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the example to start');
    await sleep(20);
  }
}
