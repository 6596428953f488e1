/**
 * The `lunas-sandbox` subcommands in process, against a stand-in control
 * surface: what each one asks of the sandbox (method, path, body, key), what
 * it prints for a person or as JSON, how it reads the command line (durations,
 * negative numbers, "did you mean"), and that nothing it prints carries a
 * control character. cli-control.test.ts runs the same command as a process
 * against real sandboxes.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runSubcommand } from '../../src/testing/cli/subcommands.js';
import { printable, printableJson } from '../../src/testing/cli/printable.js';
import { listenForTest } from '../helpers/recorders.js';

interface Seen {
  method: string;
  path: string;
  body: unknown;
  authorization: string | undefined;
}

/** What the stand-in answers a request: `data` (200), or a status and a message. */
type Answer = { data: unknown } | { status: number; message: string };

/** A control surface answering `answers` by `METHOD /path` (404 else), recording every request. */
async function standIn(answers: Record<string, Answer | ((body: unknown) => Answer)>) {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      const body: unknown = text === '' ? undefined : JSON.parse(text);
      const key = `${request.method} ${request.url}`;
      seen.push({
        method: request.method ?? '',
        path: request.url ?? '',
        body,
        authorization: request.headers.authorization,
      });
      const given = answers[key];
      const answer = typeof given === 'function' ? given(body) : (given ?? { status: 404, message: 'Not found' });
      const envelope =
        'data' in answer ? { status: 'success', data: answer.data } : { status: 'error', message: answer.message };
      response
        .writeHead('data' in answer ? 200 : answer.status, {
          'content-type': 'application/json',
          'lunas-sandbox-version': '0.0.0-test',
        })
        .end(JSON.stringify(envelope));
    });
  });
  const url = await listenForTest(server);
  return { url, seen };
}

interface Run {
  code: number;
  out: string;
  err: string;
}

/** `lunas-sandbox …args` against the sandbox at `url` (no LUNAS_API_KEY: the default key). */
async function run(args: string[], url?: string): Promise<Run> {
  let out = '';
  let err = '';
  const [name = '', ...rest] = args;
  const code = await runSubcommand(name, rest, {
    out: (text) => (out += text),
    err: (text) => (err += text),
    env: { LUNAS_BASE_URL: url },
  });
  return { code, out, err };
}

/** Every control character: C0, DEL, C1. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Output split into lines, none of which may hold a control character. */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  for (const line of lines) expect(line).not.toMatch(CONTROL);
  return lines;
}

const ACCOUNTS = [
  { id: 'acc_merchant', name: 'Merchant', balance: '1000000.00', active: true },
  { id: 'acc_closed', name: 'Closed', balance: '0.50', active: false },
];

describe('printable and printableJson', () => {
  it('escape C0, DEL and C1 as JSON escapes, leaving other text as it is', () => {
    expect(printable('a\u001b[2Jb\u007fc\u009bd\u009d52;c;aGk=\u009ce\nf\tg é ✓')).toBe(
      'a\\u001b[2Jb\\u007fc\\u009bd\\u009d52;c;aGk=\\u009ce\\nf\\tg é ✓',
    );
    expect(printable(printable('\u0085\u0000'))).toBe('\\u0085\\u0000');
  });

  it('keep JSON valid and equal to the value, with no raw control character in it', () => {
    const value = { description: 'x\u007f\u0080\u009f\u001b"\\', list: ['\u0090', 1, null] };
    const text = printableJson(value);
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must not be there
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(JSON.parse(text)).toEqual(value);
    expect(printableJson(undefined)).toBe('null');
  });
});

