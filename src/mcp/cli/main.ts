#!/usr/bin/env node
/**
 * `lunas-mcp`: lunas as MCP tools over stdio, for an MCP client (Claude
 * Desktop, an IDE, an agent) to start. A sandbox unless `--live`: its own,
 * started here on 127.0.0.1 and closed with the connection, or the running
 * one at `--url`. stdout is the protocol's channel: everything for a person
 * goes to stderr.
 */
import { parseArgs } from 'node:util';
import type { Sandbox } from '../../testing/sandbox.js';
import {
  checkMcpOptions,
  serviceOf,
  type CreateMcpServerOptions,
  type McpSettings,
  type OptionSpelling,
} from '../options.js';
import { oneLine } from '../text.js';
import { TOOL_NAMES } from '../tools.js';

/** The flags, as messages name them. */
const FLAGS: OptionSpelling = {
  live: '--live',
  baseURL: '--url',
  apiKey: '--api-key',
  maxAmount: '--max-amount',
  tools: '--tools',
  maxTotal: '--max-total',
  readOnly: '--read-only',
  allowDestinations: '--allow-destination',
  audit: '--audit',
};

const PEER = '@modelcontextprotocol/server';

const USAGE = `Usage: lunas-mcp [--url <sandbox-url>] [--api-key <key>] [options]
       lunas-mcp --live [--url <url>] [--api-key <key>] [options]

Serves lunas to AI agents over MCP on stdio: an MCP client starts it.

Without --live it serves a sandbox, where no real money moves: its own,
started on 127.0.0.1 (open the URL it prints on stderr for its page), or the
running one at --url, with the sandbox_ tools beside the others. A --url
that does not answer as a lunas sandbox (its /_sandbox/ control surface) is
treated as live: the money tools ask the person, and sandbox_ tools refuse.

Options:
  --live                     serve the live service at --url (default LUNAS_BASE_URL) with
                             --api-key (default LUNAS_API_KEY, better: a flag shows in process
                             lists); charges_create and transfers_create then ask the person
                             to confirm, and are refused when the MCP client cannot ask
  --url <url>                the live service's URL, or a sandbox's on this machine
  --api-key <key>            the API key (a sandbox's default: sk_test_sandbox)
  --max-amount <amount>      refuse any amount above this, e.g. 1000000 (rupiah)
  --max-total <amount>       refuse a money tool call that would take the money this session's
                             tools move past this, e.g. 5000000 (rupiah)
  --allow-destination <ids>  transfers only to these accounts, comma-separated (or repeated),
                             e.g. acc_a,acc_b
  --read-only                serve only the tools that read: no create, pay, fail, expire, advance
  --tools <name,...>         serve only these tools, comma-separated:
                             ${TOOL_NAMES.join(',\n                             ')}
  --audit <file>             append each money tool call's audit line (JSON) to this file;
                             default: stderr
  -h, --help                 show this help

Money tools take an optional idempotency_key: an agent that retries a failed
call with the key its error names never moves money twice.

Needs ${PEER} 2.x beside lunas-sdk: npm install ${PEER}
`;

function fail(message: string): never {
  process.stderr.write(`lunas-mcp: ${message}\n\n${USAGE}`);
  process.exit(2);
}

interface Flags {
  live?: boolean;
  url?: string;
  'api-key'?: string;
  'max-amount'?: string;
  'max-total'?: string;
  'allow-destination'?: string[];
  'read-only'?: boolean;
  tools?: string;
  audit?: string;
  help?: boolean;
}

