/**
 * A `webhook` handler asked for its answer, as a receiver: whatever it does
 * (throw, reject, answer something that is not a `Response`) becomes a
 * {@link HandlerFailure} saying what happened, recorded as a failed attempt,
 * so a handler never breaks the sandbox.
 */
import type { WebhookHandler } from './delivery-types.js';

/** Why a handler's attempt failed without an answer: it threw, or returned something other than a Response. */
export class HandlerFailure extends Error {}

/** The handler's answer, or a {@link HandlerFailure} saying what it did instead: a handler never breaks the sandbox. */
export async function askHandler(handler: WebhookHandler, request: Request): Promise<Response> {
  let answer: unknown;
  try {
    answer = await handler(request);
  } catch (error) {
    throw new HandlerFailure(`the webhook handler threw ${describeThrown(error)}`);
  }
  if (!isResponse(answer)) throw new HandlerFailure(`the webhook handler returned ${kindOf(answer)}, not a Response`);
  return answer;
}

/**
 * A `Response`, from this realm or another (a test environment's own class):
 * an integer HTTP status and headers to read.
 */
function isResponse(value: unknown): value is Response {
  if (value instanceof Response) return true;
  if (typeof value !== 'object' || value === null) return false;
  const { status, headers } = value as { status?: unknown; headers?: { get?: unknown } };
  return (
    Number.isInteger(status) &&
    (status as number) >= 100 &&
    (status as number) <= 599 &&
    typeof headers?.get === 'function'
  );
}

/** What a value is, in a few words, for a message: `undefined`, `null`, `a string`, `an object`. */
export function kindOf(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** What a handler threw, for the record: `Error: message`, or its kind. Never throws itself. */
function describeThrown(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return `${thrown.name}: ${thrown.message}`;
    if (typeof thrown === 'string') return JSON.stringify(thrown.length > 200 ? `${thrown.slice(0, 200)}…` : thrown);
    return kindOf(thrown);
  } catch {
    return 'a value that cannot be described';
  }
}