describe('accounts, account add, fund and clock', () => {
  it('accounts lists every account for a person, and as JSON', async () => {
    const { url, seen } = await standIn({ 'GET /_sandbox/accounts': { data: ACCOUNTS } });
    const listed = await run(['accounts'], url);
    expect(listed).toMatchObject({ code: 0, err: '' });
    expect(linesOf(listed.out)).toEqual([
      'acc_merchant  "Merchant"  Rp 1.000.000',
      'acc_closed  "Closed"  Rp 0,50  inactive',
    ]);
    const json = await run(['accounts', '--json'], url);
    expect(JSON.parse(json.out)).toEqual(ACCOUNTS);
    expect(seen.map(({ method, path, authorization }) => [method, path, authorization])).toEqual([
      ['GET', '/_sandbox/accounts', 'Bearer sk_test_sandbox'],
      ['GET', '/_sandbox/accounts', 'Bearer sk_test_sandbox'],
    ]);
    const none = await standIn({ 'GET /_sandbox/accounts': { data: [] } });
    expect((await run(['accounts'], none.url)).out).toBe('No accounts yet.\n');
  });

  it('account add sends the id and the flags given, and prints the account', async () => {
    const added = { id: 'acc_shop', name: 'Shop', balance: '500.00', active: false };
    const { url, seen } = await standIn({ 'POST /_sandbox/accounts': { data: added } });
    const run1 = await run(['account', 'add', 'acc_shop', '--name', 'Shop', '--balance', '500', '--inactive'], url);
    expect(run1).toEqual({ code: 0, out: 'acc_shop  "Shop"  Rp 500  inactive\n', err: '' });
    await run(['account', 'add', 'acc_bare'], url);
    expect(seen.map(({ body }) => body)).toEqual([
      { id: 'acc_shop', name: 'Shop', balance: '500', active: false },
      { id: 'acc_bare' },
    ]);
    const wrongVerb = await run(['account', 'ad', 'acc_shop'], url);
    expect(wrongVerb.code).toBe(2);
    expect(linesOf(wrongVerb.err)[0]).toBe(
      'lunas-sandbox account: account takes add <account-id>, not "ad": did you mean add?',
    );
    expect(seen).toHaveLength(2);
  });

  it('fund sends the amount as written, negative ones included, and names an unknown account', async () => {
    const after = { id: 'acc/x', name: 'X', balance: '150000.00', active: true };
    const { url, seen } = await standIn({
      'POST /_sandbox/accounts/acc%2Fx/fund': (body) =>
        (body as { amount: string }).amount.startsWith('-')
          ? { status: 400, message: 'amount must be greater than 0' }
          : { data: after },
      'POST /_sandbox/accounts/acc_nope/fund': { status: 404, message: 'No account with id "acc_nope"' },
    });
    expect(await run(['fund', 'acc/x', '50000.00'], url)).toEqual({
      code: 0,
      out: 'acc/x  "X"  Rp 150.000\n',
      err: '',
    });
    const negative = await run(['fund', 'acc/x', '-5'], url);
    expect(negative.code).toBe(2);
    expect(linesOf(negative.err)[0]).toBe('lunas-sandbox fund: amount must be greater than 0');
    const unknown = await run(['fund', 'acc_nope', '1'], url);
    expect(unknown).toEqual({ code: 1, out: '', err: 'lunas-sandbox fund: No account with id "acc_nope"\n' });
    expect(seen.map(({ body }) => body)).toEqual([{ amount: '50000.00' }, { amount: '-5' }, { amount: '1' }]);
  });

  it('clock prints the sandbox time', async () => {
    const { url } = await standIn({ 'GET /_sandbox/clock': { data: { now: '2026-05-04T10:15:00.000Z' } } });
    expect(await run(['clock'], url)).toEqual({ code: 0, out: 'Sandbox time: 2026-05-04T10:15:00.000Z\n', err: '' });
    expect(JSON.parse((await run(['clock', '--json'], url)).out)).toEqual({ now: '2026-05-04T10:15:00.000Z' });
  });
});

