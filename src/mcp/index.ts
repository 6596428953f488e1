/**
 * lunas-sdk/mcp: the lunas SDK as tools for AI agents, over the Model Context
 * Protocol (on `@modelcontextprotocol/server` 2.x, an optional peer
 * dependency: `npm install @modelcontextprotocol/server`). The `lunas-mcp`
 * command serves it over stdio; `createMcpServer` gives the server itself,
 * for a transport of your own.
 *
 * @example
 * ```ts
 * import { createMcpServer } from 'lunas-sdk/mcp';
 * import { startSandbox } from 'lunas-sdk/testing';
 * import { serveStdio } from '@modelcontextprotocol/server/stdio';
 *
 * const sandbox = await startSandbox();
 * serveStdio(() => createMcpServer({ baseURL: sandbox.url, apiKey: sandbox.apiKey }));
 * ```
 *
 * @module lunas-sdk/mcp
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { checkMcpOptions, type CreateMcpServerOptions } from './options.js';
import { mcpServerFor } from './server.js';
import { sessionOf } from './session.js';

export type { McpAuditEntry } from './audit.js';
export type { CreateMcpServerOptions } from './options.js';
export type { McpToolName } from './tools.js';

/**
 * An MCP server (`@modelcontextprotocol/server`'s `McpServer`) whose tools
 * call lunas: charges create, retrieve and list, transfers create and list,
 * payouts and payment methods list, and, against a sandbox, the customer's
 * pay, fail and expire and the sandbox's clock. Each tool makes one SDK call
 * (one Idempotency-Key, the same on each of its retries); its input schema is
 * the SDK method's own, its result the SDK's object as JSON, and an error a
 * tool error with the SDK's message and field map, never the key.
 *
 * Safe by default: without `live`, `baseURL` must be a sandbox on this
 * machine, and one that answers as a lunas sandbox, or the money tools ask
 * the person as in live mode. With `live: true`, `charges_create` and
 * `transfers_create` ask the person to confirm through MCP elicitation, and
 * are refused when the MCP client cannot ask. `maxAmount` caps any amount,
 * `maxTotal` the session's, `allowDestinations` where transfers go,
 * `readOnly` and `tools` narrow the list; every money tool call writes an
 * audit line. The money tools take an `idempotency_key`, which their error
 * names, so an agent's retry never moves money twice.
 * Cheap to make: hand it to `serveStdio` or `createMcpHandler` as their
 * factory; the servers made from one options object share its `maxTotal`.
 *
 * @see [MCP: lunas for AI agents](../../docs/mcp.md), the guide
 * @throws {@link lunas-sdk!LunasError} when an option is unknown (naming the closest one) or invalid, the URL
 *   or key is missing, or, without `live`, the URL is not on this machine. The key is never quoted.
 * @example
 * ```ts
 * import { createMcpServer } from 'lunas-sdk/mcp';
 * import { serveStdio } from '@modelcontextprotocol/server/stdio';
 *
 * // LUNAS_BASE_URL and LUNAS_API_KEY name the live service.
 * serveStdio(() => createMcpServer({ live: true, maxAmount: '1000000.00' }));
 * ```
 * @category MCP
 */
export function createMcpServer(options?: CreateMcpServerOptions): McpServer {
  return mcpServerFor(checkMcpOptions(options), undefined, sessionOf(options));
}
