/**
 * The `lunas-sandbox` subcommands: each acts on, or reads, a sandbox that is
 * already running (`npx lunas-sandbox` in another terminal, or a test's
 * `startSandbox`) through its control surface (control-client.ts), and prints
 * lines for a person or, with `--json`, what the control surface answered.
 * Everything printed has its control characters escaped (printable.ts).
 *
 * Exit codes: 0 done; 1 the sandbox refused (an unknown id, a settled
 * charge), did not answer, or a wait ran out; 2 the command line was wrong
 * (the error and the subcommand's usage line printed).
 */
import { DEFAULT_WEBHOOK_WAIT_MS } from '../defaults.js';
import { closestNames } from '../../shared/closest-names.js';
import { deliveryListing } from '../webhooks/delivery-lines.js';
import type { WebhookAttempt, WebhookDelivery, WebhookGivenUp } from '../webhooks/delivery-types.js';
import type { WebhookWait } from '../control/controls.js';
import { KIND_FIELDS, type Fault } from '../transport/faults.js';
import type { ChargeRecord, SandboxEvent } from '../types.js';
import {
  DURATION_FORMS,
  durationMs,
  readCommandLine,
  UsageError,
  wholeNumber,
  type FlagSpecs,
  type FlagValues,
} from './command-line.js';
import { callSandbox, CommandFailure, sandboxAddress, type ControlRequest, type SandboxEnv } from './control-client.js';
import { printable, printableJson } from './printable.js';
import { accountLine, amountForPeople, chargeLine, eventLine, transferLine, type AccountView } from './record-lines.js';

/** What one run of a subcommand was given. */
interface Invocation {
  args: readonly string[];
  flags: FlagValues;
}

/** What a subcommand takes after its name, and how it calls the control surface. */
interface Subcommand {
  /** What follows its name, for its usage line and help: arguments, then its own flags. */
  synopsis: string;
  /** What it does, for help: lines of about 50 columns (help starts them at column 32). */
  about: readonly string[];
  /** The names of its positional arguments, in order. */
  args: readonly string[];
  /** Its own flags, beside the common ones. */
  flags?: FlagSpecs;
  /** The control request. */
  request(invocation: Invocation): ControlRequest;
  /** A second path read (GET) for the lines alone: `--json` prints the request's answer as it is. */
  readAfter?: string;
  /** Lines for a person about what the control surface answered (and what `readAfter` read). */
  lines(data: unknown, invocation: Invocation, after: unknown): string[];
  /**
   * Why the answer is not what was asked (a wait that ran out, a delivery
   * given up), printed as a failure, a line each: exit 1.
   */
  shortfall?(data: unknown, invocation: Invocation): string[] | undefined;
}

/** The flags every subcommand takes. */
const COMMON_FLAGS: FlagSpecs = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** A path segment for an id: encoded, so the id is one segment whatever it holds. */
const segment = (id: string): string => encodeURIComponent(id);

/** `1 event`, `2 events`. */
const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** A list's lines, or one line saying it is empty. */
const listLines =
  <T>(what: string, line: (item: T) => string) =>
  (data: unknown): string[] => {
    const items = data as T[];
    return items.length === 0 ? [`No ${what} yet.`] : items.map(line);
  };

/** How many given-up deliveries `wait` names one by one; the rest are counted. */
const NAMED_GIVEN_UP = 20;

/** The lines naming the events given up: each one's type, id, where it went and what its last attempt got. */
function givenUpLines(failed: readonly WebhookGivenUp[]): string[] {
  const named = failed
    .slice(0, NAMED_GIVEN_UP)
    .map(
      ({ eventType, eventId, url, attempts, error }) =>
        `  webhook ${eventType} ${eventId} to ${url ?? 'the webhook handler'} failed after ` +
        `${count(attempts, 'attempt')}: ${error}`,
    );
  const rest = failed.length - named.length;
  return [
    `${count(failed.length, 'webhook delivery was', 'webhook deliveries were')} given up:`,
    ...named,
    ...(rest > 0 ? [`  and ${rest} more (\`lunas-sandbox wait --json\` lists every one)`] : []),
    '`lunas-sandbox deliveries` shows their attempts; `lunas-sandbox redeliver <event-id>` sends one again',
  ];
}

