/**
 * The `lunas-sandbox` subcommands: each acts on, or reads, a sandbox that is
 * already running (`npx lunas-sandbox` in another terminal, or a test's
 * `startSandbox`) through its control surface (`/_sandbox/…`, control-routes.ts)
 * with plain `fetch`. Only a loopback URL is accepted: the subcommands send
 * the API key, and a sandbox only ever listens on 127.0.0.1.
 *
 * Exit codes: 0 done; 1 the sandbox refused (an unknown id, a settled charge)
 * or did not answer; 2 the command line was wrong (usage printed).
 */
import { parseArgs } from 'node:util';
import { deliveryListing } from '../webhooks/delivery-lines.js';
import type { WebhookAttempt, WebhookDelivery } from '../webhooks/delivery-types.js';
import { formatAmount } from '../pages/payment-page.js';
import type { ChargeRecord, SandboxEvent, TransferRecord } from '../types.js';

/** The key a sandbox accepts when started without one. */
const DEFAULT_KEY = 'sk_test_sandbox';

/** How long a subcommand waits for the sandbox's answer: the control surface answers at once. */
const ANSWER_TIMEOUT_MS = 15_000;

/** The host names a sandbox answers at (server.ts refuses any other `Host`). */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The subcommands' part of `lunas-sandbox --help`. */
export const SUBCOMMAND_USAGE = `Subcommands act on a running sandbox:
  pay <charge-id>               settle a pending charge as paid (payment_charge.succeeded)
  fail <charge-id>              settle a pending charge as failed (payment_charge.failed)
  expire <charge-id>            expire a pending charge now (payment_charge.failed)
  redeliver <event-id> [--times <n>] [--concurrently]
                                send a recorded event to the webhook URL again, n times
                                (1 to 100, default 1), one after another or all at once
  advance <ms>                  move the sandbox's clock forward; charges that expire
                                on the way fail, oldest first, and their events print
  charges                       every charge, oldest first
  events                        every webhook event, oldest first
  deliveries                    every webhook delivery, with each of its attempts
  transfers                     every transfer, oldest first
  balance <account-id>          an account's balance

Options of every subcommand:
  --url <url>                   the sandbox, e.g. http://127.0.0.1:4010 (default
                                LUNAS_BASE_URL); loopback only
  --api-key <key>               its API key (default LUNAS_API_KEY, then sk_test_sandbox);
                                never printed
  --json                        print what the sandbox's helper returns, as JSON
  -h, --help                    show this help
`;

/** A wrong command line: exit 2, with usage. */
export class UsageError extends Error {}

/** The sandbox refused, or could not be reached: exit 1, no usage. */
class CommandFailure extends Error {}

/** What a subcommand takes after its name, and how it calls the control surface. */
interface Subcommand {
  /** The names of its positional arguments, in order. */
  args: readonly string[];
  /** Its own flags, beside the common ones. */
  flags?: Record<string, { type: 'string' | 'boolean' }>;
  /** The control request; `undefined` body for a GET. */
  request(args: string[], flags: Record<string, string | boolean | undefined>): { path: string; body?: unknown };
  /** Lines for a person about what the control surface answered. */
  lines(data: unknown, args: string[]): string[];
}

/** A path segment for an id: encoded, so the id is one segment whatever it holds. */
const segment = (id: string): string => encodeURIComponent(id);

/**
 * Text a caller sent (a description, a receiver's `Location`) made safe for a
 * terminal: a control character would move the cursor or recolour the screen.
 */
const printable = (text: string): string =>
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => JSON.stringify(char).slice(1, -1));

const chargeLine = (charge: ChargeRecord): string => {
  const parts = [
    charge.id,
    charge.status,
    formatAmount(charge.amount, charge.currency),
    charge.payment_method,
    `expires ${charge.expires_at}`,
  ];
  if (charge.description !== null) parts.push(JSON.stringify(charge.description));
  return printable(parts.join('  '));
};

const eventLine = (event: SandboxEvent): string =>
  printable(`${event.id}  ${event.type}  ${event.data.id} ${event.data.status}  ${event.created_at}`);

