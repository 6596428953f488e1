/**
 * The node:http transport of {@link startSandbox}: a server on 127.0.0.1 that
 * hands each request to the gateway. Loaded only when a sandbox starts
 * listening, so `lunas-sdk/testing` imports on runtimes without node:http.
 *
 * It answers only requests addressed to its loopback names: a web page the
 * developer visits can make its own name resolve to 127.0.0.1 (DNS
 * rebinding), and would then read and press the payment pages as if it were
 * the sandbox's own origin; its requests carry that name in `Host`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Connection, Gateway } from './gateway.js';
import type { WireResponse } from './http.js';

export const HOST = '127.0.0.1';

const firstHeader = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/** Reads the body up to `limit` bytes; past 16 times the limit the connection is cut rather than drained. */
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > 16 * limit) req.destroy();
    });
    req.on('end', () => resolve(size > limit ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
  });
}

/**
 * The `Host` values naming this server: its loopback names at its port (and
 * without one at port 80, where clients leave it out). Lower case: names are
 * compared case-insensitively.
 */
function loopbackHosts(port: number): Set<string> {
  const names = [HOST, 'localhost', '[::1]'];
  const hosts = names.map((name) => `${name}:${port}`);
  return new Set(port === 80 ? [...hosts, ...names] : hosts);
}

/**
 * The answer to a request for another name: 421 (Misdirected Request) says
 * this server does not serve that authority, which is the case, where 403
 * would say the request was understood and refused. Plain text, and it never
 * repeats the Host it was sent.
 */
function misdirected(port: number): WireResponse {
  const text =
    `421 Misdirected Request: this lunas sandbox answers only at http://${HOST}:${port}, ` +
    `http://localhost:${port} or http://[::1]:${port}; the request's Host header named another host.\n`;
  return { status: 421, headers: { 'content-type': 'text/plain; charset=utf-8' }, text };
}

function writeResponse(res: ServerResponse, { status, headers, text }: WireResponse): void {
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The sandbox's HTTP server on {@link HOST}. */
export class SandboxServer {
  readonly #server: Server;
  #closing: Promise<void> | undefined;
  /** The Host values answered, known once listening. */
  #hosts = new Set<string>();
  #port = 0;

  constructor(gateway: Gateway) {
    this.#server = createServer((req, res) => {
      // Before the gateway, which records every request: a misdirected one leaves no trace.
      const host = req.headers.host?.toLowerCase() ?? '';
      if (!this.#hosts.has(host)) {
        writeResponse(res, misdirected(this.#port));
        return;
      }
      void gateway.handle(
        {
          method: req.method ?? 'GET',
          target: req.url ?? '/',
          authorization: req.headers.authorization,
          idempotencyKey: firstHeader(req.headers['idempotency-key']),
          traceparent: firstHeader(req.headers.traceparent),
          tracestate: firstHeader(req.headers.tracestate),
          contentType: req.headers['content-type'],
          site: {
            // Through URL, which drops `:80` as a browser's Origin does.
            addressedTo: new URL(`http://${host}`).origin,
            origin: req.headers.origin,
            fetchSite: firstHeader(req.headers['sec-fetch-site']),
          },
        },
        this.#connection(req, res),
      );
    });
  }

  /** Starts listening; resolves to the port, or rejects with the listen error (`EADDRINUSE`). */
  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen({ port, host: HOST }, () => {
        this.#server.off('error', reject);
        this.#port = (this.#server.address() as AddressInfo).port;
        this.#hosts = loopbackHosts(this.#port);
        resolve(this.#port);
      });
    });
  }

  /** Stops listening and destroys every connection, hung ones included. */
  close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
    return this.#closing;
  }

  #connection(req: IncomingMessage, res: ServerResponse): Connection {
    return {
      readBody: (limit) => readBody(req, limit),
      respond: (response) => writeResponse(res, response),
      // A hung request needs nothing: its socket stays open until the client leaves or close().
      cut: () => req.socket.destroy(),
    };
  }
}