/** A delivery as JSON has it, with its dates back as `Date`s (what delivery-lines.ts reads). */
function revived(delivery: WebhookDelivery): WebhookDelivery {
  const raw = delivery as unknown as { retryAt: string | null; attempts: (WebhookAttempt & { startedAt: string })[] };
  return {
    ...delivery,
    retryAt: raw.retryAt === null ? null : new Date(raw.retryAt),
    attempts: raw.attempts.map((attempt) => ({ ...attempt, startedAt: new Date(attempt.startedAt) })),
  };
}

const settle = (action: 'pay' | 'fail' | 'expire', about: string): Subcommand => ({
  synopsis: '<charge-id>',
  about: [about],
  args: ['charge-id'],
  request: ({ args: [id = ''] }) => ({ path: `charges/${segment(id)}/${action}`, body: {} }),
  lines: (data) => [chargeLine(data as ChargeRecord)],
});

/** The flags of `fault`: which requests, how many, and the kinds' own fields. */
const FAULT_FLAGS: FlagSpecs = {
  times: { type: 'string' },
  every: { type: 'string' },
  method: { type: 'string' },
  path: { type: 'string' },
  status: { type: 'string' },
  ms: { type: 'string' },
  header: { type: 'string', multiple: true },
};

/** The flags of `fault` that set a field of some kinds only, and that field. */
const FAULT_FIELD_FLAGS = { status: 'status', ms: 'ms', header: 'headers' } as const;

const FAULT_KINDS = Object.keys(KIND_FIELDS) as Fault['kind'][];

/** `fault <kind> …`'s body: the fault as the control surface takes it (`times` may be `"Infinity"`). */
function faultBody(kind: string, flags: FlagValues): Record<string, unknown> {
  if (kind === 'clear') {
    const given = Object.keys(FAULT_FLAGS).filter((flag) => flags[flag] !== undefined);
    if (given.length > 0) throw new UsageError(`fault clear takes no flags, given --${given.join(', --')}`);
    return {};
  }
  if (!(FAULT_KINDS as string[]).includes(kind)) {
    const closest = closestNames(kind, [...FAULT_KINDS, 'clear']);
    const hint = closest.length > 0 ? `did you mean ${closest.join(' or ')}?` : `kinds: ${FAULT_KINDS.join(', ')}`;
    throw new UsageError(`unknown fault kind ${JSON.stringify(kind)}: ${hint}`);
  }
  const fields: readonly string[] = KIND_FIELDS[kind as Fault['kind']];
  for (const [flag, field] of Object.entries(FAULT_FIELD_FLAGS)) {
    if (flags[flag] === undefined || fields.includes(field)) continue;
    const takers = FAULT_KINDS.filter((each) => (KIND_FIELDS[each] as readonly string[]).includes(field));
    throw new UsageError(`--${flag} is for the fault kinds ${takers.join(', ')}; not ${kind}`);
  }
  const text = (flag: string): string | undefined => flags[flag] as string | undefined;
  const times = text('times');
  const every = text('every');
  const status = text('status');
  const ms = text('ms');
  const headers = flags.header as string[] | undefined;
  return {
    kind,
    ...(times === undefined
      ? {}
      : { times: times === 'Infinity' ? times : wholeNumber('--times', times, 1, Number.MAX_SAFE_INTEGER) }),
    ...(every === undefined ? {} : { every: wholeNumber('--every', every, 1, Number.MAX_SAFE_INTEGER) }),
    ...(text('method') === undefined ? {} : { method: text('method') }),
    ...(text('path') === undefined ? {} : { path: text('path') }),
    ...(status === undefined ? {} : { status: wholeNumber('--status', status, 0, Number.MAX_SAFE_INTEGER) }),
    ...(ms === undefined ? {} : { ms: wholeNumber('--ms', ms, 0, Number.MAX_SAFE_INTEGER) }),
    ...(headers === undefined ? {} : { headers: Object.fromEntries(headers.map(headerEntry)) }),
  };
}

