/**
 * The MCP server: one `McpServer` with the tools the settings serve, each
 * answering with one SDK call through a client of its own. The safety rules
 * sit here, in the order a call meets them: the SDK's check of the arguments
 * (`idempotency_key` included), the amount against `maxAmount`, the
 * destination against `allowDestinations`, the session's total against
 * `maxTotal`, then the person's confirmation on the live service, or on a
 * URL given as a sandbox's that does not answer as one; only then is
 * anything sent. Every money tool call ends with an audit line.
 */
import {
  McpServer,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { Client } from '../client.js';
import { refuseKeyIn } from '../core/call/request.js';
import { Secret } from '../core/report/secrets.js';
import { VERSION } from '../version.js';
import { writeAudit, type McpAuditEntry } from './audit.js';
import { confirmation } from './confirm.js';
import { maskedRefusal, serviceOf, type McpSettings, type OptionSpelling, type Service } from './options.js';
import { refusal, toolError, toolResult, type RetryAdvice, type ToolAnswer } from './results.js';
import { probeSandbox } from './sandbox-probe.js';
import { STDERR } from './stderr.js';
import { mayHaveMoved, McpSession } from './session.js';
import { oneLine, quotedId } from './text.js';
import { TOOLS, type Movement, type ToolSpec } from './tools.js';

/**
 * An MCP server for `settings` (checked by `checkMcpOptions`), calling the
 * service they lead to. Cheap to make: MCP's stdio and HTTP entries make one
 * per connection or request; `session` is what they share (the money moved,
 * for `maxTotal`).
 *
 * @throws {@link LunasError} when the service's URL or key is missing or refused (the key masked).
 */
export function mcpServerFor(settings: McpSettings, spelled?: OptionSpelling, session = new McpSession()): McpServer {
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
      (args, ctx) => run(tool, args, { settings, service, client, secret, server, ctx, session }),
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
  readonly session: McpSession;
}

async function run(
  tool: ToolSpec,
  args: Record<string, unknown>,
  call: Call,
): Promise<CallToolResult | InputRequiredResult> {
  if (tool.moves !== undefined) return moveMoney(tool, args, call);
  const { service, client, secret, ctx } = call;
  try {
    // A sandbox tool acts only where a sandbox answers: nothing is sent to a service that is not one.
    if (tool.sandboxOnly && (await probeSandbox(client, ctx.mcpReq.signal)) === undefined) {
      return refusal(
        `${tool.name} acts on a lunas sandbox, and ${oneLine(service.baseURL)} does not answer as one ` +
          `(its control surface, /_sandbox/, is not there). Nothing was sent.`,
        'not_a_sandbox',
        secret,
      );
    }
    // The MCP request's cancellation ends the call (the SDK's signal option).
    return toolResult(await tool.call(client, args, { signal: ctx.mcpReq.signal }), secret);
  } catch (error) {
    return toolError(error, secret);
  }
}

/**
 * A money tool's call, with the checks in the order it meets them: the
 * SDK's check of the arguments (the client's API key in them refused), `maxAmount`, the allowed destinations and
 * `maxTotal`, all before the person is asked; then the person's yes on the
 * live service, or on a URL given as a sandbox's that does not answer as
 * one; only then is anything sent. Each call ends with its audit line.
 */
async function moveMoney(
  tool: ToolSpec,
  args: Record<string, unknown>,
  call: Call,
): Promise<CallToolResult | InputRequiredResult> {
  const { settings, service, client, secret, server, ctx, session } = call;
  const audit: McpAuditEntry = {
    time: '',
    tool: tool.name as McpAuditEntry['tool'],
    mode: settings.live ? 'live' : 'sandbox',
    amount: null,
    currency: null,
    destination: null,
    reference: null,
    idempotency_key: null,
    answer: 'not_asked',
    id: null,
    status: null,
    error: null,
    reason: null,
  };
  const retry = { tool: tool.name };
  let answer: ToolAnswer;
  try {
    const movement = tool.moves!(args);
    Object.assign(audit, {
      amount: movement.amount,
      currency: movement.currency,
      destination: movement.destination ?? null,
      reference: movement.reference ?? null,
    });
    // Made here, not by the SDK: the count of maxTotal is kept under the key the retry will bring back.
    const idempotencyKey = movement.idempotencyKey ?? crypto.randomUUID();
    audit.idempotency_key = idempotencyKey;
    // The SDK would refuse parameters holding the key when sending; refused here, no one is asked about them.
    refuseKeyIn(JSON.stringify(movement.params), secret);
    const refused = checked(movement, settings, session, countKey(tool, idempotencyKey, movement), secret);
    if (refused !== undefined) {
      answer = refused;
    } else {
      let ask = settings.live;
      if (!settings.live && (await probeSandbox(client, ctx.mcpReq.signal)) === undefined) {
        audit.mode = 'not_a_sandbox';
        ask = true;
      }
      const asked = ask
        ? await confirmation(tool, args, movement, {
            server,
            ctx,
            secret,
            baseURL: service.baseURL,
            live: settings.live,
          })
        : undefined;
      // Asking is not the end of the call: its audit line is written when the person has answered.
      if (asked?.kind === 'asking') return asked.result;
      if (asked?.kind === 'refused') {
        audit.answer = asked.answer;
        answer = asked.result;
      } else {
        if (asked !== undefined) audit.answer = 'confirmed';
        answer = await send(tool, movement, idempotencyKey, call, retry);
      }
    }
  } catch (error) {
    answer = toolError(error, secret, undefined, retry);
  }
  await writeAudit(outcome(audit, answer), settings.audit, secret);
  return answer;
}

/** `maxAmount`, the allowed destinations and `maxTotal`: a refusal, or `undefined` when the call may go on. */
function checked(
  movement: Movement,
  settings: McpSettings,
  session: McpSession,
  key: string,
  secret: Secret,
): ToolAnswer | undefined {
  const amount = cents(movement.amount);
  const cap = settings.maxAmount;
  if (cap !== undefined && amount > cents(cap)) {
    return refusal(
      `The amount ${movement.amount} is above this server's maximum of ${cap}. Nothing was sent.`,
      'above_max_amount',
      secret,
    );
  }
  const allowed = settings.allowDestinations;
  if (allowed !== undefined && movement.destination !== undefined && !allowed.includes(movement.destination)) {
    return refusal(
      `Transfers may go only to ${allowed.map(quotedId).join(', ')} on this server, not to ` +
        `${quotedId(movement.destination)}. Nothing was sent.`,
      'destination_not_allowed',
      secret,
    );
  }
  const total = settings.maxTotal;
  // A retry of an operation already counted (the same key and amount) adds nothing.
  if (total !== undefined && !session.counts(key) && session.total + amount > cents(total)) {
    const left = cents(total) - session.total;
    return refusal(
      `The amount ${movement.amount} would take this session past its total of ${total}: ` +
        `${decimal(left > 0n ? left : 0n)} is left. Nothing was sent.`,
      'above_max_total',
      secret,
    );
  }
  return undefined;
}

/** Sends the call, counted toward `maxTotal` under its key from before it is sent until it is known. */
async function send(
  tool: ToolSpec,
  movement: Movement,
  idempotencyKey: string,
  { settings, client, secret, ctx, session }: Call,
  retry: RetryAdvice,
): Promise<ToolAnswer> {
  const key = countKey(tool, idempotencyKey, movement);
  const counted = settings.maxTotal !== undefined;
  if (counted) session.count(key, cents(movement.amount));
  let kept = true;
  try {
    const made = await tool.call(client, movement.params, { signal: ctx.mcpReq.signal, idempotencyKey });
    // A transfer that failed (an inactive destination) moved nothing.
    kept = (made as { status?: unknown }).status !== 'failed';
    return toolResult(made, secret);
  } catch (error) {
    kept = mayHaveMoved(error);
    return toolError(error, secret, undefined, retry);
  } finally {
    if (counted) session.settle(key, kept);
  }
}

/** Where `maxTotal` counts a call: its tool, its Idempotency-Key and its amount. */
function countKey(tool: ToolSpec, idempotencyKey: string, movement: Movement): string {
  return `${tool.name}\n${idempotencyKey}\n${movement.amount}`;
}

/** The audit entry completed by what the call answered: the id and status made, or the error and reason. */
function outcome(audit: McpAuditEntry, answer: ToolAnswer): McpAuditEntry {
  const content = answer.structuredContent;
  const error = answer.isError ? (content.error as { name?: unknown; reason?: unknown } | undefined) : undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    ...audit,
    time: new Date().toISOString(),
    id: error === undefined ? text(content.id) : null,
    status: error === undefined ? text(content.status) : null,
    error: text(error?.name),
    reason: text(error?.reason),
  };
}

