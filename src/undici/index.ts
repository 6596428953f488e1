/**
 * `lunas-sdk/undici`: {@link undiciFetch}, a `fetch` for Node.js over
 * undici's `request` on the process's global dispatcher, for merchants who
 * send many calls at once. Pass it as the client's `fetch`:
 *
 * @example
 * ```ts
 * import { Client } from 'lunas-sdk';
 * import { undiciFetch } from 'lunas-sdk/undici';
 *
 * const client = new Client({ fetch: undiciFetch });
 * ```
 *
 * It needs the `undici` package beside lunas-sdk (an optional peer
 * dependency: `npm install undici@7`); a plain install of lunas-sdk never
 * pulls it. See [Configuration](../../docs/configuration.md#sending-through-undici).
 * @module lunas-sdk/undici
 */
import { pipeline, type Readable, type Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import type { Dispatcher } from 'undici';

/**
 * undici, loading from the moment this entry is imported. Node's own `fetch`
 * machinery is loaded first (reading `Response` loads it): it installs
 * Node's dispatcher as the global one when none is set, which undici's entry
 * would otherwise do with an `Agent` of its own, changing what the
 * merchant's global `fetch` sends through.
 */
const undiciLoaded = loadUndici();

async function loadUndici(): Promise<typeof import('undici')> {
  if (typeof Response !== 'function') throw new Error('lunas-sdk/undici needs Node.js 20.18.1 or later');
  try {
    return await import('undici');
  } catch (error) {
    throw new Error('lunas-sdk/undici needs the undici package beside lunas-sdk: npm install undici@7', {
      cause: error,
    });
  }
}
// Reported by the first call, not as an unhandled rejection of the import.
undiciLoaded.catch(() => undefined);

/** Statuses whose response has no body, which `Response` refuses one for. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` over undici's documented `request` on the process's global
 * dispatcher, the one global `fetch` sends through on Node.js: the
 * merchant's `setGlobalDispatcher` (a proxy, undici's `MockAgent`, TLS
 * settings), Node's proxy from the environment and `NODE_EXTRA_CA_CERTS`
 * apply to it as to `fetch`, and it shares `fetch`'s connection pool.
 *
 * What `fetch` adds over a dispatcher, it does too: `Accept-Encoding`, and
 * decoding what `fetch` decodes (gzip, deflate with or without its zlib
 * wrapper, br, and zstd where Node.js has it), stacked codings included.
 * The body is decoded as it is read, never ahead of the reader: a reader that
 * stops (lunas, at its cap on a response, 8 MiB counted after decoding)
 * stops the decoding and closes the connection. It skips what a server-side
 * SDK does not need from `fetch` (CORS, the Fetch standard's
 * `sec-fetch-mode`, its per-chunk web stream machinery), which is where it
 * is faster with many calls in flight.
 *
 * As `fetch` on Node.js, it honours the signal until the body is read, and
 * rejects with the signal's reason on abort and with a `TypeError` (its
 * `cause` saying why) when no response came. It follows no redirect,
 * whatever `redirect` says: a 3xx is answered as it came, as
 * `redirect: 'manual'` answers on Node.js, which is what lunas asks for.
 *
 * It does not go through global `fetch`, so what replaces or wraps global
 * `fetch` does not see it: msw and nock in a test suite, an APM that wraps
 * `fetch`. Mock it with undici's `MockAgent` (through `setGlobalDispatcher`),
 * or pass no `fetch` in tests.
 *
 * @param input - A URL, a string, or a `Request`.
 * @param init - As `fetch`'s: `method`, `headers`, `body`, `signal`.
 * @returns A real `Response`.
 * @throws A `TypeError` when no response came (refused, reset, a protocol
 *   other than http and https), or the signal's reason when it aborts.
 * @category Transport
 */
export async function undiciFetch(input: Request | string | URL, init: RequestInit = {}): Promise<Response> {
  const source = input instanceof Request ? input : new Request(input, init);
  const signal = init.signal ?? source.signal;
  if (signal?.aborted) throw abortReason(signal);
  const url = source.url;
  const protocol = url.slice(0, url.indexOf(':') + 1);
  if (protocol !== 'http:' && protocol !== 'https:') throw networkError(new Error(`unsupported protocol ${protocol}`));
  const method = init.method?.toUpperCase() ?? source.method;
  const headers = headerRecord(init.headers, source.headers);
  headers['accept-encoding'] ??= acceptedEncodings(protocol);
  headers.accept ??= '*/*';
  const body = await requestBody(init, source, headers);

  const { request } = await undiciLoaded;
  let data: Dispatcher.ResponseData;
  try {
    data = await request(url, { method: method as Dispatcher.HttpMethod, headers, body, signal: signal ?? null });
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    throw networkError(error);
  }
  const { statusCode: status } = data;
  if (status < 200 || status > 599) {
    data.body.destroy();
    throw networkError(new Error(`the server answered with status ${status}, which no Response can hold`));
  }
  let content: ReadableStream<Uint8Array> | null = null;
  if (method === 'HEAD' || NULL_BODY_STATUSES.has(status)) {
    data.body.resume();
  } else {
    try {
      content = webStream(await decodedBody(data.body, contentEncodingOf(data.headers)));
    } catch (error) {
      // The body broke off before its first byte: a response came, its body did not.
      if (signal?.aborted) throw abortReason(signal);
      content = failingBody(error);
    }
  }
  return respond(content, status, data.statusText, responseHeaders(data.headers));
}

/** How `fetch` rejects when no response came. */
function networkError(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** How `fetch` rejects when its signal aborts: with the signal's reason. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** A body whose read rejects with `error`. */
function failingBody(error: unknown): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.error(error);
    },
  });
}

