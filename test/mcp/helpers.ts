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
import { afterEach } from 'vitest';
import { createMcpServer, type CreateMcpServerOptions } from 'lunas-sdk/mcp';

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

/** A connected MCP client for `createMcpServer(options)`, closed after the test; `asked` records every question. */
export async function agent(options: CreateMcpServerOptions, { era = 'legacy', person }: AgentOptions = {}) {
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

/** The person who confirms: accepts with the box ticked. */
export const confirms: Person = () => ({ action: 'accept', content: { confirm: true } });
