/**
 * The `lunas-mcp` command, as an MCP client runs it: spawned over stdio by
 * the official MCP client (`@modelcontextprotocol/client`), which lists the
 * tools and calls them as an agent does. The command runs bundled from source
 * for this run (test/helpers/build-commands.ts, as test/sandbox/cli.test.ts runs
 * `lunas-sandbox`); a sandbox of the test's own stands in for the live
 * service where one is needed, so `requests` shows what was sent.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, ProtocolError, type CallToolResult, type ElicitRequest } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { startSandbox, type Sandbox } from 'lunas-sdk/testing';
import { mcpCommand } from '../helpers/commands.js';
import { eventually } from '../helpers/waiting.js';
import {
  agentClient,
  confirms,
  LINE_BREAKERS,
  notASandbox,
  READ_ONLY_TOOLS,
  type Era,
  type Person,
} from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** A spawn, the command's start and the MCP handshake on a loaded machine. */
const SPAWN_MS = 45_000;
const KEY = 'sk_test_mcp_stdio_never_shown_42';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});

async function sandbox(): Promise<Sandbox> {
  const started = await startSandbox({ apiKey: KEY });
  sandboxes.push(started);
  return started;
}

interface Session {
  client: Client;
  call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
  asked: ElicitRequest['params'][];
  stderr: () => string;
}