/**
 * The request's body for undici: a string as it is (lunas's JSON), any other
 * body `fetch` takes read whole, with the `Content-Type` `fetch` would give
 * it (a form's boundary).
 */
async function requestBody(init: RequestInit, source: Request, headers: Record<string, string>) {
  if (typeof init.body === 'string') return init.body;
  if (init.body !== undefined && init.body !== null) {
    const extracted = new Response(init.body);
    const type = extracted.headers.get('content-type');
    if (type !== null) headers['content-type'] ??= type;
    return Buffer.from(await extracted.arrayBuffer());
  }
  return source.body === null ? null : Buffer.from(await source.arrayBuffer());
}

/** A `Headers`-shaped source as a plain record for undici, names lower-cased. */
function headerRecord(source: HeadersInit | undefined, fallback: Headers): Record<string, string> {
  if (source === undefined) return Object.fromEntries(fallback);
  if (source instanceof Headers || Array.isArray(source)) return Object.fromEntries(new Headers(source));
  const record: Record<string, string> = {};
  for (const name of Object.keys(source)) record[name.toLowerCase()] = String(source[name]);
  return record;
}

/** Node.js 22.15 and later have zstd, which their `fetch` decodes; Node.js 20 has neither. */
const { createZstdDecompress } = zlib as { createZstdDecompress?: () => Transform };

/** What `fetch` asks for when the request does not say: the codings it decodes. */
function acceptedEncodings(protocol: string): string {
  // As Node's own fetch: br over TLS only.
  const base = protocol === 'https:' ? 'gzip, deflate, br' : 'gzip, deflate';
  return createZstdDecompress === undefined ? base : `${base}, zstd`;
}

/** Lenient at the end, as `fetch` is: a body cut short after its last full block still reads. */
const ZLIB_OPTIONS = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_OPTIONS = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

/** One coding's decoder, as `fetch` decodes it; `undefined` for a coding `fetch` leaves as sent. */
function decoderFor(coding: string): ((firstByte: number | undefined) => Transform) | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return () => zlib.createGunzip(ZLIB_OPTIONS);
    case 'deflate':
      return inflate;
    case 'br':
      return () => zlib.createBrotliDecompress(BROTLI_OPTIONS);
    case 'zstd':
      return createZstdDecompress;
    default:
      return undefined;
  }
}

/**
 * `deflate` is the zlib format by its name, but servers also send raw
 * deflate under it: the first byte tells them apart.
 */
const inflate = (first: number | undefined) =>
  first !== undefined && (first & 0x0f) !== 0x08
    ? zlib.createInflateRaw(ZLIB_OPTIONS)
    : zlib.createInflate(ZLIB_OPTIONS);

/**
 * The body as it is read, through the decoders of its `Content-Encoding`
 * (the last coding applied first); as sent when any coding is one `fetch`
 * does not decode, as `fetch` hands it over. Each stage decodes only as far
 * as its reader reads (zlib's streams hold to their buffer), so a small body
 * that inflates to gigabytes costs what the reader takes of it. A broken
 * stage, or a reader that stops, ends every stage and the connection.
 */
async function decodedBody(body: Readable, contentEncoding: string | undefined): Promise<Readable> {
  if (contentEncoding === undefined) return body;
  const decoders: ((firstByte: number | undefined) => Transform)[] = [];
  for (const coding of contentEncoding.toLowerCase().split(',')) {
    const name = coding.trim();
    if (name === '' || name === 'identity') continue;
    const decoder = decoderFor(name);
    if (decoder === undefined) return body;
    decoders.unshift(decoder);
  }
  let decoded = body;
  for (const decoder of decoders) {
    // Only deflate's decoder reads the first byte; the others need not wait for it.
    const first = decoder === inflate ? await firstByte(decoded) : undefined;
    decoded = pipeline(decoded, decoder(first), ignore);
  }
  return decoded;
}

const ignore = () => undefined;

/** The first byte of `stream`, left in it; `undefined` when it ends empty. */
function firstByte(stream: Readable): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const onReadable = () => {
      cleanup();
      const chunk = stream.read() as Buffer | null;
      if (chunk === null) return resolve(undefined);
      stream.unshift(chunk);
      resolve(chunk[0]);
    };
    const onError = (error: unknown) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      stream.off('readable', onReadable);
      stream.off('error', onError);
    };
    stream.on('readable', onReadable);
    stream.on('error', onError);
  });
}

/**
 * A web stream pulled from `body`: a chunk is read (and decoded) only when
 * the reader asks for one, and cancelling destroys `body`, closing its
 * connection. A body destroyed before its end (the dispatcher closed it)
 * errors the stream, as `fetch` does.
 */
function webStream(body: Readable): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
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

function contentEncodingOf(raw: Record<string, string | string[] | undefined>): string | undefined {
  const value = Object.hasOwn(raw, 'content-encoding') ? raw['content-encoding'] : undefined;
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * The `Response`; a status text it refuses (the parser lets through more
 * than its token rule) is dropped, as it is worth nothing to lunas.
 */
function respond(
  content: ReadableStream<Uint8Array> | null,
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
