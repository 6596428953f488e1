/**
 * Redirects, never followed: every rule about them in one place. A payments
 * API has no reason to send one, and an answer from a host the caller never
 * configured must not pass for the service's. Each attempt asks for
 * `redirect: 'manual'`; a 3xx is an `APIError` with its `Location` (never
 * retried); and a custom `fetch` that followed one anyway is caught by the
 * answer it gives.
 */
import { APIError } from '../report/errors.js';

/** What every attempt asks of `fetch`: a 3xx answered as it came. */
export const REDIRECT_MODE = 'manual' satisfies RequestRedirect;

/**
 * 3xx, or 0: what fetch makes of a redirect under `redirect: 'manual'` in a
 * browser (an opaque redirect, hiding its status and Location).
 */
export function isRedirect(status: number): boolean {
  return status === 0 || (status >= 300 && status < 400);
}

const NEVER_FOLLOWED = 'lunas never follows redirects';
const CHECK_BASE_URL = `${NEVER_FOLLOWED} (check the baseURL option)`;

/** Where a redirect pointed (already masked, as every header is), or why that is not known. */
export function redirectDetail(status: number, location: string | null): string {
  if (status === 0) return `an opaque redirect (fetch hides where it pointed); ${CHECK_BASE_URL}`;
  if (location === null) return `a redirect with no Location; ${CHECK_BASE_URL}`;
  return `a redirect to ${location}; ${CHECK_BASE_URL}`;
}

/**
 * Thrown by the seam with ky when a custom fetch followed a redirect in spite
 * of `redirect: 'manual'`: the attempt turns it into an {@link APIError}. Its
 * body is cancelled unread.
 */
export class FollowedRedirect extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    /** Where the answer came from, when the response says. */
    readonly url: string | undefined,
  ) {
    super('a redirect was followed');
  }
}

/**
 * Whether `response` came from somewhere other than `asked`: flagged
 * `redirected`, or with a `url` that is neither empty (a Response a custom
 * fetch built itself) nor the URL asked for. Never throws.
 */
export function followedFrom(response: Response, asked: string): FollowedRedirect | undefined {
  try {
    const { url } = response;
    const elsewhere = typeof url === 'string' && url !== '' && url !== asked;
    if (response.redirected !== true && !elsewhere) return undefined;
    void (response.body as ReadableStream | null)?.cancel?.().catch(() => undefined);
    return new FollowedRedirect(
      response.status,
      response.headers,
      typeof url === 'string' && url !== '' ? url : undefined,
    );
  } catch {
    return undefined;
  }
}

/** `error` when it is the redirect a custom fetch followed; never throws, whatever `error` is. */
export function asFollowedRedirect(error: unknown): FollowedRedirect | undefined {
  // A thrown Proxy may trap reading its prototype.
  try {
    return error instanceof FollowedRedirect ? error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The error for an answer a custom fetch got by following a redirect (or from
 * a URL other than the one asked for): refused unread, since it does not come
 * from the service the caller configured. `headers` come masked.
 */
export function followedRedirectError(init: {
  label: string;
  status: number;
  headers: Headers;
  url: string | undefined;
  idempotencyKey: string | undefined;
}): APIError {
  const from = init.url === undefined ? 'after a redirect' : `from ${init.url}`;
  return new APIError({
    status: init.status,
    message: `${init.label} was answered ${from}: the fetch option followed a redirect, and ${NEVER_FOLLOWED}`,
    body: undefined,
    headers: init.headers,
    idempotencyKey: init.idempotencyKey,
  });
}
