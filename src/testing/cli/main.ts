#!/usr/bin/env node
/**
 * `lunas-sandbox`: serves a sandbox until interrupted (SIGINT or SIGTERM close
 * it and exit 0; `--pid-file` tells a script its process id); with a subcommand
 * (subcommands.ts), acts on one that is running. Everything it prints goes
 * through printable.ts: account names and receivers' answers are caller text.
 */
import { rm, writeFile } from 'node:fs/promises';
import { checkAccounts, readAccountsFile } from './accounts-file.js';
import { readCommandLine, UsageError, type FlagSpecs } from './command-line.js';
import { printable } from './printable.js';
import { accountLine } from './record-lines.js';
import { runSubcommand, SUBCOMMAND_USAGE } from './subcommands.js';
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS } from '../defaults.js';
import { deliveryLines } from '../webhooks/delivery-lines.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../index.js';
import { isWebhookUrl, readOptions, webhookCredentialsMessage } from '../options.js';
import { hasReadableCredentials, maskedWebhookUrl } from '../webhooks/webhook.js';

const USAGE = `Usage: lunas-sandbox [--port <port>] [--api-key <key>] [--accounts <file> [--account <id>]]
                     [--webhook-url <url> [--webhook-retry-delays <ms,...>]] [--pid-file <file>]
       lunas-sandbox <subcommand> [arguments] [--url <url>] [--api-key <key>] [--json]

Serves the lunas sandbox on 127.0.0.1 until interrupted (Ctrl+C, SIGINT or
SIGTERM: it closes and exits 0).

Options:
  --port <port>                 port to listen on; 0 picks a free port (default 0)
  --api-key <key>               the one valid API key (default sk_test_sandbox)
  --accounts <file>             start with the accounts in this JSON file instead of
                                the defaults: [{ "id", "name", "balance"?, "active"? }]
                                (balance default "0.00")
  --account <id>                your own account, the source of transfers (default
                                acc_merchant if there is one, else the first)
  --webhook-url <url>           POST every event to this http(s) URL, with retries,
                                and print a line per delivery and per failed attempt;
                                user:password@ in it is sent as Basic auth
  --webhook-retry-delays <ms,...>
                                waits before each retry, comma-separated milliseconds
                                (default ${DEFAULT_WEBHOOK_RETRY_DELAYS_MS.join(',')}; "" never retries)
  --pid-file <file>             once listening, write this process's id to the file
                                (removed when it stops): kill "$(cat <file>)" stops
                                the sandbox itself, not a wrapper such as npx
  -h, --help                    show this help

Open the printed URL in a browser for the sandbox's page: charges, events,
webhook deliveries, transfers and balances, with Pay, Fail, Expire and Redeliver.

${SUBCOMMAND_USAGE}`;

