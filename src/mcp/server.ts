/**
 * The MCP server: one `McpServer` with the tools the settings serve, each
 * answering with one SDK call through a client of its own. The safety rules
 * sit here, in the order a call meets them: the SDK's check of the arguments,
 * the amount against `maxAmount`, then, on the live service, the person's
 * confirmation; only then is anything sent.
 */
import {
  McpServer,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { Client } from '../client.js';
import type { Logger } from '../core/log.js';
import { Secret } from '../core/secrets.js';
import { VERSION } from '../version.js';
import { confirmation } from './confirm.js';
import { maskedRefusal, serviceOf, type McpSettings, type OptionSpelling, type Service } from './options.js';
import { refusal, toolError, toolResult } from './results.js';
import { TOOLS, type ToolSpec } from './tools.js';

/**
 * Every level on stderr: over stdio, stdout is the protocol's channel, and a
 * log line there (`console.info` writes to stdout) would break it.
 */
const STDERR: Logger = {
  debug: (message) => console.error(message),
  info: (message) => console.error(message),
  warn: (message) => console.error(message),
  error: (message) => console.error(message),
};

/**
 * An MCP server for `settings` (checked by `checkMcpOptions`), calling the
 * service they lead to. Cheap to make: MCP's stdio and HTTP entries make one
 * per connection or request.
 *
 * @throws {@link LunasError} when the service's URL or key is missing or refused (the key masked).
 */
export function mcpServerFor(settings: McpSettings, spelled?: OptionSpelling): McpServer {
  let service: Service;
  let client: Client;
  try {
    service = serviceOf(settings, spelled);
    client = new Client({ baseURL: service.baseURL, apiKey: service.apiKey, logger: STDERR });
  } catch (error) {
    throw maskedRefusal(error, settings.apiKey);
  }
  // After the client: it has refused a key too short to be masked.
  const secret = new Secret(service.apiKey);
  const server = new McpServer(
    { name: 'lunas', version: VERSION },
    { capabilities: { tools: {} }, instructions: instructions(settings, service) },
  );
  for (const tool of TOOLS) {
    if (!settings.tools.includes(tool.name)) continue;
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: tool.readOnly } },
      (args, ctx) => run(tool, args, { settings, service, client, secret, server, ctx }),
    );
  }
  return server;
}

/** One tool call's surroundings. */
interface Call {
  readonly settings: McpSettings;
  readonly service: Service;
  readonly client: Client;
  readonly secret: Secret;
  readonly server: McpServer;
  readonly ctx: ServerContext;
}

async function run(
  tool: ToolSpec,
  args: Record<string, unknown>,
  { settings, service, client, secret, server, ctx }: Call,
): Promise<CallToolResult | InputRequiredResult> {
  try {
    if (tool.moves !== undefined) {
      const movement = tool.moves(args);
      const cap = settings.maxAmount;
      if (cap !== undefined && cents(movement.amount) > cents(cap)) {
        return refusal(
          `The amount ${movement.amount} is above this server's maximum of ${cap}. Nothing was sent.`,
          'above_max_amount',
          secret,
        );
      }
      if (settings.live) {
        const asked = await confirmation(tool, args, movement, { server, ctx, secret, baseURL: service.baseURL });
        if (asked !== undefined) return asked;
      }
    }
    // The MCP request's cancellation ends the call (the SDK's signal option).
    return toolResult(await tool.call(client, args, { signal: ctx.mcpReq.signal }), secret);
  } catch (error) {
    return toolError(error, secret);
  }
}

/** An exact amount with two decimals (`"150000.00"`) as a count of cents. */
function cents(amount: string): bigint {
  return BigInt(amount.replace('.', ''));
}

/** The one paragraph the agent reads about the server: which service, and the rules it will meet. */
function instructions(settings: McpSettings, service: Service): string {
  const cap = settings.maxAmount === undefined ? '' : ` Amounts above ${settings.maxAmount} are refused.`;
  if (!settings.live) {
    return (
      `lunas payments against a sandbox (${service.baseURL}): no real money moves. Amounts are rupiah. ` +
      `The sandbox_ tools play the customer and the clock.${cap}`
    );
  }
  return (
    'lunas payments on the live service: real money. Amounts are rupiah. charges_create and transfers_create ' +
    `ask the person to confirm each call; a refused one sent nothing.${cap}`
  );
}
