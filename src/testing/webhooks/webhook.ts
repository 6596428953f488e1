/**
 * One attempt at delivering an event: a POST with `fetch` to the webhook URL,
 * or a `Request` handed to the `webhook` handler in process, under the
 * attempt's own time limit. Only `fetch`, `Request` and timers, so the same
 * code serves a sandbox on a port and one in process, under fake timers too.
 *
 * A webhook URL may carry a user name and password, as a receiver behind
 * Basic auth needs; `fetch` refuses such a URL, so they travel as an
 * `Authorization: Basic` header to the URL without them, and the password is
 * never shown (the command prints the URL masked, errors are masked).
 */
import type { TimerSource } from '../timers.js';
import type { SandboxEvent } from '../types.js';
import type { WebhookHandler } from './delivery-types.js';
import { askHandler, HandlerFailure } from './handler-call.js';

/** Where deliveries go: a URL (its credentials taken out of it), or a handler in process. */
export type WebhookTarget = UrlTarget | HandlerTarget;

/** A webhook URL, once its credentials are taken out of it. */
interface UrlTarget {
  kind: 'url';
  /** The URL without user name and password. */
  url: string;
  /** `Basic …` of the URL's user name and password; `undefined` when it had neither. */
  authorization: string | undefined;
  /** The forms the credentials can take in a text, longest first: masked in every error recorded. */
  secrets: readonly string[];
}

/** The `webhook` option: a fetch-style function called in process. */
interface HandlerTarget {
  kind: 'handler';
  handler: WebhookHandler;
}

/**
 * The address of the `Request` a handler gets. `.invalid` never resolves, so a
 * handler that forwards it with `fetch` fails rather than reaching a host; one
 * address whichever entry made the sandbox, so a test can match on it.
 */
const HANDLER_REQUEST_URL = 'https://sandbox.lunas.invalid/webhook';

/** The mask that stands for a password or credentials, in a URL shown and in an error. */
const MASK = '***';

/** The user name and password of `url`, percent-decoded; `undefined` when they are not percent-encoded UTF-8. */
function credentialsOf(url: URL): { user: string; password: string } | undefined {
  try {
    return { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  } catch {
    return undefined;
  }
}

/** Whether the user name and password of a webhook URL (an absolute URL) can be sent: percent-encoded UTF-8. */
export const hasReadableCredentials = (href: string): boolean => credentialsOf(new URL(href)) !== undefined;

/** Bytes as base64, with `btoa`: every runtime has it, Node.js's own encoder is Node.js only. */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The target of an absolute webhook URL whose credentials {@link hasReadableCredentials} accepted. */
export function webhookTarget(href: string): WebhookTarget {
  const url = new URL(href);
  const credentials = credentialsOf(url);
  if ((url.username === '' && url.password === '') || credentials === undefined) {
    return { kind: 'url', url: href, authorization: undefined, secrets: [] };
  }
  const { user, password } = credentials;
  // RFC 7617: user-id ":" password, as UTF-8, in base64.
  const token = base64(new TextEncoder().encode(`${user}:${password}`));
  const forms = password === '' ? [] : [url.password, password, encodeURIComponent(password)];
  url.username = '';
  url.password = '';
  return {
    kind: 'url',
    url: url.href,
    authorization: `Basic ${token}`,
    secrets: [...new Set([token, ...forms])].sort((a, b) => b.length - a.length),
  };
}

/** A webhook URL as it may be shown: its password, if any, as `***` (`http://alice:***@127.0.0.1:3000/hook`). */
export function maskedWebhookUrl(href: string): string {
  const url = new URL(href);
  if (url.password === '') return href;
  url.password = MASK;
  return url.href;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` with every secret masked where it stands as a whole word (not inside
 * a longer run of letters and digits), so a short password cannot mangle the
 * rest of the message.
 */
function maskSecrets(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) {
    masked = masked.replace(new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(secret)}(?![A-Za-z0-9])`, 'g'), MASK);
  }
  return masked;
}

/** What an attempt came to: an answer's status (and a redirect's `Location`), or why there was none. */
export type AttemptOutcome = { status: number; error: null; location?: string } | { status: null; error: string };

/** How one attempt runs: its time limit, what ends it when the sandbox closes, where its timer comes from. */
export interface AttemptLimits {
  timeoutMs: number;
  /** Aborted by `close()`: the attempt ends with no outcome to record. */
  abandon: AbortSignal;
  timers: TimerSource;
}

/**
 * POSTs `event` as JSON with its id in `lunas-event-id` (and a URL's
 * `Authorization`, if any): to the URL with `fetch`, or to the handler as a
 * `Request` to `https://sandbox.lunas.invalid/webhook`. Resolves with the
 * outcome, never rejects, whatever the handler does; resolves `undefined`
 * when `abandon` aborts it (the sandbox is closing: no outcome to record).
 */
export async function attemptDelivery(
  target: WebhookTarget,
  event: SandboxEvent,
  { timeoutMs, abandon, timers }: AttemptLimits,
): Promise<AttemptOutcome | undefined> {
  const attempt = new AbortController();
  const onAbandon = (): void => attempt.abort();
  abandon.addEventListener('abort', onAbandon, { once: true });
  let timedOut = false;
  const timer = timers.setTimeout(() => {
    timedOut = true;
    attempt.abort();
  }, timeoutMs);
  const init: RequestInit = {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'lunas-event-id': event.id,
      ...(target.kind === 'url' && target.authorization !== undefined ? { authorization: target.authorization } : {}),
    },
    body: JSON.stringify(event),
    signal: attempt.signal,
    redirect: 'manual',
  };
  try {
    const answer =
      target.kind === 'url'
        ? fetch(target.url, init)
        : askHandler(target.handler, new Request(HANDLER_REQUEST_URL, init));
    // A handler may ignore its request's signal: the attempt ends at the time limit all the same.
    const response = await untilAborted(answer, attempt.signal);
    // The answer's body means nothing to the sender; cancelling it frees the connection.
    await cancelBody(response);
    // A redirect is not followed (the receiver must answer itself), so where it pointed is worth keeping.
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    return { status: response.status, error: null, ...(location === null ? {} : { location }) };
  } catch (error) {
    if (abandon.aborted) return undefined;
    if (timedOut) return { status: null, error: `timed out after ${timeoutMs} ms` };
    if (error instanceof HandlerFailure) return { status: null, error: error.message };
    const secrets = target.kind === 'url' ? target.secrets : [];
    return { status: null, error: maskSecrets(describeFetchError(error), secrets) };
  } finally {
    timers.clearTimeout(timer);
    abandon.removeEventListener('abort', onAbandon);
  }
}

/** `answer`, or a rejection with the signal's reason as soon as `signal` aborts. */
function untilAborted<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Cancels an answer's body, whatever it is (a handler's object may have none, or a used one). */
async function cancelBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Nothing to free.
  }
}

/** Node's `fetch failed` says nothing; its cause (`connect ECONNREFUSED 127.0.0.1:9`) does. */
function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause ? `${error.message} (${cause})` : error.message;
}
