#!/usr/bin/env node
/**
 * `lunas-sandbox`: serves a sandbox until interrupted; with a subcommand
 * (cli-control.ts), acts on one that is running.
 */
import { parseArgs } from 'node:util';
import { runSubcommand, SUBCOMMAND_USAGE } from './subcommands.js';
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS } from '../defaults.js';
import { deliveryLines } from '../webhooks/delivery-lines.js';
import { startSandbox } from '../index.js';
import { isWebhookUrl, webhookCredentialsMessage } from '../options.js';
import { hasReadableCredentials, maskedWebhookUrl } from '../webhooks/webhook.js';

const USAGE = `Usage: lunas-sandbox [--port <port>] [--api-key <key>]
                     [--webhook-url <url> [--webhook-retry-delays <ms,...>]]
       lunas-sandbox <subcommand> [arguments] [--url <url>] [--api-key <key>] [--json]

Serves the lunas sandbox on 127.0.0.1 until interrupted (Ctrl+C).

Options:
  --port <port>                 port to listen on; 0 picks a free port (default 0)
  --api-key <key>               the one valid API key (default sk_test_sandbox)
  --webhook-url <url>           POST every event to this http(s) URL, with retries,
                                and print a line per delivery and per failed attempt;
                                user:password@ in it is sent as Basic auth
  --webhook-retry-delays <ms,...>
                                waits before each retry, comma-separated milliseconds
                                (default ${DEFAULT_WEBHOOK_RETRY_DELAYS_MS.join(',')}; "" never retries)
  -h, --help                    show this help

Open the printed URL in a browser for the sandbox's page: charges, events,
webhook deliveries, transfers and balances, with Pay, Fail, Expire and Redeliver.

${SUBCOMMAND_USAGE}`;

function fail(message: string): never {
  process.stderr.write(`lunas-sandbox: ${message}\n\n${USAGE}`);
  process.exit(2);
}

interface Flags {
  port?: string;
  'api-key'?: string;
  'webhook-url'?: string;
  'webhook-retry-delays'?: string;
  help?: boolean;
}

function readFlags(): Flags {
  try {
    return parseArgs({
      options: {
        port: { type: 'string' },
        'api-key': { type: 'string' },
        'webhook-url': { type: 'string' },
        'webhook-retry-delays': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
}

/** `"1000,5000"` → `[1000, 5000]`; `""` → `[]` (the sandbox checks the range). */
function readDelays(text: string): number[] {
  const parts = text.trim() === '' ? [] : text.split(',');
  if (!parts.every((part) => /^\s*\d+\s*$/.test(part))) {
    fail('--webhook-retry-delays must be comma-separated whole milliseconds, e.g. 1000,5000');
  }
  return parts.map(Number);
}

async function main(): Promise<void> {
  const [first, ...rest] = process.argv.slice(2);
  // A first word that is not a flag names a subcommand (an unknown one is refused with usage).
  if (first !== undefined && !first.startsWith('-')) {
    process.exitCode = await runSubcommand(
      first,
      rest,
      (text) => process.stdout.write(text),
      (text) => process.stderr.write(text),
      USAGE,
    );
    return;
  }
  const values = readFlags();
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65_535) fail('--port must be an integer from 0 to 65535');
  const webhookUrl = values['webhook-url'];
  if (webhookUrl !== undefined && !isWebhookUrl(webhookUrl)) {
    fail('--webhook-url must be an absolute http: or https: URL, e.g. http://127.0.0.1:3000/webhooks');
  }
  if (webhookUrl !== undefined && !hasReadableCredentials(webhookUrl)) fail(webhookCredentialsMessage('--webhook-url'));
  const delays = values['webhook-retry-delays'];

  let sandbox;
  try {
    sandbox = await startSandbox({
      port,
      ...(values['api-key'] === undefined ? {} : { apiKey: values['api-key'] }),
      ...(webhookUrl === undefined ? {} : { webhookUrl }),
      ...(delays === undefined ? {} : { webhookRetryDelaysMs: readDelays(delays) }),
      onWebhookAttempt: (delivery) => {
        for (const line of deliveryLines(delivery)) process.stdout.write(`${line}\n`);
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  // The password, if the URL has one, is never printed.
  const webhookLine = webhookUrl === undefined ? '' : `Webhooks: ${maskedWebhookUrl(webhookUrl)}\n`;
  process.stdout.write(
    `lunas sandbox listening on ${sandbox.url}\nAPI key: ${sandbox.apiKey}\n${webhookLine}Press Ctrl+C to stop.\n`,
  );

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