describe('advance', () => {
  const event = {
    id: 'evt_9',
    type: 'payment_charge.failed',
    created_at: '2026-05-04T10:15:00.000Z',
    data: { id: 'ch_7', status: 'failed' },
  };

  it('takes 1500, 1500ms, 90s, 15m, 2h and 3d, and says the new sandbox time and what fell due', async () => {
    const { url, seen } = await standIn({
      'POST /_sandbox/clock/advance': (body) => ({ data: (body as { ms: number }).ms === 900_000 ? [event] : [] }),
      'GET /_sandbox/clock': { data: { now: '2026-05-04T10:16:00.000Z' } },
    });
    const moved = await run(['advance', '15m'], url);
    expect(moved).toMatchObject({ code: 0, err: '' });
    expect(linesOf(moved.out)).toEqual([
      'Clock moved forward 15m (900000 ms) to 2026-05-04T10:16:00.000Z; 1 event fell due:',
      'evt_9  payment_charge.failed  ch_7 failed  2026-05-04T10:15:00.000Z',
    ]);
    expect((await run(['advance', '1500'], url)).out).toBe(
      'Clock moved forward 1500 ms to 2026-05-04T10:16:00.000Z; nothing fell due.\n',
    );
    for (const text of ['1500ms', '90s', '2h', '3d']) expect((await run(['advance', text], url)).code).toBe(0);
    // --json prints what the helper returns, the events alone, and reads no clock.
    const json = await run(['advance', '15m', '--json'], url);
    expect(JSON.parse(json.out)).toEqual([event]);
    expect(seen.map(({ method, path, body }) => [method, path, body])).toEqual([
      ['POST', '/_sandbox/clock/advance', { ms: 900_000 }],
      ['GET', '/_sandbox/clock', undefined],
      ['POST', '/_sandbox/clock/advance', { ms: 1_500 }],
      ['GET', '/_sandbox/clock', undefined],
      ...[1_500, 90_000, 7_200_000, 259_200_000].flatMap((ms) => [
        ['POST', '/_sandbox/clock/advance', { ms }],
        ['GET', '/_sandbox/clock', undefined],
      ]),
      ['POST', '/_sandbox/clock/advance', { ms: 900_000 }],
    ]);
  });

  it.each([
    [['-5'], /<duration> must be positive, not "-5": 1500 \(milliseconds\), 1500ms, 90s, 15m, 2h or 3d$/],
    [['--', '-5'], /<duration> must be positive, not "-5"/],
    [['-15m'], /<duration> must be positive, not "-15m"/],
    [['0'], /<duration> must be positive, not "0"/],
    [['0s'], /<duration> must be positive, not "0s"/],
    [['1.5'], /<duration> must be a duration, 1500 \(milliseconds\), 1500ms, 90s, 15m, 2h or 3d; not "1.5"$/],
    [['15 m'], /must be a duration/],
    [['2w'], /must be a duration/],
    [['99999999999999d'], /<duration> is too long/],
  ])('refuses advance %j before asking the sandbox: one line, then the usage line', async (args, message) => {
    const { url, seen } = await standIn({});
    const refused = await run(['advance', ...args], url);
    expect(refused.code).toBe(2);
    const lines = linesOf(refused.err);
    expect(lines).toEqual([
      expect.stringMatching(message),
      'Usage: lunas-sandbox advance <duration> [--json] [--url <url>] [--api-key <key>]; `lunas-sandbox --help` lists every subcommand',
    ]);
    expect(lines[0]).toMatch(/^lunas-sandbox advance: /);
    expect(refused.out).toBe('');
    expect(seen).toEqual([]);
  });
});

