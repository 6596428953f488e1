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
import type { Secret } from '../core/report/secrets.js';
import { refusal, type ToolAnswer } from './results.js';
import { oneLine, quoted, quotedId, rupiah } from './text.js';
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
  /** Where the money moves: the service's URL, shown to the person. */
  readonly baseURL: string;
  /** The live service, or (`false`) a URL given as a sandbox's that does not answer as one. */
  readonly live: boolean;
}

/** What the person answered: the call goes on only when they `confirmed`. */
type PersonAnswer = 'confirmed' | 'declined' | 'cancelled' | 'unticked' | 'cannot_ask';

/**
 * What asking came to: the person confirmed this very call (go on), the
 * request to ask them (the tool answers it now), or a refusal (they did not
 * confirm, or the client cannot ask), with their answer for the audit.
 */
export type Confirmation =
  | { readonly kind: 'confirmed' }
  | { readonly kind: 'asking'; readonly result: InputRequiredResult }
  | { readonly kind: 'refused'; readonly answer: PersonAnswer; readonly result: ToolAnswer };

/** The answers the person can give but a yes, as the audit names them. */
const NOT_CONFIRMED: Record<string, PersonAnswer> = { decline: 'declined', cancel: 'cancelled', accept: 'unticked' };

/** Asks the person to confirm `movement`, made by `tool` with `args`, or reads their answer. */
export async function confirmation(
  tool: ToolSpec,
  args: Record<string, unknown>,
  movement: Movement,
  { server, ctx, secret, baseURL, live }: ConfirmationContext,
): Promise<Confirmation> {
  const key = `confirm_${await digest(args)}`;
  const answer = inputResponse(ctx.mcpReq.inputResponses, key);
  if (answer.kind === 'elicit') {
    if (answer.action === 'accept' && answer.content?.confirm === true) return { kind: 'confirmed' };
    const what = answer.action === 'accept' ? 'left the box unticked' : `chose ${answer.action}`;
    return {
      kind: 'refused',
      answer: NOT_CONFIRMED[answer.action] ?? 'declined',
      result: refusal(
        `${tool.name} was not confirmed: the person ${what}. Nothing was sent; do not retry unless they ask.`,
        'not_confirmed',
        secret,
      ),
    };
  }
  if (!canAskForm(declaredCapabilities(server, ctx))) {
    const where = live
      ? 'moves money on the live service'
      : `would send to ${oneLine(baseURL)}, which does not answer as a lunas sandbox (it may be the live service)`;
    return {
      kind: 'refused',
      answer: 'cannot_ask',
      result: refusal(
        `${tool.name} ${where} and needs the person's confirmation, but this MCP client ` +
          'cannot ask for it (it declares no form elicitation capability). Nothing was sent.',
        'confirmation_unavailable',
        secret,
      ),
    };
  }
  return {
    kind: 'asking',
    result: inputRequired({
      inputRequests: {
        [key]: inputRequired.elicit({
          mode: 'form',
          message: secret.mask(question(movement, baseURL, live)),
          requestedSchema: confirmationForm(),
        }),
      },
    }),
  };
}

const METHOD_NAMES: Readonly<Record<string, string>> = { qris: 'QRIS', virtual_account: 'virtual account' };

/**
 * The question the person answers: lunas's own words, on one line, with
 * what the agent wrote (the destination, the reference) quoted and escaped,
 * so no text of the agent's can pass for lunas's. The amount is written as
 * merchants read rupiah (`Rp 150.000`). A charge asks a customer to pay: it
 * moves no money by itself.
 */
function question(movement: Movement, baseURL: string, live: boolean): string {
  const amount = rupiah(movement.amount, movement.currency);
  const reference = movement.reference === undefined ? '' : ` (reference ${quoted(movement.reference)})`;
  const where = `on ${oneLine(baseURL)}${live ? '' : ' (not a lunas sandbox: it may be the live service)'}`;
  if (movement.destination !== undefined) {
    return (
      `Transfer ${amount} to account ${quotedId(movement.destination)}${reference} ${where}? ` +
      'This moves real money, at once and for good.'
    );
  }
  const method = METHOD_NAMES[movement.paymentMethod ?? ''] ?? quoted(movement.paymentMethod ?? '');
  return (
    `Create a ${method} charge asking a customer to pay ${amount}${reference} ${where}? ` +
    'It moves no money by itself: a customer pays it.'
  );
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
