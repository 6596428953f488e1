/**
 * lunas-sdk/mcp as a merchant's compiler sees it, checked like consumer.ts (`npm run
 * check:types`, `npm run typecheck`) but apart: an MCP server runs on Node.js, and the
 * MCP SDK's declarations need Node's types (`Buffer`), which consumer.ts must do without.
 */
/// <reference types="node" />
import { createMcpServer, type McpAuditEntry } from 'lunas-sdk/mcp';

export async function serve(audit: (entry: McpAuditEntry) => void): Promise<void> {
  const server = createMcpServer({ apiKey: 'sk_test_types', tools: ['charges_create'], maxAmount: '500000', audit });
  // @ts-expect-error: a tool the server does not have
  createMcpServer({ tools: ['charges_refund'] });
  // @ts-expect-error: the option is `readOnly`
  createMcpServer({ readonly: true });
  await server.close();
}