describe('wait', () => {
  it('asks the sandbox to wait (30 s by default, or --timeout), exit 0 once nothing is pending', async () => {
    const { url, seen } = await standIn({ 'POST /_sandbox/webhooks/wait': { data: { settled: true, pending: 0 } } });
    expect(await run(['wait'], url)).toEqual({ code: 0, out: 'No webhook delivery is pending.\n', err: '' });
    expect((await run(['wait', '--timeout', '2m'], url)).code).toBe(0);
    expect(JSON.parse((await run(['wait', '--timeout=1500', '--json'], url)).out)).toEqual({
      settled: true,
      pending: 0,
    });
    expect(seen.map(({ body }) => body)).toEqual([{ timeoutMs: 30_000 }, { timeoutMs: 120_000 }, { timeoutMs: 1_500 }]);
  });

  it('exits 1 saying how many deliveries are still pending when the wait ran out', async () => {
    const { url } = await standIn({ 'POST /_sandbox/webhooks/wait': { data: { settled: false, pending: 2 } } });
    expect(await run(['wait', '--timeout', '1s'], url)).toEqual({
      code: 1,
      out: '',
      err: 'lunas-sandbox wait: 2 webhook deliveries still pending after 1s: `lunas-sandbox deliveries` shows their attempts\n',
    });
    const json = await run(['wait', '--json'], url);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toEqual({ settled: false, pending: 2 });
    expect(json.err).toContain('2 webhook deliveries still pending after 30s');
    const one = await standIn({ 'POST /_sandbox/webhooks/wait': { data: { settled: false, pending: 1 } } });
    expect((await run(['wait'], one.url)).err).toContain(': 1 webhook delivery still pending after 30s');
  });

  it("exits 1 naming each delivery given up, a line each, the receiver's text made inert", async () => {
    const failed = [
      {
        eventId: 'evt_1',
        eventType: 'payment_charge.created',
        url: 'http://127.0.0.1:9/hooks',
        attempts: 3,
        error: 'fetch failed (connect ECONNREFUSED 127.0.0.1:9)',
      },
      {
        eventId: 'evt_2',
        eventType: 'payment_charge.succeeded',
        url: null,
        attempts: 1,
        error: 'HTTP 302 to /x\n\u001b[31mred',
      },
    ];
    const { url } = await standIn({ 'POST /_sandbox/webhooks/wait': { data: { settled: true, pending: 0, failed } } });
    expect(await run(['wait'], url)).toEqual({
      code: 1,
      out: '',
      err:
        'lunas-sandbox wait: 2 webhook deliveries were given up:\n' +
        '  webhook payment_charge.created evt_1 to http://127.0.0.1:9/hooks failed after 3 attempts: fetch failed (connect ECONNREFUSED 127.0.0.1:9)\n' +
        '  webhook payment_charge.succeeded evt_2 to the webhook handler failed after 1 attempt: HTTP 302 to /x\\n\\u001b[31mred\n' +
        '`lunas-sandbox deliveries` shows their attempts; `lunas-sandbox redeliver <event-id>` sends one again\n',
    });
    const json = await run(['wait', '--json'], url);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toEqual({ settled: true, pending: 0, failed });
  });

  it('says the sandbox stopped when it cuts the connection mid-wait, as closing it does', async () => {
    const server = createServer((request) => request.socket.destroy());
    const url = await listenForTest(server);
    expect(await run(['wait'], url)).toEqual({
      code: 1,
      out: '',
      err: `lunas-sandbox wait: the sandbox at ${url} closed the connection before answering: it was stopped, or is stopping\n`,
    });
  });

  it('refuses a timeout that is not a positive duration', async () => {
    const { url, seen } = await standIn({});
    for (const timeout of ['0', '-1s', 'soon']) {
      const refused = await run(['wait', '--timeout', timeout], url);
      expect(refused.code, timeout).toBe(2);
      expect(refused.err).toMatch(/^lunas-sandbox wait: --timeout must be/);
    }
    expect(seen).toEqual([]);
  });
});

