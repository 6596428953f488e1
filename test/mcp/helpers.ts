/**
 * An agent's side of lunas-sdk/mcp: the official MCP client
 * (`@modelcontextprotocol/client`) connected to `createMcpServer`, in process,
 * on either protocol era: the 2025 one over a linked in-memory pair (what
 * Claude Desktop and most clients speak today), the 2026-07-28 one through
 * MCP's HTTP entry called in process (its `input_required` rounds). The
 * service behind it is a real sandbox over HTTP (`startSandbox`).
 * test/mcp/stdio.test.ts drives the `lunas-mcp` command itself, over stdio.
 */
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { afterEach, expect } from 'vitest';
import { createMcpServer, type CreateMcpServerOptions } from 'lunas-sdk/mcp';
import { startSandbox, type Sandbox, type SandboxOptions } from 'lunas-sdk/testing';

/** The protocol era a client speaks: 2025's handshake, or 2026-07-28's per-request envelope. */
export type Era = 'legacy' | 'modern';

/** How the person answers an elicitation: the client's `elicitation/create` handler. */
export type Person = (request: ElicitRequest['params']) => ElicitResult;

export interface AgentOptions {
  era?: Era;
  /** The person behind the client; none means the client declares no elicitation capability. */
  person?: Person;
}

const open: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((each) => each.close()));
});

/**
 * The official client as an agent builds it, not yet connected: speaking
 * `era`, and declaring elicitation only when a `person` answers it; `asked`
 * records every question the person was asked.
 */
export function agentClient(name: string, era: Era, person: Person | undefined) {
  const asked: ElicitRequest['params'][] = [];
  const client = new Client(
    { name, version: '1.0.0' },
    {
      ...(person === undefined ? {} : { capabilities: { elicitation: { form: {} } } }),
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  if (person !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      return person(request.params);
    });
  }
  return { client, asked };
}

/**
 * A connected MCP client for `createMcpServer(options)`, closed after the test; `asked` records every question.
 * The audit lines go nowhere unless `options.audit` says where (test/mcp/safety.test.ts reads them). One options
 * object serves every server the 2026-07-28 handler makes, one per request: they share a session (`maxTotal`).
 */
export async function agent(given: CreateMcpServerOptions, { era = 'legacy', person }: AgentOptions = {}) {
  const options: CreateMcpServerOptions = { audit: () => undefined, ...given };
  const { client, asked } = agentClient('lunas-test-agent', era, person);
  if (era === 'legacy') {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer(options);
    open.push(server);
    await server.connect(serverSide);
    await client.connect(clientSide);
  } else {
    const handler = createMcpHandler(() => createMcpServer(options));
    open.push(handler);
    const fetch = (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));
    await client.connect(new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), { fetch }));
  }
  // Closed first: the client, then the server or handler.
  open.unshift(client);
  return { client, asked, call: caller(client) };
}

/** `call(name, args)`: one tool call, its result as the agent gets it. */
function caller(client: Client) {
  return (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
}

/** The tools a `readOnly` server serves, in order: the ones that only read. */
export const READ_ONLY_TOOLS = [
  'charges_retrieve',
  'charges_list',
  'transfers_list',
  'payouts_list',
  'payment_methods_list',
  'sandbox_accounts_list',
];

/** The person who confirms: accepts with the box ticked. */
export const confirms: Person = () => ({ action: 'accept', content: { confirm: true } });

/** A request the stand-in service was sent: its method and path. */
interface SeenRequest {
  method: string;
  path: string;
}

/**
 * A loopback HTTP service that answers the API as lunas does but is no
 * sandbox: it passes `/v1/…` to `target` (a real sandbox, so the answers are
 * the service's) and has no control surface (`/_sandbox/…` is a 404), as a
 * tunnel to the live service on a local port would. `requests` records
 * every request it was sent, `/_sandbox/` probes included.
 */
export async function notASandbox(target: string) {
  const { createServer } = await import('node:http');
  const requests: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      requests.push({ method: request.method ?? 'GET', path });
      if (!path.startsWith('/v1/')) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ status: 'fail', data: { message: 'Not found' } }));
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'idempotency-key']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const init: RequestInit = { method: request.method ?? 'GET', headers };
      if (chunks.length > 0) init.body = Buffer.concat(chunks);
      void fetch(`${target}${path}`, init).then(
        async (answer) => {
          response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
          response.end(Buffer.from(await answer.arrayBuffer()));
        },
        () => response.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const stop = {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.push(stop);
  return { url: `http://127.0.0.1:${port}`, requests, posts: () => requests.filter((each) => each.method === 'POST') };
}

/** Characters that would break a question's one line, or reorder what the person sees, if they reached it raw. */
export const LINE_BREAKERS = [
  '\n',
  '\r',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u202e',
  '\u2066',
  '\u200f',
  '\u061c',
  '\u001b',
];

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((each) => each.close()));
});

/** A sandbox over HTTP, closed after the current test. */
export async function sandbox(options?: SandboxOptions): Promise<Sandbox> {
  const started = await startSandbox(options);
  sandboxes.push(started);
  return started;
}

/** The structured content of a successful result, after checking it is one and its text says the same. */
export function content(result: CallToolResult): Record<string, unknown> {
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  const [text] = result.content as { type: string; text: string }[];
  expect(JSON.parse(text!.text)).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

/** What a tool error shows the agent. */
export interface ShownError {
  name: string;
  message: string;
  fields?: Record<string, string[]>;
  status?: number;
  reason?: string;
  idempotency_key?: string;
}

/** The error of a tool error, after checking it is one and its text names it. */
export function toolError(result: CallToolResult): ShownError {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  const { error } = result.structuredContent as { error: ShownError };
  const [text] = result.content as { type: string; text: string }[];
  expect(text!.text).toBe(`${error.name}: ${error.message}`);
  return error;
}
