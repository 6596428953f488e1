/**
 * The only module that imports ky, which sends each attempt (base URL
 * joining, JSON body, headers). ky's retries and error statuses are turned
 * off: the transport runs the retry loop, and an attempt sets ky's `timeout`.
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
    // Without an attempt's own signal, `init.signal` is the Request's own,
    // which ky's timeout aborts, so a custom fetch that reads it sees the
    // timeout too. The global fetch is looked up per call, so a test's mock is seen.
    fetch: (request, init) => {
      const send = fetch ?? globalThis.fetch;
      const { attemptSignal, ...rest } = init as RequestInit & AttemptSignal;
      return send(request, { ...rest, signal: attemptSignal ?? (request as Request).signal });
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