describe('fault', () => {
  const echo = (body: unknown): Answer => ({ data: { times: 1, ...(body as object) } });

  it('arms the kind with its flags, as the control surface takes a fault, and says what it does', async () => {
    const { url, seen } = await standIn({
      'POST /_sandbox/faults': echo,
      'POST /_sandbox/faults/clear': { data: null },
    });
    const cases: [string[], string][] = [
      [['status', '--status', '503'], 'Fault armed: HTTP 503 for the next request.'],
      [
        ['status', '--status', '429', '--header', 'Retry-After: 1', '--header', 'X-Why:  busy ', '--times', '2'],
        'Fault armed: HTTP 429 for the next 2 requests.',
      ],
      [
        ['html', '--times', 'Infinity'],
        'Fault armed: an HTML error page (HTTP 502) for every request until `lunas-sandbox fault clear`.',
      ],
      [['malformed', '--status', '500'], 'Fault armed: truncated JSON (HTTP 500) for the next request.'],
      [
        ['delay', '--ms', '1500', '--method', 'POST', '--path', '/v1/transfers'],
        'Fault armed: a delay of 1500 ms for the next POST request to /v1/transfers.',
      ],
      [['hang', '--method', 'GET'], 'Fault armed: no answer, ever (hang) for the next GET request.'],
      [['drop', '--path', '/v1/payouts'], 'Fault armed: a dropped connection for the next request to /v1/payouts.'],
      [
        ['lost-response', '--times', '3'],
        'Fault armed: a lost response (processed, then cut) for the next 3 requests.',
      ],
      [
        ['status', '--status', '429', '--every', '10', '--times', 'Infinity', '--method', 'POST'],
        'Fault armed: HTTP 429 for one in every 10 POST requests until `lunas-sandbox fault clear`.',
      ],
      [
        ['drop', '--every', '3', '--times', '2'],
        'Fault armed: a dropped connection for one in every 3 requests, 2 times.',
      ],
      [['clear'], 'Every fault disarmed.'],
    ];
    for (const [args, line] of cases) {
      expect(await run(['fault', ...args], url), args.join(' ')).toEqual({ code: 0, out: `${line}\n`, err: '' });
    }
    expect(seen.map(({ path, body }) => [path, body])).toEqual([
      ['/_sandbox/faults', { kind: 'status', status: 503 }],
      ['/_sandbox/faults', { kind: 'status', status: 429, times: 2, headers: { 'Retry-After': '1', 'X-Why': 'busy' } }],
      ['/_sandbox/faults', { kind: 'html', times: 'Infinity' }],
      ['/_sandbox/faults', { kind: 'malformed', status: 500 }],
      ['/_sandbox/faults', { kind: 'delay', ms: 1_500, method: 'POST', path: '/v1/transfers' }],
      ['/_sandbox/faults', { kind: 'hang', method: 'GET' }],
      ['/_sandbox/faults', { kind: 'drop', path: '/v1/payouts' }],
      ['/_sandbox/faults', { kind: 'lost-response', times: 3 }],
      ['/_sandbox/faults', { kind: 'status', status: 429, times: 'Infinity', every: 10, method: 'POST' }],
      ['/_sandbox/faults', { kind: 'drop', times: 2, every: 3 }],
      ['/_sandbox/faults/clear', {}],
    ]);
  });

  it.each([
    [['statsu', '--status', '503'], 'unknown fault kind "statsu": did you mean status?'],
    [['explode'], 'unknown fault kind "explode": kinds: status, html, delay, hang, drop, lost-response, malformed'],
    [['delay', '--status', '503'], '--status is for the fault kinds status, html, malformed; not delay'],
    [['html', '--ms', '5'], '--ms is for the fault kinds delay; not html'],
    [['html', '--header', 'A: b'], '--header is for the fault kinds status; not html'],
    [
      ['status', '--status', '503', '--header', 'Retry-After 1'],
      '--header must be "Name: value", e.g. "Retry-After: 1"; not "Retry-After 1"',
    ],
    [['status', '--status', 'busy'], '--status must be a whole number from 0 to 9007199254740991, not "busy"'],
    [['drop', '--times', '0'], '--times must be a whole number from 1 to 9007199254740991, not "0"'],
    [['drop', '--every', '0'], '--every must be a whole number from 1 to 9007199254740991, not "0"'],
    [['clear', '--every', '2'], 'fault clear takes no flags, given --every'],
    [['clear', '--times', '2'], 'fault clear takes no flags, given --times'],
    [['status', '--stauts', '503'], 'unknown option --stauts: did you mean --status?'],
  ])('refuses fault %j before asking the sandbox', async (args, message) => {
    const { url, seen } = await standIn({});
    const refused = await run(['fault', ...args], url);
    expect(refused.code).toBe(2);
    expect(linesOf(refused.err)).toEqual([
      `lunas-sandbox fault: ${message}`,
      expect.stringMatching(/^Usage: lunas-sandbox fault <kind> /),
    ]);
    expect(seen).toEqual([]);
  });

  it("passes the sandbox's own refusal of a value on as a usage error", async () => {
    const { url } = await standIn({
      'POST /_sandbox/faults': { status: 400, message: 'Fault status: status must be an integer from 200 to 599' },
    });
    const refused = await run(['fault', 'status', '--status', '700'], url);
    expect(refused.code).toBe(2);
    expect(linesOf(refused.err)[0]).toBe(
      'lunas-sandbox fault: Fault status: status must be an integer from 200 to 599',
    );
  });
});

