/**
 * One attempt at delivering an event: a POST with `fetch` under its own
 * timeout. Only `fetch` and timers, so the same code serves a sandbox on a
 * port and one in process, under fake timers too.
 */
import type { SandboxEvent } from './types.js';

/** What an attempt came to: an answer's status (and a redirect's `Location`), or why there was none. */
export type AttemptOutcome = { status: number; error: null; location?: string } | { status: null; error: string };

/**
 * POSTs `event` to `url` as JSON with its id in `lunas-event-id`. Resolves
 * with the outcome, never rejects; resolves `undefined` when `abandon` aborts
 * it (the sandbox is closing: no outcome to record).
 */
export async function attemptDelivery(
  url: string,
  event: SandboxEvent,
  timeoutMs: number,
  abandon: AbortSignal,
): Promise<AttemptOutcome | undefined> {
  const attempt = new AbortController();
  const onAbandon = (): void => attempt.abort();
  abandon.addEventListener('abort', onAbandon, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort();
  }, timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'lunas-event-id': event.id },
      body: JSON.stringify(event),
      signal: attempt.signal,
      redirect: 'manual',
    });
    // The answer's body means nothing to the sender; cancelling it frees the connection.
    await response.body?.cancel().catch(() => {});
    // A redirect is not followed (the receiver must answer itself), so where it pointed is worth keeping.
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    return { status: response.status, error: null, ...(location === null ? {} : { location }) };
  } catch (error) {
    if (abandon.aborted) return undefined;
    return { status: null, error: timedOut ? `timed out after ${timeoutMs} ms` : describeFetchError(error) };
  } finally {
    clearTimeout(timer);
    abandon.removeEventListener('abort', onAbandon);
  }
}

/** Node's `fetch failed` says nothing; its cause (`connect ECONNREFUSED 127.0.0.1:9`) does. */
function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause ? `${error.message} (${cause})` : error.message;
}
