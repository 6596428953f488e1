/**
 * The seam with ky, the only module that imports it. ky sends each attempt:
 * it joins the base URL and the path, and builds the `Request`. The rest is
 * lunas's: ky's retries, timeout and error statuses are off (transport.ts
 * runs the retry loop, attempt.ts each attempt's deadline), and redirects are
 * never followed (redirects.ts).
 *
 * What ky sends through is chosen once per process and kept for its life:
 * the caller's `fetch` when one is given; otherwise, on Node.js, lunas's Node
 * transport (node-transport.ts, undici's `request` on the global dispatcher
 * global `fetch` uses); anywhere else global `fetch`, looked up per attempt
 * so that a test's mock is seen.
 */
import { LunasError } from './errors.js';
import type { Log } from './log.js';
import type * as NodeTransportModule from './node-transport.js';
import type { NodeFetch } from './node-transport.js';
import { followedFrom, REDIRECT_MODE } from './redirects.js';
import { nodeVersion, versionAtLeast } from './runtime.js';
import { describeError, foreignError } from './secrets.js';

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
 * `dispatcher` that way), so the attempt's headers, body and signal reach
 * the seam's `fetch` without ky copying the headers into a `Headers` at each
 * of its steps, or combining the signal with a controller of its own.
 */
interface Forwarded {
  lunasAttempt: { signal: AbortSignal; headers: Record<string, string>; body: string | undefined };
}

/**
 * Imports ky, which the module loader caches for every later client, and
 * settles the process's transport. A failed import of ky rejects with a
 * {@link LunasError} and is cached by nothing, so a later call tries again.
 */
export async function loadKy(baseURL: string, fetch: typeof globalThis.fetch | undefined, log?: Log): Promise<Ky> {
  // Both loaded at once: undici's import, on Node.js, need not wait for ky's.
  const transport = fetch === undefined ? processTransport(log) : undefined;
  let ky: typeof import('ky');
  try {
    ky = await import('ky');
  } catch (error) {
    const cause = foreignError(error);
    throw new LunasError(`lunas could not load ky, the HTTP client it sends requests with: ${describeError(cause)}`, {
      cause,
    });
  }
  const own = await transport;
  const instance = ky.default.create({
    prefixUrl: baseURL,
    retry: 0,
    timeout: false,
    throwHttpErrors: false,
    redirect: REDIRECT_MODE,
    fetch:
      own === undefined
        ? async (input, options) => {
            const { signal, headers } = (options as Forwarded).lunasAttempt;
            // ky hands fetch the Request it built.
            const request = input instanceof Request ? input : new Request(input);
            // On the Request itself, which is what a caller's fetch reads them from.
            for (const name of Object.keys(headers)) request.headers.set(name, headers[name]!);
            // Looked up per call, so a test's mock of global fetch is seen.
            const send = fetch ?? globalThis.fetch;
            // `redirect` in the init too, for a fetch that reads only the init (or rebuilds the Request).
            const response = await send(request, { redirect: REDIRECT_MODE, signal });
            const followed = followedFrom(response, request.url);
            if (followed) throw followed;
            return response;
          }
        : (input, options) => {
            // The Request's URL and method; its headers and body as lunas built them, as
            // fetch's init overrides them, so they are not read back from the Request.
            const { signal, headers, body } = (options as Forwarded).lunasAttempt;
            return own(input, { headers, body: body ?? null, signal, redirect: REDIRECT_MODE });
          },
  });
  return {
    send: (target, { method, headers, body }, signal) => {
      const lunasAttempt: Forwarded['lunasAttempt'] = { signal, headers, body };
      // Only what differs from ky's defaults: ky merges its options key by key,
      // copying the whole object at each, so a GET's absent method and body cost.
      const options: Forwarded & Partial<SendInit> =
        body === undefined ? { lunasAttempt } : { method, body, lunasAttempt };
      if (body === undefined && method !== 'GET') options.method = method;
      return instance(target, options as object);
    },
  };
}

/**
 * The file of node-transport.ts, beside this module's in the source and in
 * dist/ (a build entry of its own). A variable, so that no bundler (a
 * browser's, a Worker's) follows the import and packs Node-only code it
 * never runs.
 */
const NODE_TRANSPORT_MODULE = './node-transport.js';

/** undici 7's floor: on an older Node.js 20, global `fetch` sends. */
const UNDICI_NODE_FLOOR = [20, 18, 1] as const;

/** The process's transport, settled once: lunas's Node transport, or `undefined` for global `fetch`. */
let processTransportLoaded: Promise<NodeFetch | undefined> | undefined;

/**
 * The transport of every client of this process that passes no `fetch`,
 * settled by the first call and kept for the life of the process: lunas's
 * Node transport on Node.js (from 20.18.1, undici 7's floor), else
 * `undefined`, meaning global `fetch`. When the Node transport cannot be
 * loaded (undici missing from a bundled deployment, say), global `fetch`
 * sends for the life of the process, and the log says so once. Never rejects.
 */
export function processTransport(log?: Log): Promise<NodeFetch | undefined> {
  return (processTransportLoaded ??= loadProcessTransport(log));
}

async function loadProcessTransport(log: Log | undefined): Promise<NodeFetch | undefined> {
  const version = nodeVersion();
  if (version === undefined || !versionAtLeast(version, UNDICI_NODE_FLOOR)) return undefined;
  try {
    const module = (await import(
      /* webpackIgnore: true */ /* @vite-ignore */ NODE_TRANSPORT_MODULE
    )) as typeof NodeTransportModule;
    return await module.loadNodeFetch();
  } catch (error) {
    log?.write(
      'warn',
      `lunas sends through global fetch in this process: its Node.js transport could not be loaded (${describeError(foreignError(error))})`,
    );
    return undefined;
  }
}
