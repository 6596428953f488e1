/**
 * The audit trail: one entry per call of a money tool (`transfers_create`,
 * `charges_create`), whatever became of it: refused by a check, declined by
 * the person, sent and made, or failed. Written as one JSON line, to stderr
 * or appended to a file, or handed to a function of the caller's. The API key
 * is masked in it wherever the agent put it; the agent's text is escaped so
 * a line stays one line.
 */
import type { Secret } from '../core/report/secrets.js';
import { oneLine } from './text.js';

/**
 * One money tool call, as the audit trail records it (a JSON line of these
 * fields, in this order). Every field is there; `null` where the call never
 * got that far (no amount when the arguments were refused) or it does not
 * apply (a charge has no destination).
 * @category MCP
 */
export interface McpAuditEntry {
  /** When the call ended, ISO 8601 UTC. */
  time: string;
  /** `transfers_create` or `charges_create`. */
  tool: 'transfers_create' | 'charges_create';
  /**
   * `live`, `sandbox` (the URL answered as a lunas sandbox), or
   * `not_a_sandbox` (without live mode, a URL that did not: treated as live).
   */
  mode: 'live' | 'sandbox' | 'not_a_sandbox';
  /** The amount exactly, with two decimals (`"150000.00"`). */
  amount: string | null;
  /** The currency, `idr`. */
  currency: string | null;
  /** A transfer's destination account, as the agent gave it (the key masked). */
  destination: string | null;
  /** The `client_reference_id`, as the agent gave it (the key masked). */
  reference: string | null;
  /** The Idempotency-Key sent: the agent's `idempotency_key`, or the one lunas made. */
  idempotency_key: string | null;
  /**
   * The person's answer: `confirmed`, `declined`, `cancelled`, `unticked`
   * (accepted with the box unticked), `cannot_ask` (the client cannot ask),
   * or `not_asked` (a sandbox, or refused before asking).
   */
  answer: 'confirmed' | 'declined' | 'cancelled' | 'unticked' | 'cannot_ask' | 'not_asked';
  /** The transfer's or charge's id when one was made. */
  id: string | null;
  /** Its status when one was made (`succeeded`, `pending`…). */
  status: string | null;
  /** The error's class when the call failed or was refused (`LunasError`, `PermissionDeniedError`). */
  error: string | null;
  /** Why the server refused before sending (`above_max_total`, `not_confirmed`…), as the tool error says. */
  reason: string | null;
}

/** Where audit entries go: a file's path, a function, or stderr (`undefined`). */
export type AuditTarget = string | ((entry: McpAuditEntry) => void) | undefined;

/** The entry as one line of JSON: the key masked, every control, format and separator character escaped. */
function auditLine(entry: McpAuditEntry, secret: Secret): string {
  return secret.mask(oneLine(JSON.stringify(entry)));
}

/**
 * Records `entry` where `target` says. A failure to write (a full disk, a
 * function that throws) is said on stderr with the line itself, so the entry
 * is not lost, and never fails the tool call: its outcome is already decided.
 */
export async function writeAudit(entry: McpAuditEntry, target: AuditTarget, secret: Secret): Promise<void> {
  const line = auditLine(entry, secret);
  try {
    // The function is given the masked entry: the escapes read back as the characters the agent sent.
    if (typeof target === 'function') target(JSON.parse(line) as McpAuditEntry);
    else if (typeof target === 'string') {
      // Loaded here: the MCP server also runs where there is no file system (an HTTP handler on a worker).
      const { appendFile } = await import('node:fs/promises');
      await appendFile(target, `${line}\n`, { encoding: 'utf8', mode: 0o600 });
    } else console.error(`lunas-mcp audit: ${line}`);
  } catch (error) {
    console.error(`lunas-mcp: the audit line could not be written (${secret.mask(String(error))}): ${line}`);
  }
}
