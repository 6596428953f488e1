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
import { TOOL_NAMES } from '../tools.js';

/** The flags, as messages name them. */
const FLAGS: OptionSpelling = {
  live: '--live',
  baseURL: '--url',
  apiKey: '--api-key',
  maxAmount: '--max-amount',
  tools: '--tools',
};

const PEER = '@modelcontextprotocol/server';

const USAGE = `Usage: lunas-mcp [--url <sandbox-url>] [--api-key <key>] [--max-amount <amount>] [--tools <names>]
       lunas-mcp --live [--url <url>] [--api-key <key>] [--max-amount <amount>] [--tools <names>]

Serves lunas to AI agents over MCP on stdio: an MCP client starts it.

Without --live it serves a sandbox, where no real money moves: its own,
started on 127.0.0.1 (open the URL it prints on stderr for its page), or the
running one at --url, with the sandbox_ tools beside the others.

Options:
  --live                  serve the live service at --url (default LUNAS_BASE_URL) with
                          --api-key (default LUNAS_API_KEY, better: a flag shows in process
                          lists); charges_create and transfers_create then ask the person
                          to confirm, and are refused when the MCP client cannot ask
  --url <url>             the live service's URL, or a sandbox's on this machine
  --api-key <key>         the API key (a sandbox's default: sk_test_sandbox)
  --max-amount <amount>   refuse any amount above this, e.g. 1000000 (rupiah)
  --tools <name,...>      serve only these tools, comma-separated:
                          ${TOOL_NAMES.join(',\n                          ')}
  -h, --help              show this help

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
  tools?: string;
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
        tools: { type: 'string' },
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
  if (flags.tools !== undefined) {
    options.tools = flags.tools
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '') as CreateMcpServerOptions['tools'];
  }
  return options;
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
    const [{ mcpServerFor }, { serveStdio }] = await Promise.all([
      import('../server.js'),
      import('@modelcontextprotocol/server/stdio'),
    ]);
    return { mcpServerFor, serveStdio };
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
  const { mcpServerFor, serveStdio } = await loadServer();

  let sandbox: Sandbox | undefined;
  if (!settings.live && settings.baseURL === undefined) {
    const { startSandbox } = await import('../../testing/index.js');
    sandbox = await startSandbox();
    settings = { ...settings, baseURL: sandbox.url, apiKey: sandbox.apiKey };
  }
  const factory = () => mcpServerFor(settings, FLAGS);
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
  const cap = settings.maxAmount === undefined ? '' : `, amounts up to ${settings.maxAmount}`;
  process.stderr.write(
    `lunas-mcp: serving ${what} at ${baseURL} over MCP on stdio (${settings.tools.length} tools${cap})\n`,
  );

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