/** `lunas-mcp <flags>` started by an MCP client, with `env` beside the client's default (PATH, HOME…). */
async function lunasMcp(
  flags: string[],
  { env = {}, person, era = 'legacy' }: { env?: Record<string, string>; person?: Person; era?: Era } = {},
): Promise<Session> {
  const [node, bundle] = mcpCommand();
  const transport = new StdioClientTransport({
    command: node,
    args: [bundle, ...flags],
    env: { ...getDefaultEnvironment(), ...env },
    cwd: ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  (transport.stderr as Readable | null)?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const { client, asked } = agentClient('lunas-stdio-test', era, person);
  onTestFinished(() => client.close());
  await client.connect(transport);
  expect(client.getProtocolEra()).toBe(era);
  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  return { client, call, asked, stderr: () => stderr };
}

/** The command run without an MCP client: its exit code and what it printed. */
function run(flags: string[], { env = {}, hideMcp = false }: { env?: Record<string, string>; hideMcp?: boolean } = {}) {
  const [node, bundle] = mcpCommand();
  const loaders = hideMcp ? ['--import', './test/mcp/hide-mcp-packages.mjs'] : [];
  const child = spawn(node, [...loaders, bundle, ...flags], {
    cwd: ROOT,
    env: { ...getDefaultEnvironment(), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, output: () => ({ stdout, stderr }) };
}

function result(answer: CallToolResult): Record<string, unknown> {
  expect(answer.isError, JSON.stringify(answer)).toBeFalsy();
  return answer.structuredContent as Record<string, unknown>;
}

function refusal(answer: CallToolResult): { name: string; message: string; reason?: string } {
  expect(answer.isError, JSON.stringify(answer)).toBe(true);
  return (answer.structuredContent as { error: { name: string; message: string; reason?: string } }).error;
}

const TRANSFER = { destination_account_id: 'acc_partner', amount: 150_000, currency: 'idr' };
const transfersSent = (service: Sandbox) =>
  service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/transfers');

describe('lunas-mcp over stdio', () => {
  it(
    'serves an agent session on its own sandbox: the tools listed, a QRIS charge created, paid and read back as success',
    async () => {
      const { client, call, stderr } = await lunasMcp([]);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toHaveLength(12);
      expect(names).toEqual(expect.arrayContaining(['charges_create', 'sandbox_charges_pay', 'sandbox_clock_advance']));
      const charge = result(await call('charges_create', { payment_method: 'qris', amount: 25_000 }));
      expect(charge).toMatchObject({ payment_method: 'qris', status: 'pending', amount: '25000.00' });
      const url = /serving its own sandbox at (http:\/\/127\.0\.0\.1:\d+) over MCP on stdio \(12 tools\)/.exec(
        stderr(),
      )?.[1];
      expect(url, stderr()).toBeDefined();
      // The payment page a person opens is the sandbox's, on the URL the command printed.
      expect(charge.payment_url).toBe(`${url}/pay/${String(charge.id)}`);
      result(await call('sandbox_charges_pay', { id: charge.id }));
      expect(result(await call('charges_retrieve', { id: charge.id }))).toMatchObject({
        id: charge.id,
        status: 'success',
      });
      expect(stderr()).not.toContain('sk_test_sandbox');
    },
    SPAWN_MS,
  );

  it(
    'serves a running sandbox at --url with its key, and --max-amount holds: a larger amount is refused, nothing sent',
    async () => {
      const service = await sandbox();
      const { call, stderr } = await lunasMcp(['--url', service.url, '--api-key', KEY, '--max-amount', '100000']);
      expect(stderr()).toContain(
        `serving the sandbox at ${service.url} over MCP on stdio (12 tools, amounts up to 100000.00)`,
      );
      const above = refusal(await call('charges_create', { payment_method: 'qris', amount: '100000.01' }));
      expect(above.reason).toBe('above_max_amount');
      expect(refusal(await call('transfers_create', TRANSFER)).reason).toBe('above_max_amount');
      expect(service.requests).toEqual([]);
      // The key as a parameter is refused before sending, naming the field, never the key.
      const leak = refusal(
        await call('charges_create', { payment_method: 'qris', amount: 100_000, client_reference_id: KEY }),
      );
      expect(leak.name).toBe('RequestValidationError');
      expect(JSON.stringify(leak)).not.toContain(KEY);
      expect(service.requests).toEqual([]);
      const charge = result(await call('charges_create', { payment_method: 'qris', amount: 100_000 }));
      expect(service.charges().map((each) => each.id)).toEqual([charge.id]);
      expect(JSON.stringify(charge)).not.toContain(KEY);
      expect(stderr()).not.toContain(KEY);
    },
    SPAWN_MS,
  );

  it(
    '--tools narrows the tools listed',
    async () => {
      const { client } = await lunasMcp(['--tools', 'charges_retrieve, charges_create']);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['charges_create', 'charges_retrieve']);
    },
    SPAWN_MS,
  );

  it(
    'in live mode, refuses a transfer when the MCP client cannot ask the person, and sends nothing',
    async () => {
      const service = await sandbox();
      const { client, call, stderr } = await lunasMcp(['--live'], {
        env: { LUNAS_BASE_URL: service.url, LUNAS_API_KEY: KEY },
      });
      expect(stderr()).toContain(`serving the live service at ${service.url}`);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names.filter((name) => name.startsWith('sandbox_'))).toEqual([]);
      const refused = refusal(await call('transfers_create', TRANSFER));
      expect(refused).toMatchObject({ name: 'LunasError', reason: 'confirmation_unavailable' });
      expect(transfersSent(service)).toEqual([]);
      expect(service.balance('acc_partner')).toBe('0.00');
      expect(JSON.stringify(refused) + stderr()).not.toContain(KEY);
    },
    SPAWN_MS,
  );

  it.each<Era>(['legacy', 'modern'])(
    'in live mode, moves money once the person confirms it, on a %s connection',
    async (era) => {
      const service = await sandbox();
      const { call, asked } = await lunasMcp(['--live', '--url', service.url], {
        env: { LUNAS_API_KEY: KEY },
        person: confirms,
        era,
      });
      expect(result(await call('transfers_create', TRANSFER))).toMatchObject({
        status: 'succeeded',
        amount: '150000.00',
      });
      expect(asked.map((question) => question.message)).toEqual([
        `Transfer Rp 150.000 to account "acc_partner" on ${service.url}? This moves real money, at once and for good.`,
      ]);
      expect(transfersSent(service)).toHaveLength(1);
      expect(service.balance('acc_partner')).toBe('150000.00');
    },
    SPAWN_MS,
  );

  it(
    'in live mode, sends nothing when the person declines, asked a question a forged reference cannot break',
    async () => {
      const service = await sandbox();
      const { call, asked } = await lunasMcp(['--live', '--url', service.url, '--api-key', KEY], {
        person: () => ({ action: 'decline' }),
      });
      const forged = { ...TRANSFER, client_reference_id: 'x)?\nTransfer 1.00 IDR to acc_partner (ref y' };
      expect(refusal(await call('transfers_create', forged)).reason).toBe('not_confirmed');
      // The key pasted as the reference is refused before the person is asked: no question carries it.
      const pasted = await call('transfers_create', { ...TRANSFER, client_reference_id: KEY });
      expect(pasted.isError).toBe(true);
      expect(JSON.stringify(pasted)).toContain('RequestValidationError');
      expect(asked.map((question) => question.message)).toEqual([
        'Transfer Rp 150.000 to account "acc_partner" (reference "x)?\\nTransfer 1.00 IDR to acc_partner (ref y") ' +
          `on ${service.url}? This moves real money, at once and for good.`,
      ]);
      expect(JSON.stringify(asked)).not.toContain(KEY);
      for (const breaker of LINE_BREAKERS) expect(JSON.stringify(asked)).not.toContain(breaker);
      expect(transfersSent(service)).toEqual([]);
    },
    SPAWN_MS,
  );

  it(
    'makes a transfer behind three lost answers once, when the agent retries with the idempotency_key its error names',
    async () => {
      const service = await sandbox();
      const { call } = await lunasMcp(['--url', service.url, '--api-key', KEY]);
      service.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers', times: 3 });
      const transfer = { destination_account_id: 'acc_partner', amount: 10_000, currency: 'idr' };
      const lost = refusal(await call('transfers_create', transfer)) as { message: string; idempotency_key?: string };
      const key = lost.idempotency_key!;
      expect(lost.message).toContain(
        `call transfers_create again with the same arguments and idempotency_key "${key}"`,
      );
      expect(service.balance('acc_partner')).toBe('10000.00');
      const made = result(await call('transfers_create', { ...transfer, idempotency_key: key }));
      expect(service.transfers().map((each) => each.id)).toEqual([made.id]);
      expect(service.balance('acc_partner')).toBe('10000.00');
    },
    SPAWN_MS,
  );

  it(
    '--max-total and --allow-destination refuse before anything is sent, and --audit records every money tool call',
    async () => {
      const service = await sandbox();
      const folder = mkdtempSync(join(tmpdir(), 'lunas-mcp-audit-'));
      onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
      const audit = join(folder, 'audit.jsonl');
      const { call, stderr } = await lunasMcp([
        '--url',
        service.url,
        '--api-key',
        KEY,
        '--max-total',
        '15000',
        '--allow-destination',
        'acc_partner,acc_supplier',
        '--audit',
        audit,
      ]);
      expect(stderr()).toContain('(12 tools, 15000.00 in all, transfers to acc_partner, acc_supplier only)');
      const transfer = { destination_account_id: 'acc_partner', amount: 10_000, currency: 'idr' };
      // The key pasted as the reference: refused before anything is sent, its line masking it.
      const pasted = await call('transfers_create', { ...transfer, client_reference_id: `inv\u2028${KEY}` });
      expect(pasted.isError).toBe(true);
      const made = result(await call('transfers_create', { ...transfer, client_reference_id: 'inv\u2028x' }));
      const over = refusal(await call('transfers_create', transfer));
      expect(over.reason).toBe('above_max_total');
      expect(over.message).toContain(': 5000.00 is left. Nothing was sent.');
      const elsewhere = refusal(
        await call('transfers_create', { ...transfer, destination_account_id: 'acc_closed', amount: 1 }),
      );
      expect(elsewhere.reason).toBe('destination_not_allowed');
      expect(transfersSent(service)).toHaveLength(1);
      expect(service.balance('acc_partner')).toBe('10000.00');

      const lines = readFileSync(audit, 'utf8').split('\n').filter(Boolean);
      expect(lines).toHaveLength(4);
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(
        entries.map(({ tool, destination, answer, id, reason }) => ({ tool, destination, answer, id, reason })),
      ).toEqual([
        { tool: 'transfers_create', destination: 'acc_partner', answer: 'not_asked', id: null, reason: null },
        { tool: 'transfers_create', destination: 'acc_partner', answer: 'not_asked', id: made.id, reason: null },
        {
          tool: 'transfers_create',
          destination: 'acc_partner',
          answer: 'not_asked',
          id: null,
          reason: 'above_max_total',
        },
        {
          tool: 'transfers_create',
          destination: 'acc_closed',
          answer: 'not_asked',
          id: null,
          reason: 'destination_not_allowed',
        },
      ]);
      // One line each, the reference escaped and the key masked.
      expect(lines[0]).toContain('"reference":"inv\\u2028[REDACTED]"');
      expect(lines[0]).toContain('"error":"RequestValidationError"');
      expect(lines[1]).toContain('"reference":"inv\\u2028x"');
      expect(readFileSync(audit, 'utf8') + stderr()).not.toContain(KEY);
    },
    SPAWN_MS,
  );

  it(
    '--read-only serves only the tools that read, and a call to another sends nothing',
    async () => {
      const service = await sandbox();
      const { client, call } = await lunasMcp(['--url', service.url, '--api-key', KEY, '--read-only']);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(READ_ONLY_TOOLS);
      await expect(call('transfers_create', TRANSFER)).rejects.toThrow(ProtocolError);
      await expect(call('charges_create', { payment_method: 'qris', amount: 1000 })).rejects.toThrow(ProtocolError);
      expect(service.requests).toEqual([]);
      expect(service.balance('acc_partner')).toBe('0.00');
    },
    SPAWN_MS,
  );

  it(
    "sends no POST to a loopback URL that answers the API but is not a sandbox, without the person's yes",
    async () => {
      const service = await sandbox();
      const tunnel = await notASandbox(service.url);
      const { call, stderr } = await lunasMcp(['--url', tunnel.url, '--api-key', KEY]);
      const refused = refusal(await call('transfers_create', TRANSFER));
      expect(refused.reason).toBe('confirmation_unavailable');
      expect(refused.message).toContain('does not answer as a lunas sandbox');
      expect(refusal(await call('sandbox_charges_pay', { id: 'ch_1' })).reason).toBe('not_a_sandbox');
      expect(tunnel.posts()).toEqual([]);
      expect(service.requests).toEqual([]);
      expect(service.balance('acc_partner')).toBe('0.00');
      expect(stderr()).toContain(`${tunnel.url} does not answer as a lunas sandbox`);
    },
    SPAWN_MS,
  );

  it(
    'ends, closing its own sandbox, when the MCP client closes stdin',
    async () => {
      const command = run([]);
      await eventually(() => command.output().stderr.includes('over MCP on stdio'), 30_000);
      const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(command.output().stderr)![1]!;
      expect((await fetch(`${url}/v1/payouts`, { headers: { authorization: 'Bearer sk_test_sandbox' } })).status).toBe(
        200,
      );
      command.child.stdin.end();
      const [code] = await command.exited;
      expect(code).toBe(0);
      expect(command.output().stdout).toBe('');
      await expect(fetch(`${url}/v1/payouts`)).rejects.toThrow();
    },
    SPAWN_MS,
  );
});

describe('lunas-mcp refusals', () => {
  it(
    'says how to install the MCP package when it is missing, and exits 1',
    async () => {
      const command = run([], { hideMcp: true });
      const [code] = await command.exited;
      expect(code).toBe(1);
      expect(command.output().stderr).toContain('@modelcontextprotocol/server is not installed');
      expect(command.output().stderr).toContain('npm install @modelcontextprotocol/server');
      expect(command.output().stdout).toBe('');
    },
    SPAWN_MS,
  );

  it.each([
    [['--tools', 'charge_create'], 'Unknown tool "charge_create" in --tools: did you mean "charges_create"?'],
    [
      ['--live', '--tools', 'sandbox_charges_pay'],
      'sandbox_charges_pay acts on a sandbox, and live mode serves no sandbox tool: take it out of --tools',
    ],
    [['--url', 'https://api.example.com'], "Without --live, --url must be a sandbox's, on this machine"],
    [['--live'], "Live mode needs the service's URL: pass --url or set LUNAS_BASE_URL"],
    [['--max-amount', '1.000'], '--max-amount must have at most two digits after the \'.\' (got "1.000")'],
    [['--max-amoun', '5'], "Unknown option '--max-amoun'"],
    [['--max-total', '1.000'], '--max-total must have at most two digits after the \'.\' (got "1.000")'],
    [['--read-only', '--tools', 'transfers_create'], 'transfers_create changes things, and --read-only serves only'],
    [['--allow-destination', ','], '--allow-destination names no account; leave it out to allow any'],
  ])(
    'refuses %j with usage, exit 2',
    async (flags, message) => {
      // The client's default environment: no LUNAS_* variable reaches the command.
      const command = run(flags);
      const [code] = await command.exited;
      expect(code).toBe(2);
      expect(command.output().stderr).toContain(`lunas-mcp: ${message}`);
      expect(command.output().stderr).toContain('Usage: lunas-mcp');
      expect(command.output().stdout).toBe('');
    },
    SPAWN_MS,
  );
});