function readFlags(): Flags {
  try {
    return parseArgs({
      options: {
        live: { type: 'boolean' },
        url: { type: 'string' },
        'api-key': { type: 'string' },
        'max-amount': { type: 'string' },
        'max-total': { type: 'string' },
        'allow-destination': { type: 'string', multiple: true },
        'read-only': { type: 'boolean' },
        tools: { type: 'string' },
        audit: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
}

/** The flags as the options `createMcpServer` takes (absent flags left out). */
function optionsOf(flags: Flags): CreateMcpServerOptions {
  const options: CreateMcpServerOptions = { live: flags.live === true };
  if (flags.url !== undefined) options.baseURL = flags.url;
  if (flags['api-key'] !== undefined) options.apiKey = flags['api-key'];
  if (flags['max-amount'] !== undefined) options.maxAmount = flags['max-amount'];
  if (flags['max-total'] !== undefined) options.maxTotal = flags['max-total'];
  if (flags['read-only'] === true) options.readOnly = true;
  if (flags.tools !== undefined) options.tools = commaList(flags.tools) as CreateMcpServerOptions['tools'];
  if (flags['allow-destination'] !== undefined) {
    options.allowDestinations = flags['allow-destination'].flatMap(commaList);
  }
  if (flags.audit !== undefined) options.audit = flags.audit;
  return options;
}

/** `a, b,,c` → `['a', 'b', 'c']`. */
function commaList(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** The audit file, opened for appending now: a path that cannot be written stops the command before it serves. */
async function checkAuditFile(path: string): Promise<void> {
  const { open } = await import('node:fs/promises');
  try {
    await (await open(path, 'a', 0o600)).close();
  } catch (error) {
    fail(`--audit ${path} cannot be written: ${(error as Error).message}`);
  }
}

/** Whether `error` says the MCP package could not be found (it is an optional peer dependency). */
function isMissingPeer(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(PEER)
  );
}

/** The MCP server's modules, loaded only now: the flags were checked without them. */
async function loadServer() {
  try {
    const [{ mcpServerFor }, { serveStdio }, { McpSession }, { answersAsSandbox }] = await Promise.all([
      import('../server.js'),
      import('@modelcontextprotocol/server/stdio'),
      import('../session.js'),
      import('../sandbox-probe.js'),
    ]);
    return { mcpServerFor, serveStdio, McpSession, answersAsSandbox };
  } catch (error) {
    if (!isMissingPeer(error)) throw error;
    process.stderr.write(
      `lunas-mcp: ${PEER} is not installed. lunas-sdk leaves it out of installs that do not serve MCP; ` +
        `install it beside lunas-sdk:\n\n  npm install ${PEER}\n\n` +
        `or run the command with both: npx -p lunas-sdk -p ${PEER} lunas-mcp\n`,
    );
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const flags = readFlags();
  if (flags.help) {
    process.stdout.write(USAGE);
    return;
  }
  let settings: McpSettings;
  try {
    settings = checkMcpOptions(optionsOf(flags), FLAGS);
    // A service named by flags or the environment is checked before anything starts.
    if (settings.live || settings.baseURL !== undefined) serviceOf(settings, FLAGS);
  } catch (error) {
    fail((error as Error).message);
  }
  if (typeof settings.audit === 'string') await checkAuditFile(settings.audit);
  const { mcpServerFor, serveStdio, McpSession, answersAsSandbox } = await loadServer();

  let sandbox: Sandbox | undefined;
  if (!settings.live && settings.baseURL === undefined) {
    const { startSandbox } = await import('../../testing/index.js');
    sandbox = await startSandbox();
    settings = { ...settings, baseURL: sandbox.url, apiKey: sandbox.apiKey };
  }
  // One session for the process: --max-total counts across every server the entry makes.
  const session = new McpSession();
  const factory = () => mcpServerFor(settings, FLAGS, session);
  try {
    // Made once here so that a URL or key the client refuses stops the command now, not at connect time.
    factory();
  } catch (error) {
    await sandbox?.close();
    fail((error as Error).message);
  }
  const handle = serveStdio(factory, { onerror: (error) => process.stderr.write(`lunas-mcp: ${error.message}\n`) });

  const { baseURL } = serviceOf(settings, FLAGS);
  const what = settings.live ? 'the live service' : sandbox === undefined ? 'the sandbox' : 'its own sandbox';
  const limits = [
    settings.maxAmount === undefined ? '' : `, amounts up to ${settings.maxAmount}`,
    settings.maxTotal === undefined ? '' : `, ${settings.maxTotal} in all`,
    settings.readOnly ? ', read-only' : '',
    settings.allowDestinations === undefined
      ? ''
      : `, transfers to ${settings.allowDestinations.map(oneLine).join(', ')} only`,
  ].join('');
  process.stderr.write(
    `lunas-mcp: serving ${what} at ${baseURL} over MCP on stdio (${settings.tools.length} tools${limits})\n`,
  );
  if (!settings.live && sandbox === undefined) {
    const { apiKey } = serviceOf(settings, FLAGS);
    if (!(await answersAsSandbox(baseURL, apiKey))) {
      process.stderr.write(
        `lunas-mcp: ${baseURL} does not answer as a lunas sandbox (no /_sandbox/ control surface): ` +
          'the money tools will ask the person before sending anything, as in live mode\n',
      );
    }
  }

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void Promise.allSettled([handle.close(), sandbox?.close()]).then(() => process.exit(0));
  };
  // The MCP client closes stdin to end the session: the sandbox's server would keep the process alive.
  process.stdin.once('end', stop);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
