/**
 * The seam with ky, the only module that imports it. ky sends each attempt:
 * it joins the base URL and the path, and builds the `Request`. The rest is
 * lunas's: ky's retries, timeout and error statuses are off
 * (call/retry-loop.ts runs the retry loop, call/attempt.ts each attempt's
 * deadline), and redirects are never followed (envelope.ts's rules).
 *
 * ky sends through the process's `fetch`: the caller's `fetch` when one is
 * given, else global `fetch`, looked up at each attempt, on every runtime.
 * So what the merchant's process does to `fetch` applies to lunas: msw and
 * nock in a test suite, an APM's wrapper, the global dispatcher.
 */
import { LunasError } from '../report/errors.js';
import { followedFrom, REDIRECT_MODE } from './envelope.js';
import { describeError, foreignError } from '../report/secrets.js';

/** What every attempt of one call sends, built once per call. */
export interface SendInit {
  method: 'GET' | 'POST';
  /** Names lower-cased. */
  headers: Record<string, string>;
  /** The JSON text of a POST's body. */
  body: string | undefined;
}

/** ky, set up to send one attempt at a time. */
export interface Ky {
  /** Sends one attempt; `signal` ends it, while waiting for the headers and while the body is read. */
  send(target: string, init: SendInit, signal: AbortSignal): Promise<Response>;
}

/**
 * What lunas gives ky beside its own options. ky hands every option it does
 * not know to `fetch` as it is (its documentation passes undici's
 * `dispatcher` that way), so the attempt's headers and signal reach
 * the seam's `fetch` without ky copying the headers into a `Headers` at each
 * of its steps, or combining the signal with a controller of its own.
 */
interface Forwarded {
  lunasAttempt: { signal: AbortSignal; headers: Record<string, string> };
}

/**
 * Imports ky, which the module loader caches for every later client. A
 * failed import rejects with a {@link LunasError} and is cached by nothing,
 * so a later call tries again.
 */
export async function loadKy(baseURL: string, fetch: typeof globalThis.fetch | undefined): Promise<Ky> {
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
    timeout: false,
    throwHttpErrors: false,
    redirect: REDIRECT_MODE,
    fetch: async (input, options) => {
      const { signal, headers } = (options as Forwarded).lunasAttempt;
      // ky hands fetch the Request it built.
      const request = input instanceof Request ? input : new Request(input);
      // On the Request itself, which is what a caller's fetch reads them from.
      for (const name of Object.keys(headers)) request.headers.set(name, headers[name]!);
      // Looked up at each attempt, so a test's mock or an APM's wrapper installed at any time is seen.
      const send = fetch ?? globalThis.fetch;
      // `redirect` in the init too, for a fetch that reads only the init (or rebuilds the Request).
      const response = await send(request, { redirect: REDIRECT_MODE, signal });
      const followed = followedFrom(response, request.url);
      if (followed) throw followed;
      return response;
    },
  });
  return {
    send: (target, { method, headers, body }, signal) => {
      const lunasAttempt: Forwarded['lunasAttempt'] = { signal, headers };
      // Only what differs from ky's defaults: ky merges its options key by key,
      // copying the whole object at each, so a GET's absent method and body cost.
      const options: Forwarded & Partial<SendInit> =
        body === undefined ? { lunasAttempt } : { method, body, lunasAttempt };
      if (body === undefined && method !== 'GET') options.method = method;
      return instance(target, options as object);
    },
  };
}
