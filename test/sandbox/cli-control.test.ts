/**
 * The `lunas-sandbox` subcommands, run as a merchant runs them (a separate
 * process, bundled from source for the run) against a sandbox this test
 * started: each acts or reads through the control surface, prints lines for
 * a person or, with `--json`, what the sandbox's helper returns; a wrong
 * command line exits 2 with usage, a refusal or an absent sandbox exits 1;
 * the key is never printed.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { listenForTest } from '../helpers/recorders.js';
import { call, createCharge, createTransfer, sandbox } from './helpers.js';
import { type Run, runSandboxCli as cli } from '../helpers/commands.js';
import { sleep } from '../helpers/waiting.js';
import { webhookReceiver } from './webhook-receiver.js';

/** A slow start of the command on a loaded machine, a few times per test. */
const CLI_TEST_MS = 60_000;

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
    'advance --json moves the clock and answers the events that fell due; transfers and balance read the books',
    async () => {
      const box = await sandbox();
      const id = await newCharge(box);
      expect(
        (await createTransfer(box, { destination_account_id: 'acc_partner', amount: 125000, currency: 'idr' })).status,
      ).toBe(200);
      const env = envOf(box);
      // Its lines (with the new sandbox time) are in cli-marketplace.test.ts: they read GET /_sandbox/clock.
      const advance = await cli(['advance', '16m', '--json'], env);
      expect(advance.code).toBe(0);
      expect(json(advance)).toEqual(asJson(box.events.slice(-1)));
      expect(box.events.at(-1)).toMatchObject({ type: 'payment_charge.failed', data: { id } });
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
        `${transfer!.id}  succeeded  Rp 125.000  acc_merchant -> acc_partner  ${transfer!.created_at}\n`,
      );
      expect(json(transfersJson)).toEqual(asJson(box.transfers()));
      expect(balance.stdout).toBe('acc_partner  Rp 125.000\n');
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
    'a bad subcommand, argument or flag exits 2 with the error and one usage line, never the whole usage',
    async () => {
      const box = await sandbox();
      const env = envOf(box);
      // Each rule has its case in cli-subcommands.test.ts, in process; here, the command as a merchant runs it.
      const cases: [string[], RegExp][] = [
        [['chrages'], /^lunas-sandbox: unknown subcommand "chrages": did you mean charges\?\n/],
        [['charges', '--jsn'], /^lunas-sandbox charges: unknown option --jsn: did you mean --json\?\n/],
        [['pay'], /^lunas-sandbox pay: pay takes <charge-id>, given 0 arguments\n/],
        [['advance', '-5'], /^lunas-sandbox advance: <duration> must be positive, not "-5": 1500 \(milliseconds\)/],
        [
          ['fault', 'status', '--status', '700'],
          /^lunas-sandbox fault: Fault status: status must be an integer from 200 to 599\n/,
        ],
        [['charges', '--url', 'http://example.com:4010'], /--url must name a sandbox on this machine/],
      ];
      const runs: Run[] = [];
      // A few at a time: a loaded machine starts processes slowly.
      for (let at = 0; at < cases.length; at += 3) {
        runs.push(...(await Promise.all(cases.slice(at, at + 3).map(([args]) => cli(args, env)))));
      }
      runs.forEach((run, index) => {
        const [args, message] = cases[index]!;
        expect(run.code, args.join(' ')).toBe(2);
        expect(run.stderr, args.join(' ')).toMatch(message);
        expect(run.stderr.split('\n'), args.join(' ')).toHaveLength(3);
        expect(run.stderr).toMatch(/`lunas-sandbox --help` lists every subcommand\.?\n$/);
        expect(run.stderr).not.toContain('Subcommands act on a running sandbox');
        expect(run.stdout).toBe('');
      });
      const noUrl = await cli(['charges']);
      expect(noUrl.code).toBe(2);
      expect(noUrl.stderr).toContain('Pass its URL with --url (or set LUNAS_BASE_URL)');
      // The one refused by the sandbox itself (fault status 700) reached only the control surface.
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
    '--help lists every subcommand and flag; after a subcommand, its own usage and the common flags',
    async () => {
      const [help, subHelp] = await Promise.all([cli(['--help']), cli(['deliveries', '-h'])]);
      expect(help.code).toBe(0);
      for (const word of [
        'pay <charge-id>',
        'fail <charge-id>',
        'expire <charge-id>',
        'redeliver <event-id> [--times <n>] [--concurrently]',
        'wait [--timeout <duration>]',
        'advance <duration>',
        'clock',
        'fault <kind> [--times <n>|Infinity]',
        '`fault clear`',
        'charges',
        'events',
        'deliveries',
        'transfers',
        'accounts',
        'account add <account-id> [--name <name>] [--balance <amount>] [--inactive]',
        'fund <account-id> <amount>',
        'balance <account-id>',
        '--url <url>',
        '--json',
        '--webhook-url <url>',
        '--accounts <file>',
        '--account <id>',
        'Pay, Fail, Expire and Redeliver',
      ]) {
        expect(help.stdout).toContain(word);
      }
      expect(subHelp.code).toBe(0);
      expect(subHelp.stdout).toMatch(/^Usage: lunas-sandbox deliveries \[options\]\n/);
      for (const word of ['every webhook delivery', '--url <url>', '--api-key <key>', '--json']) {
        expect(subHelp.stdout).toContain(word);
      }
    },
    CLI_TEST_MS,
  );

  it(
    'fault arms a fault another process then meets, and fault clear disarms it',
    async () => {
      const box = await sandbox();
      const env = envOf(box);
      const payouts = () => call(box, 'GET', '/v1/payouts');
      const armed = await cli(['fault', 'status', '--status', '503', '--times', '1'], env);
      expect(armed).toMatchObject({ code: 0, stdout: 'Fault armed: HTTP 503 for the next request.\n', stderr: '' });
      expect((await payouts()).status).toBe(503);
      expect((await payouts()).status).toBe(200);

      const forever = await cli(
        ['fault', 'status', '--status', '429', '--header', 'Retry-After: 7', '--times', 'Infinity', '--json'],
        env,
      );
      expect(json(forever)).toEqual({
        kind: 'status',
        status: 429,
        headers: { 'Retry-After': '7' },
        times: 'Infinity',
      });
      for (let i = 0; i < 2; i++) {
        const limited = await payouts();
        expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '7']);
      }
      expect(await cli(['fault', 'clear'], env)).toMatchObject({ code: 0, stdout: 'Every fault disarmed.\n' });
      expect((await payouts()).status).toBe(200);
      expect(box.requests.map(({ path }) => path)).toEqual(Array.from({ length: 5 }, () => '/v1/payouts'));
    },
    CLI_TEST_MS,
  );

  it(
    'wait exits 1 naming what is pending when its timeout runs out, and 0 once the receiver has answered',
    async () => {
      // The receiver holds payment_charge.created until it answers a later request.
      const hook = await webhookReceiver((index) => (index === 0 ? 'hold' : 204));
      const box = await sandbox({ webhookUrl: hook.url, webhookTimeoutMs: 60_000 });
      const env = envOf(box);
      const id = await newCharge(box);
      const [timedOut, nothingYet] = await Promise.all([
        cli(['wait', '--timeout', '1s'], env),
        cli(['wait', '--timeout', '1s', '--json'], env),
      ]);
      expect(timedOut).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'lunas-sandbox wait: 1 webhook delivery still pending after 1s: `lunas-sandbox deliveries` shows their attempts\n',
      });
      expect([nothingYet.code, json(nothingYet)]).toEqual([1, { settled: false, pending: 1, failed: [] }]);

      let exited = false;
      const waiting = cli(['wait', '--timeout', '30s'], env).then((run) => {
        exited = true;
        return run;
      });
      await sleep(1_000);
      expect(exited).toBe(false);
      await box.payCharge(id);
      expect(await waiting).toEqual({ code: 0, stdout: 'No webhook delivery is pending.\n', stderr: '' });
      expect(box.deliveries.map(({ state }) => state)).toEqual(['delivered', 'delivered']);
    },
    CLI_TEST_MS,
  );

  it(
    'escapes C0, DEL and C1 in what a caller wrote, in lines and in JSON that still reads back the same',
    async () => {
      // ESC clears the screen; U+009D…U+009C is an 8-bit OSC 52, a clipboard write on terminals honouring C1.
      const description = 'Order\u001b[2J\u007f \u009d52;c;cm0gLXJmIH4=\u009c\u009b31m';
      const box = await sandbox();
      await newCharge(box, { payment_method: 'qris', amount: 25000, description });
      const env = envOf(box);
      const [lines, asJsonText] = await Promise.all([cli(['charges'], env), cli(['charges', '--json'], env)]);
      for (const run of [lines, asJsonText]) {
        expect(run.code).toBe(0);
        // eslint-disable-next-line no-control-regex -- control characters are exactly what must not be printed
        expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      }
      expect(lines.stdout).toContain('"Order\\u001b[2J\\u007f \\u009d52;c;cm0gLXJmIH4=\\u009c\\u009b31m"\n');
      expect(json(asJsonText)).toEqual(asJson(box.charges()));
      expect((json(asJsonText) as { description: string }[])[0]?.description).toBe(description);
    },
    CLI_TEST_MS,
  );
});
