/**
 * The node:http transport of {@link startSandbox}: a server on 127.0.0.1 that
 * hands each request to the gateway. Loaded only when a sandbox starts
 * listening, so `lunas-sdk/testing` imports on runtimes without node:http.
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

function writeResponse(res: ServerResponse, { status, headers, text }: WireResponse): void {
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The sandbox's HTTP server on {@link HOST}. */
export class SandboxServer {
  readonly #server: Server;
  #closing: Promise<void> | undefined;

  constructor(gateway: Gateway) {
    this.#server = createServer((req, res) => {
      void gateway.handle(
        {
          method: req.method ?? 'GET',
          target: req.url ?? '/',
          authorization: req.headers.authorization,
          idempotencyKey: firstHeader(req.headers['idempotency-key']),
          contentType: req.headers['content-type'],
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
        resolve((this.#server.address() as AddressInfo).port);
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
