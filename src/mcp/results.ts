/**
 * What a tool call answers: the SDK's object as JSON, both as
 * `structuredContent` (for clients that read it) and as text (for those that
 * show the model text only), or a tool error (`isError`) carrying the error's
 * name, message and, where it has them, its field map, status, request id
 * and Idempotency-Key. Every form of the API key is masked in both, whatever
 * put it there (an agent may paste it into a description).
 */
import { LunasError } from '../core/errors.js';
import { foreignError, type Secret } from '../core/secrets.js';

/** A `tools/call` result, as the MCP server takes it. */
export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

/**
 * Why a tool refused before calling the service: the amount is above the
 * server's cap, the client cannot ask the person, or the person said no.
 */
export type RefusalReason = 'above_max_amount' | 'confirmation_unavailable' | 'not_confirmed';

/** What the agent reads of an error: safe, documented fields only (never a body or headers). */
const SHOWN_FIELDS = ['fields', 'status', 'requestId', 'idempotencyKey'] as const;

/** `value` (an SDK object) as the tool's answer. */
export function toolResult(value: object, secret: Secret): ToolAnswer {
  return answer(value as Record<string, unknown>, secret);
}

/**
 * `error` as a tool error. A lunas error keeps its name, message and the
 * fields above; anything else (a bug, a fault of the MCP layer) is reduced to
 * its name and message, rebuilt from safe parts.
 */
export function toolError(error: unknown, secret: Secret, reason?: RefusalReason): ToolAnswer {
  const shown: Record<string, unknown> = {};
  if (error instanceof LunasError) {
    shown.name = error.name;
    shown.message = error.message;
    for (const field of SHOWN_FIELDS) {
      const value = (error as unknown as Record<string, unknown>)[field];
      if (value !== undefined) shown[field] = value;
    }
  } else {
    const safe = foreignError(error, secret);
    shown.name = safe.name;
    shown.message = safe.message;
  }
  if (reason !== undefined) shown.reason = reason;
  const result = answer({ error: shown }, secret, `${String(shown.name)}: ${String(shown.message)}`);
  return { ...result, isError: true };
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