const SERVING_FLAGS: FlagSpecs = {
  port: { type: 'string' },
  'api-key': { type: 'string' },
  accounts: { type: 'string' },
  account: { type: 'string' },
  'webhook-url': { type: 'string' },
  'webhook-retry-delays': { type: 'string' },
  'pid-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/** A wrong command line: the message and where the usage is, exit 2. */
function fail(message: string): never {
  process.stderr.write(`${printable(`lunas-sandbox: ${message}`)}\n\`lunas-sandbox --help\` shows the usage.\n`);
  process.exit(2);
}

/** `"1000,5000"` → `[1000, 5000]`; `""` → `[]` (the sandbox checks the range). */
function readDelays(text: string): number[] {
  const parts = text.trim() === '' ? [] : text.split(',');
  if (!parts.every((part) => /^\s*\d+\s*$/.test(part))) {
    throw new UsageError('--webhook-retry-delays must be comma-separated whole milliseconds, e.g. 1000,5000');
  }
  return parts.map(Number);
}

/** What the serving command was asked: the sandbox's options, and where to write its process id. */
interface Serving {
  options: SandboxOptions;
  pidFile: string | undefined;
}

/** The sandbox's options from the serving command's flags, or a {@link UsageError}. */
async function servingOptions(argv: readonly string[]): Promise<Serving | 'help'> {
  const { values, positionals } = readCommandLine(
    argv,
    SERVING_FLAGS,
    `the options are ${Object.keys(SERVING_FLAGS)
      .map((flag) => `--${flag}`)
      .join(', ')}`,
  );
  if (values.help === true) return 'help';
  if (positionals.length > 0) {
    throw new UsageError(
      `unexpected argument ${JSON.stringify(positionals[0])}: a subcommand comes first, as in lunas-sandbox charges --json`,
    );
  }
  const text = (flag: string): string | undefined => values[flag] as string | undefined;
  const portText = text('port') ?? '0';
  if (!/^\d+$/.test(portText) || Number(portText) > 65_535)
    throw new UsageError('--port must be an integer from 0 to 65535');
  const webhookUrl = text('webhook-url');
  if (webhookUrl !== undefined && !isWebhookUrl(webhookUrl)) {
    throw new UsageError('--webhook-url must be an absolute http: or https: URL, e.g. http://127.0.0.1:3000/webhooks');
  }
  if (webhookUrl !== undefined && !hasReadableCredentials(webhookUrl)) {
    throw new UsageError(webhookCredentialsMessage('--webhook-url'));
  }
  const apiKey = text('api-key');
  const delays = text('webhook-retry-delays');
  const file = text('accounts');
  const account = text('account');
  const accounts = file === undefined ? undefined : await readAccountsFile(file);
  if (accounts !== undefined || account !== undefined) await checkAccounts(accounts, account, file);
  const pidFile = text('pid-file');
  if (pidFile === '') throw new UsageError('--pid-file needs a file name, e.g. --pid-file sandbox.pid');
  const options: SandboxOptions = {
    port: Number(portText),
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(accounts === undefined ? {} : { accounts }),
    ...(account === undefined ? {} : { account }),
    ...(webhookUrl === undefined ? {} : { webhookUrl }),
    ...(delays === undefined ? {} : { webhookRetryDelaysMs: readDelays(delays) }),
  };
  return { options, pidFile };
}

/** What the command prints once listening: where, the key, the webhook URL (password masked), the accounts. */
function startupLines(sandbox: Sandbox, options: SandboxOptions): string[] {
  const { accounts, account } = readOptions({
    ...(options.accounts === undefined ? {} : { accounts: options.accounts }),
    ...(options.account === undefined ? {} : { account: options.account }),
  });
  const webhookUrl =
    options.webhookUrl === undefined ? [] : [`Webhooks: ${maskedWebhookUrl(String(options.webhookUrl))}`];
  return [
    `lunas sandbox listening on ${sandbox.url}`,
    `API key: ${sandbox.apiKey}`,
    ...webhookUrl,
    `Accounts (transfers are made from ${account}):`,
    ...accounts.map(
      ({ id, name, active }) => `  ${accountLine({ id, name, balance: sandbox.balance(id), active: active ?? true })}`,
    ),
    'Press Ctrl+C to stop.',
  ];
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const [first, ...rest] = argv;
  // A first word that is not a flag names a subcommand (an unknown one is refused, with the closest).
  if (first !== undefined && !first.startsWith('-')) {
    process.exitCode = await runSubcommand(first, rest, {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      env: process.env,
    });
    return;
  }
  let serving: Serving | 'help';
  try {
    serving = await servingOptions(argv);
  } catch (error) {
    if (error instanceof UsageError) fail(error.message);
    throw error;
  }
  if (serving === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const { options, pidFile } = serving;
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      ...options,
      onWebhookAttempt: (delivery) => {
        for (const line of deliveryLines(delivery)) process.stdout.write(`${printable(line)}\n`);
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    // Its port closed first, then the pid file: once the file is gone, a new sandbox can take the port.
    sandbox
      .close()
      .then(() => (pidFile === undefined ? undefined : rm(pidFile, { force: true })))
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (pidFile !== undefined) {
    try {
      await writeFile(pidFile, `${process.pid}\n`);
    } catch (error) {
      await sandbox.close();
      fail(
        `--pid-file ${pidFile}: cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }
  // Only now: whoever reads "listening" may stop it at once, and must find it stopping cleanly.
  process.stdout.write(`${startupLines(sandbox, options).map(printable).join('\n')}\n`);
}

void main();