/** `"Retry-After: 1"` → `["Retry-After", "1"]`. */
function headerEntry(text: string): [string, string] {
  const colon = text.indexOf(':');
  if (colon < 1)
    throw new UsageError(`--header must be "Name: value", e.g. "Retry-After: 1"; not ${JSON.stringify(text)}`);
  return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
}

/** What an armed fault does, as the control surface echoed it: `HTTP 503 on the next request`. */
function faultLine(fault: Record<string, unknown>): string {
  const doing: Record<string, string> = {
    status: `HTTP ${String(fault.status)}`,
    html: `an HTML error page (HTTP ${String(fault.status ?? 502)})`,
    delay: `a delay of ${String(fault.ms)} ms`,
    hang: 'no answer, ever (hang)',
    drop: 'a dropped connection',
    'lost-response': 'a lost response (processed, then cut)',
    malformed: `truncated JSON (HTTP ${String(fault.status ?? 200)})`,
  };
  const {
    method,
    path,
    times,
    every = 1,
  } = fault as {
    method?: string;
    path?: string;
    times: number | 'Infinity';
    every?: number;
  };
  const requests = [method, 'requests', ...(path === undefined ? [] : [`to ${path}`])].filter(Boolean).join(' ');
  const until = times === 'Infinity' ? ' until `lunas-sandbox fault clear`' : '';
  const which =
    every > 1
      ? `one in every ${every} ${requests}${times === 'Infinity' ? until : `, ${times} time${times === 1 ? '' : 's'}`}`
      : times === 'Infinity'
        ? `every ${requests.replace('requests', 'request')}${until}`
        : times === 1
          ? `the next ${requests.replace('requests', 'request')}`
          : `the next ${times} ${requests}`;
  return `Fault armed: ${doing[String(fault.kind)] ?? String(fault.kind)} for ${which}.`;
}

