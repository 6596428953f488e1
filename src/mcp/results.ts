/**
 * What a tool call answers: the SDK's object as JSON, both as
 * `structuredContent` (for clients that read it) and as text (for those that
 * show the model text only), or a tool error (`isError`) carrying the error's
 * name, message and, where it has them, its field map, status, request id
 * and Idempotency-Key. Every form of the API key is masked in both, whatever
 * put it there (an agent may paste it into a description).
 */
import { LunasError } from '../core/report/errors.js';
import { foreignError, type Secret } from '../core/report/secrets.js';

/** A `tools/call` result, as the MCP server takes it. */
export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

/**
 * Why a tool refused before calling the service: the amount is above the
 * server's cap or the session's total, the transfer's destination is not one
 * allowed, the client cannot ask the person, the person said no, or a
 * sandbox tool's URL does not answer as a lunas sandbox.
 */
export type RefusalReason =
  | 'above_max_amount'
  | 'above_max_total'
  | 'destination_not_allowed'
  | 'confirmation_unavailable'
  | 'not_confirmed'
  | 'not_a_sandbox';

/** What the agent reads of an error: safe, documented fields only (never a body or headers). */
const SHOWN_FIELDS = ['fields', 'status', 'requestId'] as const;

/** `value` (an SDK object) as the tool's answer. */
export function toolResult(value: object, secret: Secret): ToolAnswer {
  return answer(value as Record<string, unknown>, secret);
}

/**
 * `error` as a tool error. A lunas error keeps its name, message and the
 * fields above; anything else (a bug, a fault of the MCP layer) is reduced to
 * its name and message, rebuilt from safe parts.
 */
export function toolError(error: unknown, secret: Secret, reason?: RefusalReason, retry?: RetryAdvice): ToolAnswer {
  const shown: Record<string, unknown> = {};
  if (error instanceof LunasError) {
    shown.name = error.name;
    shown.message = retryAdvised(error, retry);
    for (const field of SHOWN_FIELDS) {
      const value = (error as unknown as Record<string, unknown>)[field];
      if (value !== undefined) shown[field] = value;
    }
    // Shown only where the tool takes it back: a money tool's `idempotency_key` argument.
    if (retry !== undefined && error.idempotencyKey !== undefined) shown.idempotency_key = error.idempotencyKey;
  } else {
    const safe = foreignError(error, secret);
    shown.name = safe.name;
    shown.message = safe.message;
  }
  if (reason !== undefined) shown.reason = reason;
  const result = answer({ error: shown }, secret, `${String(shown.name)}: ${String(shown.message)}`);
  return { ...result, isError: true };
}

/** How a tool that takes `idempotency_key` is retried safely: its name, for the advice. */
export interface RetryAdvice {
  readonly tool: string;
}

/**
 * The error's message with the SDK's advice on a failed POST, which names
 * its request option (`retry with idempotencyKey "…"`), said as the tool's:
 * call it again with the same arguments and this `idempotency_key`. A tool
 * that takes no key drops the advice.
 */
function retryAdvised(error: LunasError, retry: RetryAdvice | undefined): string {
  const key = error.idempotencyKey;
  if (key === undefined) return error.message;
  const advice = `; retry with idempotencyKey "${key}" to avoid a duplicate`;
  const ours =
    retry === undefined
      ? ''
      : `; call ${retry.tool} again with the same arguments and idempotency_key ${JSON.stringify(key)} to avoid a duplicate`;
  return error.message.replace(advice, () => ours);
}

/** A refusal of the tool's own, before the service is called: nothing was sent. */
export function refusal(message: string, reason: RefusalReason, secret: Secret): ToolAnswer {
  return toolError(new LunasError(message), secret, reason);
}

/** The JSON of `content`, masked, as structured content and as text (`text` when given, masked too). */
function answer(content: Record<string, unknown>, secret: Secret, text?: string): ToolAnswer {
  const json = JSON.stringify(content);
  const masked = secret.mask(json);
  return {
    content: [{ type: 'text', text: text === undefined ? masked : secret.mask(text) }],
    // Parsed back only when masking changed something: the mask is plain text inside a JSON string.
    structuredContent: masked === json ? content : (JSON.parse(masked) as Record<string, unknown>),
  };
}
