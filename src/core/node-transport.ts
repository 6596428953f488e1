/**
 * lunas's transport on Node.js: a function with `fetch`'s contract (a
 * `Request` or URL and an init in, a real `Response` out) that sends through
 * `undici`'s documented `request` on the process's global dispatcher, the
 * one global `fetch` sends through. That makes it the same exchange as
 * `fetch`, by construction rather than by imitation:
 *
 * - the merchant's `setGlobalDispatcher` (a proxy, a mock agent, TLS
 *   settings), Node's own proxy from the environment (`NODE_USE_ENV_PROXY`,
 *   which Node installs as the global dispatcher) and `NODE_EXTRA_CA_CERTS`
 *   apply to it as they apply to `fetch`;
 * - it shares `fetch`'s connection pool, which has no cap per origin, so no
 *   request waits in a queue of lunas's making;
 * - responses are parsed by the dispatcher's own HTTP parser, so what `fetch`
 *   accepts (a folded header, say) it accepts.
 *
 * What `fetch` adds on top of a dispatcher, it does here: `Accept-Encoding`,
 * and decoding every content coding `fetch` decodes (gzip, deflate with or
 * without its zlib wrapper, br, and zstd where Node.js has it), stacked
 * codings included. The gain over `fetch` is the body: read into one buffer
 * (at most the body cap), not through a web stream chunk by chunk.
 *
 * Loaded on Node.js only, by a specifier no bundler follows (see ky.ts).
 */
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { bodyTooLarge, MAX_RESPONSE_BODY_BYTES } from './body-limit.js';

/** `fetch`'s signature, answering a real `Response`. */
export type NodeFetch = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/** undici's `request`, the one part of undici this transport uses. */
export type UndiciRequest = (
  url: string,
  options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
) => Promise<Dispatcher.ResponseData>;

/** Statuses whose response has no body, which `Response` refuses one for. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** How `fetch` rejects when no response came. */
function networkError(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** How `fetch` rejects when its signal aborts: with the signal's reason. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** A body whose read rejects with `error`: a response that arrived but whose body did not. */
function failingBody(error: unknown): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.error(error);
    },
  });
}

/**
 * One coding's decoder, as `fetch` decodes it; `undefined` for a coding
 * `fetch` leaves as sent. `deflate` is the zlib format by its name, but
 * servers also send raw deflate under it: the first byte tells them apart.
 */
type Decode = (bytes: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions) => Promise<Buffer>;

function promised(
  run: (bytes: Buffer, options: object, done: (error: Error | null, out: Buffer) => void) => void,
): Decode {
  return (bytes, options) =>
    new Promise((resolve, reject) => run(bytes, options, (error, out) => (error ? reject(error) : resolve(out))));
}

const gunzip = promised(zlib.gunzip);
const inflate = promised(zlib.inflate);
const inflateRaw = promised(zlib.inflateRaw);
const brotli = promised(zlib.brotliDecompress);
/** Node.js 22.15 and later have zstd, which their `fetch` decodes; Node.js 20 has neither. */
const { zstdDecompress } = zlib as { zstdDecompress?: Parameters<typeof promised>[0] };
const zstd = zstdDecompress === undefined ? undefined : promised(zstdDecompress);

function decoderFor(coding: string): Decode | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return gunzip;
    case 'deflate':
      return (bytes, options) => ((bytes[0]! & 0x0f) === 0x08 ? inflate : inflateRaw)(bytes, options);
    case 'br':
      return brotli;
    case 'zstd':
      return zstd;
    default:
      return undefined;
  }
}

/**
 * The decoders of a `Content-Encoding`, last coding applied first; none at
 * all when any coding is one `fetch` does not decode (it then hands the body
 * over as sent).
 */
function decodersOf(contentEncoding: string | undefined): Decode[] | undefined {
  if (contentEncoding === undefined) return undefined;
  const decoders: Decode[] = [];
  for (const coding of contentEncoding.toLowerCase().split(',')) {
    const name = coding.trim();
    if (name === '' || name === 'identity') continue;
    const decoder = decoderFor(name);
    if (decoder === undefined) return undefined;
    decoders.unshift(decoder);
  }
  return decoders.length === 0 ? undefined : decoders;
}

/**
 * The body's bytes, at most `limit` of them: past it the stream is destroyed
 * (its connection closed) and the promise rejects with the cap's error.
 * Rejects with the stream's error when it breaks off.
 */
function readAll(stream: Readable, limit: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      cleanup();
      // Listening still, so the error destroy() may emit is not an uncaught exception.
      stream.on('error', () => undefined);
      stream.destroy();
      reject(bodyTooLarge(limit));
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: unknown) => {
      cleanup();
      reject(error);
    };
    // Destroyed without an error (the dispatcher closed it): the body is incomplete.
    const onClose = () => onError(new TypeError('terminated'));
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.once('close', onClose);
  });
}

/** The decoded body, each coding's output held to `limit` bytes. */
async function decoded(bytes: Buffer, decoders: Decode[], limit: number): Promise<Buffer> {
  let body = bytes;
  for (const decode of decoders) {
    try {
      body = await decode(body, { maxOutputLength: limit + 1 });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw bodyTooLarge(limit);
      throw error;
    }
    if (body.length > limit) throw bodyTooLarge(limit);
  }
  return body;
}