/** Every subcommand by name, in help's order (a Map: `constructor` or `__proto__` must name none). */
const SUBCOMMANDS: ReadonlyMap<string, Subcommand> = new Map<string, Subcommand>([
  ['pay', settle('pay', 'settle a pending charge as paid (payment_charge.succeeded)')],
  ['fail', settle('fail', 'settle a pending charge as failed (payment_charge.failed)')],
  ['expire', settle('expire', 'expire a pending charge now (payment_charge.failed)')],
  [
    'redeliver',
    {
      synopsis: '<event-id> [--times <n>] [--concurrently]',
      about: [
        'send a recorded event to the webhook URL again, n times',
        '(1 to 100, default 1), one after another or all at once',
      ],
      args: ['event-id'],
      flags: { times: { type: 'string' }, concurrently: { type: 'boolean' } },
      request({ args: [id = ''], flags }) {
        const body: { times?: number; concurrently?: boolean } = {};
        if (flags.times !== undefined) body.times = wholeNumber('--times', flags.times as string, 1, 100);
        if (flags.concurrently === true) body.concurrently = true;
        return { path: `events/${segment(id)}/redeliver`, body };
      },
      lines: (_data, { args: [id = ''] }) => [`Redelivering ${id}: run \`lunas-sandbox deliveries\` to follow it.`],
    },
  ],
  [
    'wait',
    {
      synopsis: '[--timeout <duration>]',
      about: [
        'wait until no webhook delivery is pending, retries',
        `included (default timeout ${DEFAULT_WEBHOOK_WAIT_MS / 1_000}s); exit 1 if some still are,`,
        'or if a delivery was given up since the sandbox',
        'started (each named), unless delivered since',
      ],
      args: [],
      flags: { timeout: { type: 'string' } },
      request({ flags }) {
        const text = flags.timeout as string | undefined;
        const timeoutMs = text === undefined ? DEFAULT_WEBHOOK_WAIT_MS : durationMs('--timeout', text);
        return { path: 'webhooks/wait', body: { timeoutMs }, waitMs: timeoutMs };
      },
      lines: () => ['No webhook delivery is pending.'],
      shortfall(data, { flags }) {
        const { settled, pending, failed = [] } = data as Partial<WebhookWait> & { settled: boolean; pending: number };
        const lines: string[] = [];
        if (!settled) {
          const waited = (flags.timeout as string | undefined) ?? `${DEFAULT_WEBHOOK_WAIT_MS / 1_000}s`;
          lines.push(
            `${count(pending, 'webhook delivery', 'webhook deliveries')} still pending after ${waited}: ` +
              '`lunas-sandbox deliveries` shows their attempts',
          );
        }
        if (failed.length > 0) lines.push(...givenUpLines(failed));
        return lines.length === 0 ? undefined : lines;
      },
    },
  ],
  [
    'advance',
    {
      synopsis: '<duration>',
      about: [
        "move the sandbox's clock forward: 1500 (ms), 90s, 15m,",
        '2h or 3d; charges that expire on the way fail, oldest',
        'first, and their events print with the new time',
      ],
      args: ['duration'],
      request: ({ args: [text = ''] }) => ({ path: 'clock/advance', body: { ms: durationMs('<duration>', text) } }),
      readAfter: 'clock',
      lines(data, { args: [text = ''] }, after) {
        const events = data as SandboxEvent[];
        const moved = /^\d+$/.test(text) ? `${text} ms` : `${text} (${durationMs('<duration>', text)} ms)`;
        const due = events.length === 0 ? 'nothing fell due.' : `${count(events.length, 'event')} fell due:`;
        return [`Clock moved forward ${moved} to ${(after as { now: string }).now}; ${due}`, ...events.map(eventLine)];
      },
    },
  ],
  [
    'clock',
    {
      synopsis: '',
      about: ["the sandbox's time"],
      args: [],
      request: () => ({ path: 'clock' }),
      lines: (data) => [`Sandbox time: ${(data as { now: string }).now}`],
    },
  ],
  [
    'fault',
    {
      synopsis:
        '<kind> [--times <n>|Infinity] [--every <n>] [--method <method>] [--path <path>] [--status <code>] [--ms <ms>] [--header "<name>: <value>"]...',
      about: [
        'make the next matching request misbehave (n of them;',
        'Infinity: until cleared; --every n: one in n matching',
        'requests). Kinds: status (--status,',
        '--header), html and malformed ([--status]), delay',
        '(--ms), hang, drop, lost-response. `fault clear`',
        'disarms every fault',
      ],
      args: ['kind'],
      flags: FAULT_FLAGS,
      request: ({ args: [kind = ''], flags }) =>
        kind === 'clear'
          ? { path: 'faults/clear', body: faultBody(kind, flags) }
          : { path: 'faults', body: faultBody(kind, flags) },
      lines: (data, { args: [kind] }) =>
        kind === 'clear' ? ['Every fault disarmed.'] : [faultLine(data as Record<string, unknown>)],
    },
  ],
  [
    'charges',
    {
      synopsis: '',
      about: ['every charge, oldest first'],
      args: [],
      request: () => ({ path: 'charges' }),
      lines: listLines('charges', chargeLine),
    },
  ],
  [
    'events',
    {
      synopsis: '',
      about: ['every webhook event, oldest first'],
      args: [],
      request: () => ({ path: 'events' }),
      lines: listLines('events', eventLine),
    },
  ],
  [
    'deliveries',
    {
      synopsis: '',
      about: ['every webhook delivery, with each of its attempts'],
      args: [],
      request: () => ({ path: 'deliveries' }),
      lines: (data) => {
        const deliveries = (data as WebhookDelivery[]).map(revived);
        return deliveries.length === 0 ? ['No webhook deliveries yet.'] : deliveries.flatMap(deliveryListing);
      },
    },
  ],
  [
    'transfers',
    {
      synopsis: '',
      about: ['every transfer, oldest first'],
      args: [],
      request: () => ({ path: 'transfers' }),
      lines: listLines('transfers', transferLine),
    },
  ],
  [
    'accounts',
    {
      synopsis: '',
      about: ['every account: id, name, balance, inactive or not'],
      args: [],
      request: () => ({ path: 'accounts' }),
      lines: listLines('accounts', accountLine),
    },
  ],
  [
    'account',
    {
      synopsis: 'add <account-id> [--name <name>] [--balance <amount>] [--inactive]',
      about: ['add an account (balance default 0; --inactive: it', 'cannot receive transfers)'],
      args: ['add', 'account-id'],
      flags: { name: { type: 'string' }, balance: { type: 'string' }, inactive: { type: 'boolean' } },
      request({ args: [verb = '', id = ''], flags }) {
        if (verb !== 'add') {
          const hint = closestNames(verb, ['add']).length > 0 ? ': did you mean add?' : '';
          throw new UsageError(`account takes add <account-id>, not ${JSON.stringify(verb)}${hint}`);
        }
        const body = {
          id,
          ...(flags.name === undefined ? {} : { name: flags.name }),
          ...(flags.balance === undefined ? {} : { balance: flags.balance }),
          ...(flags.inactive === true ? { active: false } : {}),
        };
        return { path: 'accounts', body };
      },
      lines: (data) => [accountLine(data as AccountView)],
    },
  ],
  [
    'fund',
    {
      synopsis: '<account-id> <amount>',
      about: ['add an amount (e.g. 50000 or 50000.00) to an', "account's balance"],
      args: ['account-id', 'amount'],
      request: ({ args: [id = '', amount = ''] }) => ({ path: `accounts/${segment(id)}/fund`, body: { amount } }),
      lines: (data) => [accountLine(data as AccountView)],
    },
  ],
  [
    'balance',
    {
      synopsis: '<account-id>',
      about: ["an account's balance"],
      args: ['account-id'],
      request: ({ args: [id = ''] }) => ({ path: `balances/${segment(id)}` }),
      lines: (data, { args: [id = ''] }) => [`${id}  ${amountForPeople(String(data))}`],
    },
  ],
]);

