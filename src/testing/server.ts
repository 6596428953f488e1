/**
 * The HTTP transport: records each request, lets an armed fault act the way
 * the infrastructure in front of a service would, and otherwise hands the
 * request to the service.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Fault, FaultQueue } from './faults.js';
import { errorReply, readBody, splitTarget, writeReply } from './http.js';
import type { IdSource } from './ids.js';
import { serve, type ServiceState } from './routes.js';
import type { RecordedRequest } from './types.js';

export const HOST = '127.0.0.1';

/** What a `malformed` fault answers: JSON cut off mid-value. */
const TRUNCATED_JSON = '{"status":"succ';

/** What the transport serves with: the key it accepts, the service's state, faults, the request log. */
interface TransportOptions {
  apiKey: string;
  ids: IdSource;
  state: ServiceState;
  faults: FaultQueue;
  requests: RecordedRequest[];
}

const firstHeader = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

function proxyErrorPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

/** The sandbox's HTTP server on {@link HOST}. */
export class SandboxServer {
  readonly #options: TransportOptions;
  readonly #server: Server;
  /** Pending `delay` faults, released unprocessed when the sandbox closes. */
  readonly #sleepers = new Set<() => void>();
  #closing: Promise<void> | undefined;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch(() => {
        if (!res.headersSent) writeReply(res, errorReply(500, 'Internal sandbox error'), undefined);
        else res.destroy();
      });
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
      for (const wake of this.#sleepers) wake();
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
    return this.#closing;
  }

  #isAuthorized(header: string | undefined): boolean {
    const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
    return match?.[1] === this.#options.apiKey;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { faults, requests, state, ids } = this.#options;
    const requestId = ids.next('req_');
    const method = req.method ?? 'GET';
    const { path, query } = splitTarget(req.url ?? '/');
    const idempotencyKey = firstHeader(req.headers['idempotency-key']) || undefined;
    const authorized = this.#isAuthorized(req.headers.authorization);
    requests.push({ method, path, query, ...(idempotencyKey ? { idempotencyKey } : {}), authorized, at: new Date() });

    const fault = faults.take(method, path);
    if (fault && this.#answeredByFault(fault, req, res, requestId)) return;

    let body: Buffer | 'too-large';
    try {
      body = await readBody(req);
    } catch {
      return; // The client went away mid-body: there is nothing to process.
    }
    if (fault?.kind === 'delay' && !(await this.#sleep(fault.ms))) return;

    const reply = serve(
      { method, path, query, contentType: req.headers['content-type'], idempotencyKey, authorized, body },
      state,
    );
    if (fault?.kind === 'lost-response') {
      req.socket.destroy();
      return;
    }
    writeReply(res, reply, requestId);
  }

  /** Applies the faults that stand in front of the service; true when the request is finished with. */
  #answeredByFault(fault: Fault, req: IncomingMessage, res: ServerResponse, requestId: string): boolean {
    switch (fault.kind) {
      case 'status':
        writeReply(
          res,
          {
            status: fault.status,
            body: fault.body ?? { status: 'error', message: `Injected fault: HTTP ${fault.status}` },
            ...(fault.headers ? { headers: fault.headers } : {}),
          },
          requestId,
        );
        return true;
      case 'html': {
        const status = fault.status ?? 502;
        const page = proxyErrorPage(status);
        res.writeHead(status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(page) });
        res.end(page);
        return true;
      }
      case 'malformed':
        writeReply(res, { status: fault.status ?? 200, body: TRUNCATED_JSON }, requestId);
        return true;
      case 'hang':
        return true; // Never answered; the socket stays open until the client leaves or close().
      case 'drop':
        req.socket.destroy();
        return true;
      case 'delay':
      case 'lost-response':
        return false;
    }
  }

  /** Resolves true after `ms`, or false at once when the sandbox is closing. */
  #sleep(ms: number): Promise<boolean> {
    if (this.#closing) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#sleepers.delete(wake);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.#sleepers.delete(wake);
        resolve(true);
      }, ms);
      this.#sleepers.add(wake);
    });
  }
}
