/**
 * The person's confirmation before money moves on the live service, asked
 * through MCP elicitation: the agent cannot give it, only the person can, in
 * the MCP client's own prompt. The tool returns `input_required` (protocol
 * 2026-07-28; on an older connection the MCP server asks with
 * `elicitation/create` itself and runs the tool again with the answer), and
 * goes on only when the answer is an accepted, ticked confirmation.
 *
 * The answer is bound to the arguments it was given for: it is requested
 * under a key made from their digest, so a retry with other arguments (a
 * larger amount, another account) finds no answer under its own key and asks
 * again. A client that cannot ask (it declared no form elicitation) gets a
 * refusal, never a call made without asking.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequiredResult,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Secret } from '../core/secrets.js';
import { refusal, type ToolAnswer } from './results.js';
import type { Movement, ToolSpec } from './tools.js';

/** The one field the person ticks; the question carries the details. A new one per request: the SDK may keep it. */
const confirmationForm = () => ({
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, title: 'Yes, do it', default: false } },
  required: ['confirm'],
});

/** What {@link confirmation} needs of the server answering the call. */
export interface ConfirmationContext {
  readonly server: McpServer;
  readonly ctx: ServerContext;
  readonly secret: Secret;
  /** Where the money moves: the live service's URL, shown to the person. */
  readonly baseURL: string;
}

/**
 * `undefined` when the person confirmed this very call; otherwise what the
 * tool answers now: the request to ask them, or a refusal (they did not
 * confirm, or the client cannot ask).
 */
export async function confirmation(
  tool: ToolSpec,
  args: Record<string, unknown>,
  movement: Movement,
  { server, ctx, secret, baseURL }: ConfirmationContext,
): Promise<ToolAnswer | InputRequiredResult | undefined> {
  const key = `confirm_${await digest(args)}`;
  const answer = inputResponse(ctx.mcpReq.inputResponses, key);
  if (answer.kind === 'elicit') {
    if (answer.action === 'accept' && answer.content?.confirm === true) return undefined;
    const what = answer.action === 'accept' ? 'left the box unticked' : `chose ${answer.action}`;
    return refusal(
      `${tool.name} was not confirmed: the person ${what}. Nothing was sent; do not retry unless they ask.`,
      'not_confirmed',
      secret,
    );
  }
  if (!canAskForm(declaredCapabilities(server, ctx))) {
    return refusal(
      `${tool.name} moves money on the live service and needs the person's confirmation, but this MCP client ` +
        'cannot ask for it (it declares no form elicitation capability). Nothing was sent.',
      'confirmation_unavailable',
      secret,
    );
  }
  return inputRequired({
    inputRequests: {
      [key]: inputRequired.elicit({
        mode: 'form',
        message: `${movement.question} This moves real money on ${baseURL}.`,
        requestedSchema: confirmationForm(),
      }),
    },
  });
}

/**
 * What the client declared it can do: per request on a 2026-07-28 connection
 * (its `_meta` envelope), else what it declared when the connection opened
 * (the 2025 handshake, which `getClientCapabilities` keeps: deprecated for
 * the new protocol only, and the one place an older connection's answer is).
 */
function declaredCapabilities(server: McpServer, ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const fromRequest = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return fromRequest ?? server.server.getClientCapabilities();
}

/** Form elicitation: declared as `form`, or as an empty `elicitation` (which meant form before modes existed). */
function canAskForm(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  if (elicitation === undefined) return false;
  return 'form' in elicitation || !('url' in elicitation);
}

/** 32 hex digits of the SHA-256 of `value` as canonical JSON (keys sorted): the same arguments, the same digest. */
async function digest(value: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(value));
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(hash.subarray(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
