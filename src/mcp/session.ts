/**
 * What lasts across a session's tool calls: the money its tools have moved,
 * for `maxTotal`. A session is every server made from one options object
 * (`createMcpHandler` makes one server per HTTP request, so they share it
 * through the object they were made from), or the `lunas-mcp` process.
 *
 * A call is counted under its Idempotency-Key when it is sent: a retry with
 * the same key and amount is the same operation, and counts once. It stops
 * counting when the service refuses it (nothing was made); it keeps counting
 * when it was made, and when its outcome is unknown (a lost answer), since
 * the money may have moved.
 */
import { APIConnectionError, APIError, LunasError, RequestValidationError } from '../core/report/errors.js';

/** One counted operation: its amount in cents, the calls still running it, and whether it stays counted. */
interface Counted {
  readonly cents: bigint;
  running: number;
  kept: boolean;
}

/** The money a session's tools have moved (or may have), in cents. */
export class McpSession {
  readonly #counted = new Map<string, Counted>();
  #total = 0n;

  /** The cents counted so far, calls still running included. */
  get total(): bigint {
    return this.#total;
  }

  /** Whether `key` (tool, Idempotency-Key, amount) is counted already: a retry of it adds nothing. */
  counts(key: string): boolean {
    return this.#counted.has(key);
  }

  /** Counts `cents` under `key` (once per key), until {@link settle} says otherwise. */
  count(key: string, cents: bigint): void {
    const counted = this.#counted.get(key);
    if (counted !== undefined) {
      counted.running++;
      return;
    }
    this.#counted.set(key, { cents, running: 1, kept: false });
    this.#total += cents;
  }

  /** One call under `key` ended: `kept` when the money moved or may have; otherwise it stops counting once no call runs it. */
  settle(key: string, kept: boolean): void {
    const counted = this.#counted.get(key);
    if (counted === undefined) return;
    counted.running--;
    counted.kept ||= kept;
    if (counted.running === 0 && !counted.kept) {
      this.#counted.delete(key);
      this.#total -= counted.cents;
    }
  }
}

/**
 * Whether the money of a call that failed with `error` may have moved: yes
 * unless the request was refused before it was sent, or the service answered
 * with a refusal (a 4xx other than 408, 409 and 429, which may follow an
 * attempt that was made). The service makes a transfer once per key, so a
 * refusal on the key's last attempt means none was made.
 */
export function mayHaveMoved(error: unknown): boolean {
  if (error instanceof RequestValidationError) return false;
  if (error instanceof APIConnectionError) return true;
  if (error instanceof APIError) {
    const status = error.status;
    return !(typeof status === 'number' && status >= 400 && status < 500 && ![408, 409, 429].includes(status));
  }
  // lunas's own refusals before sending are plain LunasErrors without a key.
  return !(error instanceof LunasError && error.constructor === LunasError && error.idempotencyKey === undefined);
}

const sessions = new WeakMap<object, McpSession>();

/** The session of the servers made from `options`: the same object, the same session. */
export function sessionOf(options: unknown): McpSession {
  if (typeof options !== 'object' || options === null) return new McpSession();
  let session = sessions.get(options);
  if (session === undefined) sessions.set(options, (session = new McpSession()));
  return session;
}