const transferLine = (transfer: TransferRecord): string =>
  printable(
    [
      transfer.id,
      transfer.status,
      `${transfer.amount} ${transfer.currency}`,
      `${transfer.source_account_id} -> ${transfer.destination_account_id}`,
      transfer.created_at,
      ...(transfer.client_reference_id === null ? [] : [`ref ${JSON.stringify(transfer.client_reference_id)}`]),
    ].join('  '),
  );

/** A list's lines, or one line saying it is empty. */
const listLines =
  <T>(what: string, line: (item: T) => string) =>
  (data: unknown): string[] => {
    const items = data as T[];
    return items.length === 0 ? [`No ${what} yet.`] : items.map(line);
  };

/** A delivery as JSON has it, with its dates back as `Date`s (what delivery-lines.ts reads). */
function revived(delivery: WebhookDelivery): WebhookDelivery {
  const raw = delivery as unknown as { retryAt: string | null; attempts: (WebhookAttempt & { startedAt: string })[] };
  return {
    ...delivery,
    retryAt: raw.retryAt === null ? null : new Date(raw.retryAt),
    attempts: raw.attempts.map((attempt) => ({ ...attempt, startedAt: new Date(attempt.startedAt) })),
  };
}

const settle = (action: 'pay' | 'fail' | 'expire'): Subcommand => ({
  args: ['charge-id'],
  request: ([id = '']) => ({ path: `charges/${segment(id)}/${action}`, body: {} }),
  lines: (data) => [`${chargeLine(data as ChargeRecord)}`],
});

/** Every subcommand by name (a Map: `constructor` or `__proto__` must name none). */
const SUBCOMMANDS: ReadonlyMap<string, Subcommand> = new Map<string, Subcommand>([
  ['pay', settle('pay')],
  ['fail', settle('fail')],
  ['expire', settle('expire')],
  [
    'redeliver',
    {
      args: ['event-id'],
      flags: { times: { type: 'string' }, concurrently: { type: 'boolean' } },
      request([id = ''], flags) {
        const body: { times?: number; concurrently?: boolean } = {};
        if (flags.times !== undefined) body.times = wholeNumber('--times', flags.times as string, 1, 100);
        if (flags.concurrently === true) body.concurrently = true;
        return { path: `events/${segment(id)}/redeliver`, body };
      },
      lines: (_data, [id = '']) => [printable(`Redelivering ${id}: run \`lunas-sandbox deliveries\` to follow it.`)],
    },
  ],
  [
    'advance',
    {
      args: ['ms'],
      request: ([ms = '']) => ({
        path: 'clock/advance',
        body: { ms: wholeNumber('<ms>', ms, 0, Number.MAX_SAFE_INTEGER) },
      }),
      lines(data, [ms = '']) {
        const events = data as SandboxEvent[];
        const due = events.length === 0 ? 'nothing fell due.' : `${events.length} event(s) fell due:`;
        return [`Clock moved forward ${ms} ms; ${due}`, ...events.map(eventLine)];
      },
    },
  ],
  ['charges', { args: [], request: () => ({ path: 'charges' }), lines: listLines('charges', chargeLine) }],
  ['events', { args: [], request: () => ({ path: 'events' }), lines: listLines('events', eventLine) }],
  [
    'deliveries',
    {
      args: [],
      request: () => ({ path: 'deliveries' }),
      lines: (data) => {
        const deliveries = (data as WebhookDelivery[]).map(revived);
        return deliveries.length === 0
          ? ['No webhook deliveries yet.']
          : deliveries.flatMap(deliveryListing).map(printable);
      },
    },
  ],
  ['transfers', { args: [], request: () => ({ path: 'transfers' }), lines: listLines('transfers', transferLine) }],
  [
    'balance',
    {
      args: ['account-id'],
      request: ([id = '']) => ({ path: `balances/${segment(id)}` }),
      lines: (data, [id = '']) => [printable(`${id}  ${String(data)}`)],
    },
  ],
]);

