/**
 * The seam with ky, the only module that imports it. ky sends each attempt:
 * it joins the base URL and the path, and builds the request and its body;
 * lunas's headers are set on that request here (or handed to lunas's own
 * transport as they are), since ky would copy them over and over. The rest
 * is lunas's: ky's retries, timeout and error statuses are off
 * (transport.ts runs the retry loop and each attempt's deadline), and
 * redirects are never followed: a payments API has no reason to send one, and
 * an answer from a host the caller never configured must not pass for the
 * service's.
 *
 * ky sends through the caller's `fetch`; without one, on Node.js, through
 * node-fetch.ts (Node's own HTTP client, without the web-stream machinery of
 * global `fetch`) once it is loaded; anywhere else through global `fetch`.
 */
import { LunasError } from './errors.js';
import type * as NodeFetchModule from './node-fetch.js';
import type { LightSignal, NodeFetchInit, NodeTransport } from './node-fetch.js';
import { describeError, foreignError } from './secrets.js';

/** What every attempt of one call sends, built once per call. */
export interface SendInit {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** The JSON text of a POST's body. */
  body: string | undefined;
}

/**
 * One attempt's deadline, as the seam uses it: a {@link LightSignal} that
 * lunas's own Node transport takes as it is, and what any other `fetch` needs
 * instead, built only then.
 */
export interface AttemptDeadline extends LightSignal {
  /** A standard `AbortSignal` that aborts with the deadline: for a `fetch` other than lunas's own. */
  readonly standard: AbortSignal;
  /**
   * Set by the seam when lunas's own Node transport sent the attempt: it ends
   * the wait for the headers and the body's read at the deadline by itself.
   */
  ownTransport: boolean;
}

/** ky, set up to send one attempt at a time. */
export interface Ky {
  /** Sends one attempt; `deadline` ends it, while waiting for the headers and while the body streams. */
  send(target: string, init: SendInit, deadline: AttemptDeadline): Promise<Response>;
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
 * What lunas gives ky beside its own options, for ky to hand to `fetch`
 * untouched: ky forwards every option it does not know (its documentation
 * passes undici's `dispatcher` that way). The attempt's deadline travels here,
 * not as ky's `signal`, which ky would combine with a controller of its own
 * through `AbortSignal.any`: about 35 µs a call on Node 20, more than the
 * rest of lunas's own work per call.
 */
interface Forwarded {
  lunasAttempt: { deadline: AttemptDeadline; headers: Record<string, string>; body: string | undefined };
}

/**
 * Imports ky, which the module loader caches for every later client. A failed
 * import rejects with a {@link LunasError} and is cached by nothing, so a
 * later call tries again.
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
    redirect: 'manual',
    // `redirect: 'manual'` on the Request and in the options too, for a custom
    // fetch that reads only the latter (or rebuilds the Request from its URL).
    // The global fetch is looked up per call, so a test's mock is seen.
    fetch: async (request, options) => {
      const { deadline, headers, body } = (options as Forwarded).lunasAttempt;
      const own = fetch === undefined ? nodeTransportFor() : undefined;
      if (own !== undefined) {
        deadline.ownTransport = true;
        // The headers and the JSON text as lunas built them: node-fetch.ts sends them
        // without reading the Request's headers or its body stream back.
        const init: NodeFetchInit = {
          redirect: 'manual',
          lunasSignal: deadline,
          lunasHeaders: headers,
          lunasBody: body,
        };
        // What ky and lunas read of a Response, LightResponse has. It never
        // follows a redirect, so its answer needs no check for one.
        return (await own.send(request, init)) as unknown as Response;
      }
      // On the Request itself, which is what a caller's fetch reads them from.
      for (const name in headers) (request as Request).headers.set(name, headers[name]!);
      const send = fetch ?? globalThis.fetch;
      const response = await send(request, { redirect: 'manual', signal: deadline.standard });
      const followed = followedFrom(response, (request as Request).url);
      if (followed) throw followed;
      return response;
    },
  });
  return {
    send: (target, { method, headers, body }, deadline) => {
      // The headers travel beside ky's options, not as its `headers`: ky would
      // copy them into a new Headers four times over before the Request
      // (measured: about two fifths of the garbage lunas added to a call). They are
      // set on the Request ky built, or handed to lunas's own transport as they are.
      const lunasAttempt: Forwarded['lunasAttempt'] = { deadline, headers, body };
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
 * The file of node-fetch.ts, beside this module's in the source and in dist/
 * (a build entry of its own). A variable, so that no bundler (a browser's, a
 * Worker's) follows the import and packs Node-only code it never runs.
 */
const NODE_FETCH_MODULE = './node-fetch.js';

/**
 * The Node transport, loaded once per process: like global `fetch`'s, its
 * connection pool is shared by every client, so a process with many clients
 * keeps one set of keep-alive connections per origin.
 */
let nodeTransportLoaded: Promise<NodeTransport | undefined> | undefined;

/** The Node transport once loaded; until then (and off Node.js) global `fetch` sends. */
let nodeTransportReady: NodeTransport | undefined;

/** Whether this process has sent an attempt without a caller's `fetch`. */
let firstAttemptSent = false;

/**
 * The Node transport when it is loaded and in use ({@link NodeTransport.inUse}),
 * else `undefined`, for global `fetch` to send. The first attempt of a process
 * neither waits for it nor loads it: undici's import costs a cold process more time (about 30 ms on Node 20)
 * than the transport saves on one call (about 0.1 ms), so a script, a cron
 * job or a serverless invocation that makes one call ends without paying it.
 * From the second attempt on, the transport loads in the background and takes
 * over every attempt once loaded.
 */
function nodeTransportFor(): NodeTransport | undefined {
  if (firstAttemptSent) void (nodeTransportLoaded ?? loadNodeTransportOnce());
  firstAttemptSent = true;
  return nodeTransportReady?.inUse() ? nodeTransportReady : undefined;
}

/**
 * Loads node-fetch.ts's transport on Node.js, imported only there, once per
 * process; resolves to `undefined` elsewhere, where node-fetch.ts finds it
 * must not be used, or where it cannot be loaded (global `fetch` then sends).
 * Never rejects.
 */
export function loadNodeTransportOnce(): Promise<NodeTransport | undefined> {
  const { process } = globalThis as { process?: { release?: { name?: unknown } } };
  return (nodeTransportLoaded ??=
    process?.release?.name === 'node'
      ? import(/* webpackIgnore: true */ /* @vite-ignore */ NODE_FETCH_MODULE)
          .then((module: typeof NodeFetchModule) => module.loadNodeTransport())
          .then(
            (transport) => (nodeTransportReady = transport),
            () => undefined,
          )
      : (Promise.resolve() as Promise<undefined>));
}
