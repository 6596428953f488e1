import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { listenForTest } from '../helpers/recorders.js';
import { sandboxCommand } from '../helpers/commands.js';
import { sleep } from '../helpers/waiting.js';
import { webhookReceiver } from './webhook-receiver.js';

/** Kills `child` after the current test unless it has exited. */
function killAfterTest(child: ChildProcess): void {
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
}

function run(args: string[]) {
  const [node, bundle] = sandboxCommand();
  const child = spawn(node, [bundle, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killAfterTest(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** Waits until stdout matches `pattern`; resolves to its first group. */
async function waitForOutput(output: () => { stdout: string }, pattern: RegExp, ms = 15_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const match = pattern.exec(output().stdout);
    if (match) return match[1] ?? match[0];
    if (Date.now() > deadline) throw new Error(`${String(pattern)} not printed: ${output().stdout}`);
    await sleep(25);
  }
}

const waitForUrl = (output: () => { stdout: string }) =>
  waitForOutput(output, /listening on (http:\/\/127\.0\.0\.1:\d+)/);

/** Two waits of up to 15 s each (start, then the delivery's line) under a loaded machine's slow start of the command. */
const CLI_WEBHOOK_TEST_MS = 45_000;

/** Creates a charge on the command's sandbox, which records (and delivers) `payment_charge.created`. */
async function createCharge(url: string): Promise<void> {
  const response = await fetch(`${url}/v1/payments/charges`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_sandbox', 'content-type': 'application/json' },
    body: JSON.stringify({ payment_method: 'qris', amount: 10_000 }),
  });
  expect(response.status).toBe(200);
}

describe('lunas-sandbox CLI', () => {
  it.each([['SIGTERM'], ['SIGINT']] as const)('serves on the printed URL and stops cleanly on %s', async (signal) => {
    const cli = run(['--port', '0', '--api-key', 'sk_test_cli_key']);
    const url = await waitForUrl(cli.output);
    expect(cli.output().stdout).toContain('API key: sk_test_cli_key');
    const ok = await fetch(`${url}/v1/payments/methods`, { headers: { authorization: 'Bearer sk_test_cli_key' } });
    expect(ok.status).toBe(200);
    const refused = await fetch(`${url}/v1/payments/methods`, { headers: { authorization: 'Bearer sk_test_sandbox' } });
    expect(refused.status).toBe(401);
    cli.child.kill(signal);
    const [code] = await cli.exited;
    expect(code).toBe(0);
    await expect(fetch(`${url}/v1/payouts`)).rejects.toThrow();
  });

  it('--pid-file holds its own process id while it serves, and goes when SIGTERM stops it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lunas-pid-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'sandbox.pid');
    const cli = run(['--pid-file', file]);
    await waitForUrl(cli.output);
    expect(await readFile(file, 'utf8')).toBe(`${cli.child.pid}\n`);
    process.kill(Number(await readFile(file, 'utf8')), 'SIGTERM');
    expect(await cli.exited).toEqual([0, null]);
    await expect(readFile(file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('defaults to the sk_test_sandbox key', async () => {
    const cli = run(['--port=0']);
    const url = await waitForUrl(cli.output);
    expect(cli.output().stdout).toContain('API key: sk_test_sandbox');
    expect((await fetch(`${url}/v1/payouts`, { headers: { authorization: 'Bearer sk_test_sandbox' } })).status).toBe(
      200,
    );
    cli.child.kill('SIGTERM');
    expect((await cli.exited)[0]).toBe(0);
  });

  it('prints usage for --help and exits 0', async () => {
    const cli = run(['--help']);
    const [code] = await cli.exited;
    expect(code).toBe(0);
    expect(cli.output().stdout).toContain('Usage: lunas-sandbox');
    expect(cli.output().stdout).toContain('--api-key');
    expect(cli.output().stdout).toContain('--webhook-url <url>');
  });

  it(
    '--webhook-url delivers events, printing a line per failed attempt and one per delivery',
    async () => {
      const hook = await webhookReceiver((index) => (index === 0 ? 500 : 204));
      const cli = run(['--webhook-url', hook.url, '--webhook-retry-delays', '10']);
      const url = await waitForUrl(cli.output);
      expect(cli.output().stdout).toContain(`Webhooks: ${hook.url}\n`);
      await createCharge(url);
      const delivered = await waitForOutput(cli.output, /^webhook \S+ \S+ delivered: .*$/m);
      const lines = cli
        .output()
        .stdout.split('\n')
        .filter((line) => line.startsWith('webhook '));
      const eventId = hook.received[0]?.event.id as string;
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^webhook payment_charge\\.created ${eventId} attempt 1 failed: HTTP 500 \\(\\d+ ms\\); retrying in 10 ms$`,
          ),
        ),
        delivered,
      ]);
      expect(delivered).toMatch(
        new RegExp(`^webhook payment_charge\\.created ${eventId} delivered: HTTP 204, 2 attempts, \\d+ ms$`),
      );
      expect(hook.received).toHaveLength(2);
      cli.child.kill('SIGTERM');
      expect((await cli.exited)[0]).toBe(0);
    },
    CLI_WEBHOOK_TEST_MS,
  );

  it(
    '--webhook-url with a user name and password delivers them as Basic auth and never prints the password',
    async () => {
      const hook = await webhookReceiver();
      const withCredentials = hook.url.replace('http://', 'http://alice:hunter2@');
      const cli = run(['--webhook-url', withCredentials, '--webhook-retry-delays=']);
      const url = await waitForUrl(cli.output);
      expect(cli.output().stdout).toContain(`Webhooks: ${hook.url.replace('http://', 'http://alice:***@')}\n`);
      await createCharge(url);
      const outcome = await waitForOutput(cli.output, /^webhook \S+ \S+ (?:delivered|failed): .*$/m);
      expect(outcome).toMatch(/^webhook payment_charge\.created evt_\w+ delivered: HTTP 204, 1 attempt, \d+ ms$/);
      expect(hook.received[0]?.headers.authorization).toBe(`Basic ${Buffer.from('alice:hunter2').toString('base64')}`);
      cli.child.kill('SIGTERM');
      expect((await cli.exited)[0]).toBe(0);
      expect(cli.output().stdout + cli.output().stderr).not.toContain('hunter2');
    },
    CLI_WEBHOOK_TEST_MS,
  );

  it('refuses a --webhook-url whose credentials are not percent-encoded UTF-8, without printing them', async () => {
    const cli = run(['--webhook-url', 'http://alice:hunter2%zz@127.0.0.1:3000/hooks']);
    const [code] = await cli.exited;
    expect(code).toBe(2);
    expect(cli.output().stderr).toMatch(
      /^lunas-sandbox: --webhook-url's user name and password must be percent-encoded UTF-8 \(write % as %25\)\n/,
    );
    expect(cli.output().stderr + cli.output().stdout).not.toContain('hunter2');
  });

  it(
    'says when it gives up on a delivery',
    async () => {
      const hook = await webhookReceiver(() => 503);
      const cli = run([`--webhook-url=${hook.url}`, '--webhook-retry-delays=']);
      await createCharge(await waitForUrl(cli.output));
      const failed = await waitForOutput(cli.output, /^webhook \S+ \S+ failed: .*$/m);
      expect(failed).toMatch(/^webhook payment_charge\.created evt_\w+ failed: HTTP 503, 1 attempt, \d+ ms$/);
      expect(cli.output().stdout).toMatch(/attempt 1 failed: HTTP 503 \(\d+ ms\); giving up\n/);
      cli.child.kill('SIGTERM');
      expect((await cli.exited)[0]).toBe(0);
    },
    CLI_WEBHOOK_TEST_MS,
  );

  it.each([
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--verbose']],
    [['extra']],
    [['--webhook-url', 'localhost:3000/hooks']],
    [['--webhook-url', 'ftp://127.0.0.1/hooks']],
    [['--webhook-url']],
    [['--webhook-retry-delays', 'soon']],
    [['--webhook-retry-delays', '-5']],
    [['--webhook-retry-delays', '99999999']],
    [['--prot', '4010']],
    [['--port', '0', 'extra']],
  ])('refuses %j with exit code 2 and a message on stderr, in two lines', async (args) => {
    const cli = run(args);
    const [code] = await cli.exited;
    expect(code).toBe(2);
    expect(cli.output().stderr).toMatch(
      /^lunas-sandbox: [^\n]+\n`lunas-sandbox --help` (?:shows the usage|lists every subcommand)\.\n$/,
    );
    expect(cli.output().stdout).toBe('');
  });

  it('names the closest option to a misspelt one', async () => {
    const cli = run(['--prot', '4010']);
    expect((await cli.exited)[0]).toBe(2);
    expect(cli.output().stderr.split('\n')[0]).toBe('lunas-sandbox: unknown option --prot: did you mean --port?');
  });

  it('--accounts serves the accounts of a JSON file instead of the defaults, and prints them; --account names yours', async () => {
    const file = await tempFile(
      'accounts.json',
      JSON.stringify([
        { id: 'acc_shop', name: 'Shop', balance: '500000.00' },
        { id: 'acc_supplier', name: 'Supplier\u009b31m' },
        { id: 'acc_old', name: 'Old', balance: '10.50', active: false },
      ]),
    );
    const cli = run(['--accounts', file, '--account', 'acc_shop']);
    const url = await waitForUrl(cli.output);
    await waitForOutput(cli.output, /Press Ctrl\+C to stop\./);
    const printed = cli.output().stdout.split('\n');
    expect(
      printed.slice(printed.indexOf('API key: sk_test_sandbox') + 1, printed.indexOf('Press Ctrl+C to stop.')),
    ).toEqual([
      'Accounts (transfers are made from acc_shop):',
      '  acc_shop  "Shop"  Rp 500.000',
      '  acc_supplier  "Supplier\\u009b31m"  Rp 0',
      '  acc_old  "Old"  Rp 10,50  inactive',
    ]);
    const headers = { authorization: 'Bearer sk_test_sandbox', 'content-type': 'application/json' };
    const transfer = await fetch(`${url}/v1/transfers`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ destination_account_id: 'acc_supplier', amount: 1000, currency: 'idr' }),
    });
    expect(transfer.status).toBe(200);
    expect(((await transfer.json()) as { data: { source_account_id: string } }).data.source_account_id).toBe(
      'acc_shop',
    );
    const balance = (id: string) => fetch(`${url}/_sandbox/balances/${id}`, { headers });
    expect(await (await balance('acc_supplier')).json()).toEqual({ status: 'success', data: '1000.00' });
    expect((await balance('acc_merchant')).status).toBe(404);
    cli.child.kill('SIGTERM');
    expect((await cli.exited)[0]).toBe(0);
  });

  it('prints the default accounts, acc_merchant yours, when started without --accounts', async () => {
    const cli = run([]);
    await waitForOutput(cli.output, /Press Ctrl\+C to stop\./);
    expect(cli.output().stdout).toContain(
      'Accounts (transfers are made from acc_merchant):\n  acc_merchant  "Merchant"  Rp 1.000.000\n' +
        '  acc_partner  "Partner"  Rp 0\n  acc_closed  "Closed"  Rp 0  inactive\nPress Ctrl+C to stop.\n',
    );
    cli.child.kill('SIGTERM');
    expect((await cli.exited)[0]).toBe(0);
  });

  it.each<[string, string | undefined, string[], RegExp]>([
    ['missing', undefined, [], /^--accounts \S+missing\.json: cannot read it \(ENOENT\)$/],
    ['not JSON', '[{ id: 1 }]', [], /^--accounts \S+ is not valid JSON: /],
    [
      'an object',
      '{"id":"acc_a","name":"A"}',
      [],
      /must hold a non-empty JSON array of accounts, e\.g\. .*, not an object$/,
    ],
    ['empty', '[]', [], /must hold a non-empty JSON array of accounts, .*, not an empty one$/],
    ['a string entry', '["acc_a"]', [], /^--accounts \S+: account 1 must be an object, not a string$/],
    ['no id', '[{"name":"A"}]', [], /^--accounts \S+: Every account needs a non-empty string id$/],
    ['twice', '[{"id":"a","name":"A"},{"id":"a","name":"B"}]', [], /^--accounts \S+: Account a is listed twice$/],
    [
      'a bad balance',
      '[{"id":"a","name":"A","balance":"1.234"}]',
      [],
      /^--accounts \S+: Account a: balance must have at most two digits after the '\.' \(got "1\.234"\): in Indonesia/,
    ],
    [
      'without yours',
      '[{"id":"a","name":"A"}]',
      ['--account', 'b'],
      /^--accounts \S+: The caller's account b is not among the sandbox accounts$/,
    ],
  ])(
    'refuses an --accounts file that is %s, naming the file and what is wrong (exit 2)',
    async (name, text, extra, message) => {
      const file =
        text === undefined
          ? join(tmpdir(), `lunas-${process.pid}-missing.json`)
          : await tempFile(`${name.replace(/ /g, '-')}.json`, text);
      const cli = run(['--accounts', file, ...extra]);
      expect((await cli.exited)[0]).toBe(2);
      const [first, second, end] = cli.output().stderr.split('\n');
      expect(first).toMatch(/^lunas-sandbox: /);
      expect(first?.slice('lunas-sandbox: '.length)).toMatch(message);
      expect(first).toContain(file);
      expect([second, end]).toEqual(['`lunas-sandbox --help` shows the usage.', '']);
      expect(cli.output().stdout).toBe('');
    },
  );

  it('refuses --account naming none of the default accounts', async () => {
    const cli = run(['--account', 'acc_nobody']);
    expect((await cli.exited)[0]).toBe(2);
    expect(cli.output().stderr.split('\n')[0]).toBe(
      "lunas-sandbox: --account acc_nobody: The caller's account acc_nobody is not among the sandbox accounts",
    );
  });

  it(
    "escapes C0, DEL and C1 in a receiver's Location in the webhook lines: an 8-bit OSC 52 would write the clipboard",
    async () => {
      const location = 'https://shop.example/\u009d52;c;cm0gLXJmIH4=\u009c\u009b2J';
      const receiver = await listenForTest(
        createServer((request, response) => {
          request.resume();
          request.on('end', () => response.writeHead(302, { location }).end());
        }),
      );
      const cli = run(['--webhook-url', `${receiver}/hooks`, '--webhook-retry-delays=']);
      await createCharge(await waitForUrl(cli.output));
      const failed = await waitForOutput(cli.output, /^webhook \S+ \S+ failed: .*$/m);
      expect(cli.output().stdout).not.toMatch(/[\u007f-\u009f]/);
      expect(failed).toMatch(
        /^webhook payment_charge\.created evt_\w+ failed: HTTP 302 to https:\/\/shop\.example\/\\u009d52;c;cm0gLXJmIH4=\\u009c\\u009b2J, 1 attempt, \d+ ms$/,
      );
      cli.child.kill('SIGTERM');
      expect((await cli.exited)[0]).toBe(0);
    },
    CLI_WEBHOOK_TEST_MS,
  );
});

/** A file in a directory removed after the test. */
async function tempFile(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lunas-cli-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}