/** An exact amount with two decimals (`"150000.00"`) as a count of cents. */
function cents(amount: string): bigint {
  return BigInt(amount.replace('.', ''));
}

/** A count of cents as an exact amount with two decimals: `"150000.00"`. */
function decimal(count: bigint): string {
  const text = count.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/** The one paragraph the agent reads about the server: which service, and the rules it will meet. */
function instructions(settings: McpSettings, service: Service): string {
  const rules = [
    settings.maxAmount === undefined ? '' : ` Amounts above ${settings.maxAmount} are refused.`,
    settings.maxTotal === undefined ? '' : ` The money tools move at most ${settings.maxTotal} in all this session.`,
    settings.allowDestinations === undefined
      ? ''
      : ` Transfers may go only to ${settings.allowDestinations.map(quotedId).join(', ')}.`,
    settings.readOnly ? ' Read-only: no tool creates or changes anything.' : '',
    settings.tools.includes('charges_create') || settings.tools.includes('transfers_create')
      ? ' To retry a money tool call safely, pass the idempotency_key its error names.'
      : '',
  ].join('');
  if (!settings.live) {
    return (
      `lunas payments against a sandbox (${oneLine(service.baseURL)}): no real money moves. Amounts are rupiah. ` +
      `The sandbox_ tools play the customer and the clock.${rules}`
    );
  }
  return (
    'lunas payments on the live service: real money. Amounts are rupiah. charges_create and transfers_create ' +
    `ask the person to confirm each call; a refused one sent nothing.${rules}`
  );
}