/** Where help's descriptions start. */
const ABOUT_COLUMN = 32;

/** The widest help line: a synopsis wider goes on lines of its own, wrapped at its words. */
const HELP_WIDTH = 80;

/** A subcommand's entry in help: its synopsis, and what it does from {@link ABOUT_COLUMN}. */
function helpEntry(name: string, { synopsis, about }: Subcommand): string[] {
  const head = [`  ${name}`];
  for (const word of synopsis.split(' ').filter(Boolean)) {
    const last = head.length - 1;
    if (`${head[last]} ${word}`.length <= HELP_WIDTH) head[last] += ` ${word}`;
    else head.push(`      ${word}`);
  }
  const indent = ' '.repeat(ABOUT_COLUMN);
  const [first = '', ...rest] = about;
  const tail = rest.map((line) => indent + line);
  const lastHead = head.at(-1) ?? '';
  return lastHead.length < ABOUT_COLUMN
    ? [...head.slice(0, -1), lastHead.padEnd(ABOUT_COLUMN) + first, ...tail]
    : [...head, indent + first, ...tail];
}

/** What every subcommand takes, for help. */
const COMMON_HELP = `Options of every subcommand:
  --url <url>                   the sandbox, e.g. http://127.0.0.1:4010 (default
                                LUNAS_BASE_URL); loopback only
  --api-key <key>               its API key (default LUNAS_API_KEY, then sk_test_sandbox);
                                never printed
  --json                        print what the sandbox answered, as JSON
  -h, --help                    show this help

Durations: ${DURATION_FORMS}.
Exit codes: 0 done; 1 refused, not answered, or a wait ran out; 2 a wrong command line.
`;

