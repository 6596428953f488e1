/**
 * The `lunas-sandbox` subcommands, run as a merchant runs them (a separate
 * process, through tsx) against a sandbox this test started: each acts or
 * reads through the control surface, prints lines for a person or, with
 * `--json`, what the sandbox's helper returns; a wrong command line exits 2
 * with usage, a refusal or an absent sandbox exits 1; the key is never printed.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { listenForTest } from '../helpers/recorders.js';
import { createCharge, createTransfer, sandbox } from './helpers.js';
import { webhookReceiver } from './webhook-receiver.js';

const TSX = 'node_modules/.bin/tsx';
const CLI = 'src/testing/cli/main.ts';

/** A slow tsx start on a loaded machine, a few times per test. */
const CLI_TEST_MS = 60_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `lunas-sandbox …args` with `env` (and no LUNAS_* of the test's own environment). */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const { LUNAS_BASE_URL: _url, LUNAS_API_KEY: _key, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(TSX, [CLI, ...args], { env: { ...inherited, ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

/** The sandbox's URL and key as a merchant's shell has them. */
const envOf = (box: Sandbox): Record<string, string> => ({ LUNAS_BASE_URL: box.url, LUNAS_API_KEY: box.apiKey });

async function newCharge(box: Sandbox, body: Record<string, unknown> = { payment_method: 'qris', amount: 25000 }) {
  const created = await createCharge(box, body);
  expect(created.status, created.text).toBe(200);
  return created.body.data.id as string;
}

/** The JSON a `--json` run printed, as the helpers' objects serialise. */
const json = (run: Run): unknown => JSON.parse(run.stdout);

/** What a helper returns, as it travels in JSON (dates as ISO strings). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('lunas-sandbox subcommands', () => {
  it(
    'pay, fail and expire settle charges; charges and events list them, for a person and as JSON',
    async () => {
      const box = await sandbox({ apiKey: 'sk_test_cli_subcommands' });
      const [paid, failed, expired] = [await newCharge(box), await newCharge(box), await newCharge(box)];
      const env = envOf(box);
      const [pay, fail, expire] = await Promise.all([
        cli(['pay', paid], env),
        cli(['fail', failed, '--json'], env),
        cli(['expire', expired], env),
      ]);
      expect(pay).toMatchObject({ code: 0, stderr: '' });
      expect(pay.stdout).toMatch(new RegExp(`^${paid}  success  Rp 25\\.000  qris  expires \\S+\\n$`));
      expect(fail.code).toBe(0);
      expect(json(fail)).toEqual(asJson(box.charges().find((charge) => charge.id === failed)));
      expect(expire.stdout).toContain(`${expired}  failed  Rp 25.000`);
      expect(box.charges().map((charge) => charge.status)).toEqual(['success', 'failed', 'failed']);

      const [charges, chargesJson, events, eventsJson] = await Promise.all([
        cli(['charges'], env),
        cli(['charges', '--json'], env),
        cli(['events', '--url', box.url], { LUNAS_API_KEY: box.apiKey }),
        cli(['events', '--json', '--api-key', box.apiKey], { LUNAS_BASE_URL: box.url }),
      ]);
      expect(charges.stdout.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^${paid}  success  `)),
        expect.stringMatching(new RegExp(`^${failed}  failed  `)),
        expect.stringMatching(new RegExp(`^${expired}  failed  `)),
      ]);
      expect(json(chargesJson)).toEqual(asJson(box.charges()));
      expect(events.stdout.trim().split('\n')).toHaveLength(6);
      expect(events.stdout).toContain(`payment_charge.succeeded  ${paid} success`);
      expect(json(eventsJson)).toEqual(asJson(box.events));
      for (const run of [pay, fail, expire, charges, chargesJson, events, eventsJson]) {
        expect(run.stdout + run.stderr).not.toContain(box.apiKey);
      }
    },
    CLI_TEST_MS,
  );

  it(
    'advance moves the clock and prints the events that fell due; transfers and balance read the books',
    async () => {
      const box = await sandbox();
      const id = await newCharge(box);
      expect(
        (await createTransfer(box, { destination_account_id: 'acc_partner', amount: 125000, currency: 'idr' })).status,
      ).toBe(200);
      const env = envOf(box);
      const advance = await cli(['advance', String(16 * 60_000)], env);
      expect(advance.code).toBe(0);
      expect(advance.stdout).toMatch(
        new RegExp(
          `^Clock moved forward 960000 ms; 1 event\\(s\\) fell due:\\n\\S+  payment_charge\\.failed  ${id} failed  `,
        ),
      );
      expect(box.charges()[0]!.status).toBe('failed');
      const [transfers, transfersJson, balance, balanceJson, nothing] = await Promise.all([
        cli(['transfers'], env),
        cli(['transfers', '--json'], env),
        cli(['balance', 'acc_partner'], env),
        cli(['balance', 'acc_merchant', '--json'], env),
        cli(['advance', '1', '--json'], env),
      ]);
      const [transfer] = box.transfers();
      expect(transfers.stdout).toBe(
        `${transfer!.id}  succeeded  125000.00 idr  acc_merchant -> acc_partner  ${transfer!.created_at}\n`,
      );
      expect(json(transfersJson)).toEqual(asJson(box.transfers()));
      expect(balance.stdout).toBe('acc_partner  125000.00\n');
      expect(json(balanceJson)).toBe('875000.00');
      expect(json(nothing)).toEqual([]);
    },
    CLI_TEST_MS,
  );

  it(
    'deliveries lists every delivery with each attempt; redeliver --times --concurrently sends it again',
    async () => {
      const hook = await webhookReceiver((index) => (index === 0 ? 500 : 204));
      const box = await sandbox({ webhookUrl: hook.url, webhookRetryDelaysMs: [5] });
      const id = await newCharge(box);
      await box.webhooksSettled();
      const env = envOf(box);
      const [event] = box.events;
      const redeliver = await cli(['redeliver', event!.id, '--times', '2', '--concurrently'], env);
      expect(redeliver).toMatchObject({
        code: 0,
        stdout: `Redelivering ${event!.id}: run \`lunas-sandbox deliveries\` to follow it.\n`,
      });
      await box.webhooksSettled();
      expect(box.deliveries.map((delivery) => delivery.redelivery)).toEqual([false, true, true]);
      expect(hook.received).toHaveLength(4);

      const [deliveries, deliveriesJson] = await Promise.all([
        cli(['deliveries'], env),
        cli(['deliveries', '--json'], env),
      ]);
      const lines = deliveries.stdout.trim().split('\n');
      expect(lines.slice(0, 3)).toEqual([
        `webhook payment_charge.created ${event!.id} for ${id} (pending): delivered, 2 attempts`,
        expect.stringMatching(/^ {2}attempt 1 at \d{4}-\S+Z: HTTP 500 \(\d+ ms\)$/),
        expect.stringMatching(/^ {2}attempt 2 at \d{4}-\S+Z: HTTP 204 \(\d+ ms\)$/),
      ]);
      expect(lines.filter((line) => line.includes('(redelivery)'))).toHaveLength(2);
      expect(json(deliveriesJson)).toEqual(asJson(box.deliveries));
    },
    CLI_TEST_MS,
  );

  it(
    'an unknown id or a settled charge exits 1 saying so, and changes nothing',
    async () => {
      const box = await sandbox();
      const id = await newCharge(box);
      await box.payCharge(id);
      const env = envOf(box);
      const runs = await Promise.all([
        cli(['pay', 'ch_nope'], env),
        cli(['redeliver', 'evt_nope'], env),
        cli(['balance', 'acc_nope'], env),
        cli(['fail', id], env),
      ]);
      expect(runs.map(({ code }) => code)).toEqual([1, 1, 1, 1]);
      expect(runs.map(({ stderr }) => stderr)).toEqual([
        'lunas-sandbox pay: No charge with id "ch_nope"\n',
        'lunas-sandbox redeliver: No event "evt_nope" was recorded by this sandbox\n',
        'lunas-sandbox balance: No account with id "acc_nope"\n',
        `lunas-sandbox fail: Charge ${id} is success, not pending: only a pending charge can be settled\n`,
      ]);
      expect(runs.map(({ stdout }) => stdout)).toEqual(['', '', '', '']);
      expect(box.charges()[0]!.status).toBe('success');
    },
    CLI_TEST_MS,
  );

  it(
    'a bad subcommand, argument or flag exits 2 with usage',
    async () => {
      const box = await sandbox();
      const env = envOf(box);
      const cases: [string[], RegExp][] = [
        [['frobnicate'], /unknown subcommand "frobnicate"/],
        [['constructor'], /unknown subcommand "constructor"/],
        [['pay'], /pay takes <charge-id>, given 0 argument/],
        [['charges', 'extra'], /charges takes no argument, given 1 argument/],
        [['charges', '--frob'], /charges: Unknown option '--frob'/],
        [['pay', 'ch_1', '--times', '2'], /pay: Unknown option '--times'/],
        [['advance', '1.5'], /<ms> must be a whole number/],
        [['advance', '-5'], /advance: Unknown option '-5'|<ms> must be a whole number/],
        [['redeliver', 'evt_1', '--times', '0'], /--times must be a whole number from 1 to 100/],
        [['redeliver', 'evt_1', '--times', '101'], /--times must be a whole number from 1 to 100/],
        [['charges', '--url', 'http://example.com:4010'], /--url must name a sandbox on this machine/],
        [['charges', '--url', 'ftp://127.0.0.1:4010'], /--url must name a sandbox on this machine/],
        [['charges', '--url', 'not a url'], /--url must be an absolute URL/],
      ];
      const runs = await Promise.all(cases.map(([args]) => cli(args, env)));
      runs.forEach((run, index) => {
        const [args, message] = cases[index]!;
        expect(run.code, args.join(' ')).toBe(2);
        expect(run.stderr, args.join(' ')).toMatch(message);
        expect(run.stderr).toContain('Usage: lunas-sandbox');
        expect(run.stdout).toBe('');
      });
      const noUrl = await cli(['charges']);
      expect(noUrl.code).toBe(2);
      expect(noUrl.stderr).toContain('Pass its URL with --url (or set LUNAS_BASE_URL)');
      expect(box.requests).toEqual([]);
    },
    CLI_TEST_MS,
  );

  it(
    'a sandbox not running, a wrong key, or a server that is not a sandbox exits 1 with a clear message, never the key',
    async () => {
      const box = await sandbox();
      const url = box.url;
      const key = 'sk_test_not_the_right_one';
      const wrongKey = await cli(['charges', '--api-key', key], { LUNAS_BASE_URL: url });
      expect(wrongKey.code).toBe(1);
      expect(wrongKey.stderr).toBe(
        `lunas-sandbox charges: the sandbox at ${url} refused the API key (HTTP 401): pass the key it printed with --api-key or LUNAS_API_KEY\n`,
      );
      const other = await listenForTest(
        createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>')),
      );
      const notASandbox = await cli(['charges', '--url', other]);
      expect(notASandbox.code).toBe(1);
      expect(notASandbox.stderr).toContain('is not a lunas sandbox');
      await box.close();
      const gone = await cli(['pay', 'ch_1', '--api-key', key], { LUNAS_BASE_URL: url });
      expect(gone.code).toBe(1);
      expect(gone.stderr).toMatch(
        new RegExp(
          `^lunas-sandbox pay: no sandbox answered at ${url} \\(ECONNREFUSED\\): start one with \`npx lunas-sandbox\``,
        ),
      );
      for (const run of [wrongKey, gone]) expect(run.stdout + run.stderr).not.toContain(key);
    },
    CLI_TEST_MS,
  );

  it(
    '--help on its own or after a subcommand lists every subcommand and flag',
    async () => {
      const [help, subHelp] = await Promise.all([cli(['--help']), cli(['deliveries', '-h'])]);
      for (const run of [help, subHelp]) {
        expect(run.code).toBe(0);
        for (const word of [
          'pay <charge-id>',
          'fail <charge-id>',
          'expire <charge-id>',
          'redeliver <event-id> [--times <n>] [--concurrently]',
          'advance <ms>',
          'charges',
          'events',
          'deliveries',
          'transfers',
          'balance <account-id>',
          '--url <url>',
          '--json',
          '--webhook-url <url>',
          'Pay, Fail, Expire and Redeliver',
        ]) {
          expect(run.stdout).toContain(word);
        }
      }
    },
    CLI_TEST_MS,
  );
});
