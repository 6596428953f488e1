/**
 * The in-process transport of {@link createSandbox}: a fetch-compatible
 * function that hands each request to the gateway and answers with a platform
 * `Response`. No socket and no Node.js API, so it runs on every runtime with
 * `fetch`, and its only timers are the gateway's (`delay` faults), which fake
 * timers move.
 */
import { SandboxError } from '../errors.js';
import type { Connection, Gateway } from './gateway.js';
import type { WireResponse } from './http.js';

/**
 * The base URL of every in-process sandbox. `.invalid` is reserved (RFC 2606):
 * no name under it resolves, so a request that misses `sandbox.fetch` fails
 * rather than reaching a real host. `https:` because a client refuses to send
 * its key over plain `http:` to a host that is not loopback.
 */
export const IN_PROCESS_URL = 'https://sandbox.lunas.invalid';

/** Statuses whose response has no body, which `new Response` refuses one for. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** The rejection a network failure gives in `fetch`: a `TypeError` with the reason as its cause. */
const networkError = (reason: string): TypeError =>
  new TypeError('fetch failed', { cause: new SandboxError(`The in-process sandbox ${reason}`) });

/** Reads a body stream up to `limit` bytes; past it the rest is cancelled, not read. */
async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | 'too-large'> {
  if (body === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.length;
    if (size > limit) {
      await reader.cancel();
      return 'too-large';
    }
    chunks.push(read.value);
  }
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.length;
  }
  return whole;
}

const toResponse = ({ status, headers, text }: WireResponse): Response =>
  new Response(NULL_BODY_STATUSES.has(status) ? null : text, { status, headers });

/** Serves a gateway through {@link InProcessTransport.fetch}. */
export class InProcessTransport {
  readonly #gateway: Gateway;
  /** Exchanges not yet answered (hung or delayed), failed as a closed connection when the sandbox closes. */
  readonly #open = new Set<() => void>();
  #closed = false;

  constructor(gateway: Gateway) {
    this.#gateway = gateway;
  }

  /**
   * Answers `input` as the sandbox would over HTTP. Rejects with a
   * `SandboxError` for a URL outside {@link IN_PROCESS_URL}, with the
   * signal's reason once `init.signal` (or the request's) aborts, and with a
   * `TypeError` where a network would fail (`drop`, `lost-response`, a
   * closed sandbox).
   */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== IN_PROCESS_URL) {
      // The origin only: a path or query may carry what a message must not show.
      throw new SandboxError(
        `sandbox.fetch serves ${IN_PROCESS_URL} only, not ${url.origin}: pass sandbox.url as the client's baseURL`,
      );
    }
    const signal = init?.signal ?? request.signal;
    signal?.throwIfAborted();
    if (this.#closed) throw networkError('was closed');
    return this.#exchange(request, url, signal);
  };

  /** Fails every unanswered exchange, as closing a server cuts its connections. */
  close(): Promise<void> {
    this.#closed = true;
    for (const fail of this.#open) fail();
    return Promise.resolve();
  }

  #exchange(request: Request, url: URL, signal: AbortSignal | null): Promise<Response> {
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.#open.delete(onClose);
      };
      const onAbort = (): void => {
        settle();
        reject(signal?.reason);
      };
      const onClose = (): void => {
        settle();
        reject(networkError('was closed before it answered'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#open.add(onClose);
      const connection: Connection = {
        readBody: (limit) => readLimited(request.body, limit),
        respond: (response) => {
          settle();
          resolve(toResponse(response));
        },
        cut: () => {
          settle();
          reject(networkError('closed the connection without an answer (an injected fault)'));
        },
      };
      void this.#gateway.handle(
        {
          method: request.method,
          target: url.pathname + url.search,
          authorization: request.headers.get('authorization') ?? undefined,
          idempotencyKey: request.headers.get('idempotency-key') ?? undefined,
          traceparent: request.headers.get('traceparent') ?? undefined,
          tracestate: request.headers.get('tracestate') ?? undefined,
          contentType: request.headers.get('content-type') ?? undefined,
          site: {
            addressedTo: url.origin,
            origin: request.headers.get('origin') ?? undefined,
            fetchSite: request.headers.get('sec-fetch-site') ?? undefined,
          },
        },
        connection,
      );
    });
  }
}