/** The subcommands' part of `lunas-sandbox --help`. */
export const SUBCOMMAND_USAGE = `Subcommands act on a running sandbox:
${[...SUBCOMMANDS].flatMap(([name, command]) => helpEntry(name, command)).join('\n')}

${COMMON_HELP}`;

/** The one line that says how to call `name`, printed after a usage error. */
const usageLine = (name: string, { synopsis }: Subcommand): string =>
  `Usage: lunas-sandbox ${name}${synopsis ? ` ${synopsis}` : ''} [--json] [--url <url>] [--api-key <key>]; ` +
  '`lunas-sandbox --help` lists every subcommand';

/** `lunas-sandbox <name> --help`: its entry, then what every subcommand takes. */
const subcommandHelp = (name: string, command: Subcommand): string =>
  `Usage: lunas-sandbox ${name}${command.synopsis ? ` ${command.synopsis}` : ''} [options]\n\n` +
  `${command.about.map((line) => `  ${line}`).join('\n')}\n\n${COMMON_HELP}` +
  '\n`lunas-sandbox --help` lists every subcommand.\n';

/** Where a subcommand writes, and the environment it reads the sandbox's URL and key from. */
export interface CommandIO {
  out(text: string): void;
  err(text: string): void;
  env: SandboxEnv;
}

/** Runs `lunas-sandbox <name> …argv`; resolves to the exit code, having printed what it has to say. */
export async function runSubcommand(name: string, argv: readonly string[], io: CommandIO): Promise<number> {
  const command = SUBCOMMANDS.get(name);
  if (command === undefined) {
    const closest = closestNames(name, [...SUBCOMMANDS.keys()]);
    const hint = closest.length > 0 ? `: did you mean ${closest.join(' or ')}?` : '';
    io.err(
      `${printable(`lunas-sandbox: unknown subcommand ${JSON.stringify(name)}${hint}`)}\n` +
        '`lunas-sandbox --help` lists every subcommand.\n',
    );
    return 2;
  }
  try {
    const flags = { ...COMMON_FLAGS, ...command.flags };
    const takes = `${name} takes ${Object.keys(flags)
      .map((flag) => `--${flag}`)
      .join(', ')}`;
    const { values, positionals } = readCommandLine(argv, flags, takes);
    if (values.help === true) {
      io.out(subcommandHelp(name, command));
      return 0;
    }
    if (positionals.length !== command.args.length) {
      const wanted = command.args.map((arg) => `<${arg}>`).join(' ') || 'no argument';
      throw new UsageError(`${name} takes ${wanted}, given ${count(positionals.length, 'argument')}`);
    }
    const invocation: Invocation = { args: positionals, flags: values };
    const request = command.request(invocation);
    const address = sandboxAddress(values.url as string | undefined, values['api-key'] as string | undefined, io.env);
    const data = await callSandbox(address, request);
    const shortfall = command.shortfall?.(data, invocation);
    if (values.json === true) {
      io.out(`${printableJson(data)}\n`);
    } else if (shortfall === undefined) {
      const after =
        command.readAfter === undefined ? undefined : await callSandbox(address, { path: command.readAfter });
      io.out(`${command.lines(data, invocation, after).map(printable).join('\n')}\n`);
    }
    if (shortfall !== undefined) {
      // A line each, each made inert: a receiver's error is caller text.
      const [first = '', ...rest] = shortfall;
      io.err(`${[`lunas-sandbox ${name}: ${first}`, ...rest].map(printable).join('\n')}\n`);
      return 1;
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${printable(`lunas-sandbox ${name}: ${error.message}`)}\n${usageLine(name, command)}\n`);
      return 2;
    }
    if (error instanceof CommandFailure) {
      io.err(`${printable(`lunas-sandbox ${name}: ${error.message}`)}\n`);
      return 1;
    }
    throw error;
  }
}