describe('the command line', () => {
  it.each([
    [['charges', '--jsn'], 'lunas-sandbox charges: unknown option --jsn: did you mean --json?', 'charges'],
    [
      ['redeliver', 'evt_1', '--time', '2'],
      'lunas-sandbox redeliver: unknown option --time: did you mean --times?',
      'redeliver <event-id>',
    ],
    [
      ['balance', 'acc_1', '--frob'],
      'lunas-sandbox balance: unknown option --frob: balance takes --url, --api-key, --json, --help',
      'balance <account-id>',
    ],
    [
      ['charges', '-x'],
      'lunas-sandbox charges: unknown option -x: charges takes --url, --api-key, --json, --help; a value that starts with "-" goes after --, as in: -- -x',
      'charges',
    ],
    [['pay'], 'lunas-sandbox pay: pay takes <charge-id>, given 0 arguments', 'pay <charge-id>'],
    [['charges', 'extra'], 'lunas-sandbox charges: charges takes no argument, given 1 argument', 'charges'],
    [
      ['redeliver', 'evt_1', '--times'],
      "lunas-sandbox redeliver: Option '--times <value>' argument missing",
      'redeliver <event-id>',
    ],
  ])('%j: the error on one line, the usage line on the next, never the whole usage', async (args, error, synopsis) => {
    const refused = await run(args, 'http://127.0.0.1:9');
    expect(refused.code).toBe(2);
    expect(linesOf(refused.err)).toEqual([
      error,
      expect.stringMatching(
        new RegExp(
          `^Usage: lunas-sandbox ${synopsis.replace(/[[\]<>]/g, '\\$&')}.* \\[--json\\] \\[--url <url>\\] \\[--api-key <key>\\]; \`lunas-sandbox --help\` lists every subcommand$`,
        ),
      ),
    ]);
    expect(refused.out).toBe('');
  });

  it('names the closest subcommand to an unknown one, in two lines', async () => {
    for (const [name, hint] of [
      ['chrages', ': did you mean charges?'],
      ['acount', ': did you mean account?'],
      ['fualt', ': did you mean fault?'],
      ['frobnicate', ''],
      ['constructor', ''],
    ]) {
      const refused = await run([name!]);
      expect(refused.code).toBe(2);
      expect(refused.err).toBe(
        `lunas-sandbox: unknown subcommand "${name}"${hint}\n\`lunas-sandbox --help\` lists every subcommand.\n`,
      );
    }
  });

  it('--help after a subcommand shows its own usage and the options of every subcommand', async () => {
    const help = await run(['wait', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(
      /^Usage: lunas-sandbox wait \[--timeout <duration>\] \[options\]\n\n {2}wait until no webhook delivery is pending/,
    );
    for (const word of [
      '--url <url>',
      '--api-key <key>',
      '--json',
      'Durations: 1500 (milliseconds)',
      '`lunas-sandbox --help` lists every subcommand',
    ]) {
      expect(help.out).toContain(word);
    }
  });
});

describe('what the subcommands print holds no control character', () => {
  /** A description that clears the screen (C0), and writes the clipboard through an 8-bit OSC 52 (C1). */
  const HOSTILE = 'Order\u001b[2J\u007f \u009d52;c;cm0gLXJmIH4=\u009c\u009b31m';
  const charge = {
    id: 'ch_1',
    status: 'pending',
    amount: '25000.00',
    currency: 'idr',
    payment_method: 'qris',
    expires_at: '2026-05-04T10:15:00.000Z',
    description: HOSTILE,
  };

  it('in lines, in JSON (still the same value) and in the sandbox’s messages', async () => {
    const { url } = await standIn({
      'GET /_sandbox/charges': { data: [charge] },
      'GET /_sandbox/accounts': { data: [{ id: 'acc\u0085', name: HOSTILE, balance: '0.00', active: true }] },
      'POST /_sandbox/charges/ch%C2%9B/pay': { status: 404, message: 'No charge with id "ch\u009b"' },
    });
    const lines = await run(['charges'], url);
    expect(linesOf(lines.out)).toEqual([
      'ch_1  pending  Rp 25.000  qris  expires 2026-05-04T10:15:00.000Z  "Order\\u001b[2J\\u007f \\u009d52;c;cm0gLXJmIH4=\\u009c\\u009b31m"',
    ]);
    const json = await run(['charges', '--json'], url);
    expect(linesOf(json.out).join('\n')).toContain(
      '"description": "Order\\u001b[2J\\u007f \\u009d52;c;cm0gLXJmIH4=\\u009c\\u009b31m"',
    );
    expect(JSON.parse(json.out)).toEqual([charge]);
    expect(linesOf((await run(['accounts'], url)).out)).toEqual([
      'acc\\u0085  "Order\\u001b[2J\\u007f \\u009d52;c;cm0gLXJmIH4=\\u009c\\u009b31m"  Rp 0',
    ]);
    const refused = await run(['pay', 'ch\u009b'], url);
    expect(refused.code).toBe(1);
    expect(linesOf(refused.err)).toEqual(['lunas-sandbox pay: No charge with id "ch\\u009b"']);
    const usage = await run(['pay', 'ch\u009b', 'extra\u0085'], url);
    expect(linesOf(usage.err)[0]).toBe('lunas-sandbox pay: pay takes <charge-id>, given 2 arguments');
    const unknown = await run(['\u009bpay'], url);
    expect(linesOf(unknown.err)[0]).toBe('lunas-sandbox: unknown subcommand "\\u009bpay": did you mean pay?');
  });
});