/** A whole number from `min` to `max` written in decimal digits, or a {@link UsageError}. */
function wholeNumber(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(text)}`);
  }
  return value;
}

/** The sandbox's origin from `--url` or `LUNAS_BASE_URL`: loopback http(s) only. */
function sandboxOrigin(given: string | undefined): string {
  const text = given ?? process.env.LUNAS_BASE_URL;
  if (text === undefined || text === '') {
    throw new UsageError('which sandbox? Pass its URL with --url (or set LUNAS_BASE_URL), e.g. http://127.0.0.1:4010');
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url must be an absolute URL like http://127.0.0.1:4010, not ${JSON.stringify(text)}`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || !LOOPBACK_HOSTS.has(url.hostname)) {
    // The origin only: the rest may hold credentials.
    throw new UsageError(
      `--url must name a sandbox on this machine (127.0.0.1, localhost or [::1]), not ${url.protocol}//${url.host}: ` +
        'the subcommands send the API key, and a sandbox listens on loopback only',
    );
  }
  return url.origin;
}

/** What the control surface answered: its `data`, or a {@link CommandFailure} saying why not. */
async function callSandbox(origin: string, apiKey: string, path: string, body: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${origin}/_sandbox/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
  } catch (error) {
    // fetch's own message is only "fetch failed": the reason (ECONNREFUSED, "bad port") is its cause's.
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const reason = String(cause?.code ?? cause?.message ?? (error as Error).message);
    throw new CommandFailure(
      `no sandbox answered at ${origin} (${reason}): start one with \`npx lunas-sandbox\` ` +
        'and pass the URL it prints with --url or LUNAS_BASE_URL',
    );
  }
  const text = await response.text();
  let envelope: { status?: unknown; data?: unknown; message?: unknown } | undefined;
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    envelope = undefined;
  }
  if (response.status === 401) {
    throw new CommandFailure(
      `the sandbox at ${origin} refused the API key (HTTP 401): pass the key it printed with --api-key or LUNAS_API_KEY`,
    );
  }
  if (!response.headers.has('lunas-sandbox-version') || typeof envelope !== 'object' || envelope === null) {
    throw new CommandFailure(`the server at ${origin} is not a lunas sandbox (HTTP ${response.status})`);
  }
  if (response.ok) return envelope.data;
  const message = typeof envelope.message === 'string' ? envelope.message : `HTTP ${response.status}`;
  // The sandbox says the input was wrong: a usage error, as when the command line checks it.
  if (response.status === 400) throw new UsageError(message);
  throw new CommandFailure(message);
}

/** Runs `lunas-sandbox <name> …argv`; resolves to the exit code, having printed what it has to say. */
export async function runSubcommand(
  name: string,
  argv: string[],
  out: (text: string) => void,
  err: (text: string) => void,
  usage: string,
): Promise<number> {
  const command = SUBCOMMANDS.get(name);
  try {
    if (command === undefined) throw new UsageError(`unknown subcommand ${JSON.stringify(name)}`);
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        options: {
          url: { type: 'string' },
          'api-key': { type: 'string' },
          json: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
          ...command.flags,
        },
        strict: true,
        allowPositionals: true,
      });
    } catch (error) {
      throw new UsageError(`${name}: ${(error as Error).message}`);
    }
    const { values, positionals } = parsed;
    if (values.help === true) {
      out(usage);
      return 0;
    }
    if (positionals.length !== command.args.length) {
      const wanted = command.args.map((arg) => `<${arg}>`).join(' ') || 'no argument';
      throw new UsageError(`${name} takes ${wanted}, given ${positionals.length} argument(s)`);
    }
    const request = command.request(positionals, values);
    const origin = sandboxOrigin(values.url as string | undefined);
    const apiKey = (values['api-key'] as string | undefined) ?? (process.env.LUNAS_API_KEY || DEFAULT_KEY);
    const data = await callSandbox(origin, apiKey, request.path, request.body);
    out(
      values.json === true
        ? `${JSON.stringify(data ?? null, null, 2)}\n`
        : `${command.lines(data, positionals).join('\n')}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      err(`lunas-sandbox: ${error.message}\n\n${usage}`);
      return 2;
    }
    if (error instanceof CommandFailure) {
      err(`lunas-sandbox ${name}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
