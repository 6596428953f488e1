/**
 * The only module that imports ky, which sends each attempt (base URL
 * joining, JSON body, headers). ky's retries and error statuses are turned
 * off: the transport runs the retry loop, and an attempt sets ky's `timeout`.
 * Redirects are never followed: a payments API has no reason to send one, and
 * an answer from a host the caller never configured must not pass for the service's.
 */
import type { Options } from 'ky';
import { LunasError } from './errors.js';
import { describeError, foreignError } from './secrets.js';

/** What every attempt of one call sends, built once per call. */
export interface SendInit {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** The JSON text of a POST's body. */
  body: string | undefined;
  /** ky's timeout: it covers the wait for the response's headers. */
  timeout: number;
}

/** ky, set up to send one attempt at a time. */
export interface KyHttp {
  /** Sends one attempt; `signal`, when given, aborts this attempt alone. */
  send(target: string, init: SendInit, signal: AbortSignal | undefined): Promise<Response>;
  /** Whether ky's timeout ended the wait for the headers; never throws, whatever `error` is. */
  isTimeout(error: unknown): boolean;
}

/**
 * Thrown by `send` when a custom fetch followed a redirect in spite of
 * `redirect: 'manual'`: the attempt turns it into an {@link APIError}. Its
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
function followedFrom(response: Response, asked: string): FollowedRedirect | undefined {
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

/**
 * The option ky does not know, so hands to fetch: the attempt's own signal,
 * beside the Request. Given to ky as `signal`, it would be merged with ky's
 * own through `AbortSignal.any`, a cost on every call.
 */
interface AttemptSignal {
  attemptSignal?: AbortSignal;
}

/**
 * Imports ky, which the module loader caches for every later client. A failed
 * import rejects with a {@link LunasError} and is cached by nothing, so a
 * later call tries again.
 */
export async function loadKy(baseURL: string, fetch: typeof globalThis.fetch | undefined): Promise<KyHttp> {
  let ky: typeof import('ky');
  try {
    ky = await import('ky');
  } catch (error) {
    const cause = foreignError(error);
    throw new LunasError(`lunas could not load ky, the HTTP client it sends requests with: ${describeError(cause)}`, {
      cause,
    });
  }
  const instance = ky.default.create({
    prefixUrl: baseURL,
    retry: 0,
    timeout: false, // Set per attempt.
    throwHttpErrors: false,
    redirect: 'manual',
    // Without an attempt's own signal, `init.signal` is the Request's own,
    // which ky's timeout aborts, so a custom fetch that reads it sees the
    // timeout too. The global fetch is looked up per call, so a test's mock is seen.
    // `redirect: 'manual'` on the Request and in the options too, for a custom
    // fetch that reads only the latter (or rebuilds the Request from its URL).
    fetch: async (request, init) => {
      const send = fetch ?? globalThis.fetch;
      const { attemptSignal, ...rest } = init as RequestInit & AttemptSignal;
      const response = await send(request, {
        ...rest,
        redirect: 'manual',
        signal: attemptSignal ?? (request as Request).signal,
      });
      const followed = followedFrom(response, (request as Request).url);
      if (followed) throw followed;
      return response;
    },
  });
  return {
    // A GET's `body` is undefined, which ky's types (exact optional properties) refuse but ky reads as absent.
    send: (target, init, signal) =>
      instance(target, (signal ? { ...init, attemptSignal: signal } : init) as Options & AttemptSignal),
    isTimeout(error) {
      // A thrown Proxy may trap reading its prototype.
      try {
        return error instanceof ky.TimeoutError;
      } catch {
        return false;
      }
    },
  };
}