/** A `Headers`-shaped source as a plain record for undici, names lower-cased. */
function headerRecord(source: HeadersInit | undefined, fallback: Headers): Record<string, string> {
  if (source === undefined) return Object.fromEntries(fallback);
  if (source instanceof Headers || Array.isArray(source)) return Object.fromEntries(new Headers(source));
  const record: Record<string, string> = {};
  for (const name of Object.keys(source)) record[name.toLowerCase()] = String(source[name]);
  return record;
}

/** What `fetch` asks for when the request does not say: the codings it decodes. */
function acceptedEncodings(protocol: string): string {
  // As Node's own fetch: br over TLS only.
  const base = protocol === 'https:' ? 'gzip, deflate, br' : 'gzip, deflate';
  return zstd === undefined ? base : `${base}, zstd`;
}

/** The response's headers, from undici's record of them (a repeated field is an array). */
function responseHeaders(raw: Record<string, string | string[] | undefined>): [string, string][] {
  const pairs: [string, string][] = [];
  // Own names only: a name on a polluted Object.prototype is not a header.
  for (const name of Object.keys(raw)) {
    const value = raw[name];
    if (typeof value === 'string') pairs.push([name, value]);
    else if (Array.isArray(value)) for (const item of value) pairs.push([name, item]);
  }
  return pairs;
}

/**
 * A `fetch` over undici's `request` on the global dispatcher. It follows no
 * redirect (a 3xx is answered as it came, as `redirect: 'manual'` answers
 * on Node.js), honours the init's or the `Request`'s signal until the body
 * is read, and rejects as `fetch` does: with the signal's reason on abort, a
 * `TypeError` when no response came. A response that arrived with a body
 * that broke off, could not be decoded or passed the cap resolves, with a
 * body whose read rejects.
 */
export function createNodeFetch(request: UndiciRequest): NodeFetch {
  const limit = MAX_RESPONSE_BODY_BYTES;
  return async (input, init = {}) => {
    const source = input instanceof Request ? input : new Request(input, init);
    const signal = init.signal ?? source.signal;
    if (signal?.aborted) throw abortReason(signal);
    const url = source.url;
    const protocol = url.slice(0, url.indexOf(':') + 1);
    if (protocol !== 'http:' && protocol !== 'https:')
      throw networkError(new Error(`unsupported protocol ${protocol}`));
    const method = init.method?.toUpperCase() ?? source.method;
    const headers = headerRecord(init.headers, source.headers);
    headers['accept-encoding'] ??= acceptedEncodings(protocol);
    headers.accept ??= '*/*';
    let body: string | Buffer | null;
    if (typeof init.body === 'string') {
      body = init.body;
    } else if (init.body !== undefined && init.body !== null) {
      // Any other body fetch takes, with the Content-Type fetch would give it (a form's boundary).
      const extracted = new Response(init.body);
      const type = extracted.headers.get('content-type');
      if (type !== null) headers['content-type'] ??= type;
      body = Buffer.from(await extracted.arrayBuffer());
    } else {
      body = source.body === null ? null : Buffer.from(await source.arrayBuffer());
    }

    let data: Dispatcher.ResponseData;
    try {
      data = await request(url, { method, headers, body, signal: signal ?? null });
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      throw networkError(error);
    }
    const { statusCode: status } = data;
    const pairs = responseHeaders(data.headers);
    if (status < 200 || status > 599) {
      data.body.destroy();
      throw networkError(new Error(`the server answered with status ${status}, which no Response can hold`));
    }
    let content: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null = null;
    if (method === 'HEAD' || NULL_BODY_STATUSES.has(status)) {
      data.body.resume();
    } else {
      try {
        const raw = await readAll(data.body, limit);
        const decoders = decodersOf(contentEncodingOf(data.headers));
        const bytes = decoders === undefined ? raw : await decoded(raw, decoders, limit);
        const { buffer } = bytes;
        // A view of the bytes read, not a copy; a Buffer is never on shared memory, but the types allow it.
        content =
          buffer instanceof ArrayBuffer
            ? new Uint8Array(buffer, bytes.byteOffset, bytes.byteLength)
            : new Uint8Array(bytes);
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        content = failingBody(error);
      }
    }
    return respond(content, status, data.statusText, pairs);
  };
}

/**
 * The `Response`; a status text it refuses (the parser lets through more
 * than its token rule) is dropped, as it is worth nothing to lunas.
 */
function respond(
  content: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null,
  status: number,
  statusText: string | undefined,
  headers: [string, string][],
): Response {
  try {
    return new Response(content, { status, statusText: statusText ?? '', headers });
  } catch {
    try {
      return new Response(content, { status, headers });
    } catch (error) {
      throw networkError(error);
    }
  }
}

function contentEncodingOf(raw: Record<string, string | string[] | undefined>): string | undefined {
  const value = Object.hasOwn(raw, 'content-encoding') ? raw['content-encoding'] : undefined;
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * Imports undici and builds the transport over its `request`. Node's own
 * `fetch` machinery is loaded first: it installs Node's own dispatcher as
 * the global one when none is set, which undici's entry would otherwise do
 * with an `Agent` of its own, changing what the merchant's `fetch` sends
 * through. Rejects when undici cannot be imported.
 */
export async function loadNodeFetch(): Promise<NodeFetch> {
  // Reading Response loads Node's fetch (and with it Node's dispatcher) if nothing has yet.
  if (typeof Response !== 'function') throw new Error('this Node.js has no global Response');
  const undici = (await import(/* webpackIgnore: true */ /* @vite-ignore */ UNDICI)) as typeof import('undici');
  return createNodeFetch(undici.request as UndiciRequest);
}

/** A variable, so that no bundler of a Worker or a browser page packs undici. */
const UNDICI = 'undici';
