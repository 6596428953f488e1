// A minimal loopback stand-in for the payments service: just the two charge
// reads the bench needs, with the spec's pagination rules and auth check, so a
// wrong request from the SDK or the baseline fails loudly instead of timing well.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_KEY, listBody, retrieveBody } from './fixtures.js';
import { compare, type Comparison } from './stats.js';

export interface BenchServer {
  url: string;
  /** Requests served so far: lets a measurement check both sides did the same work. */
  requests(): number;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Size of the virtual charge collection; pages are built when asked for. */
  total: number;
  /** Delay before each response, to model a network round trip. */
  latencyMs?: number;
  /**
   * The listen backlog: connections the kernel queues before the server
   * accepts them. Node.js's default of 511 is plenty for the rows with up to
   * 500 in flight; thousands of connections opened at once (measurement 10)
   * need more, or the kernel drops connection attempts and a client waits a
   * second to try again. Linux caps it at net.core.somaxconn (4096 on recent
   * kernels). The server itself takes any number of connections
   * (`maxConnections` is unset).
   */
  backlog?: number;
}

const LIST_PATH = '/v1/payments/charges';

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

function intParam(value: string | null, fallback: number): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isNaN(n) || n <= 0 ? fallback : n;
}

export async function startServer({ total, latencyMs = 0, backlog }: ServerOptions): Promise<BenchServer> {
  let requests = 0;
  const auth = `Bearer ${API_KEY}`;
  // Small collections keep their pages once built, so the timed rounds measure
  // the client, not page building; a million items stay lazy and uncached.
  const pages = total <= 10_000 ? new Map<string, string>() : undefined;
  const page = (n: number, size: number) => {
    const key = `${n}/${size}`;
    let body = pages?.get(key);
    if (body === undefined) {
      body = listBody(n, size, total);
      pages?.set(key, body);
    }
    return body;
  };

  const server = createServer((req, res) => {
    requests++;
    const url = new URL(req.url ?? '/', 'http://localhost');
    let status = 200;
    let body: string;
    if (req.headers.authorization !== auth) {
      status = 401;
      body = '{"status":"error","message":"Invalid or missing API key"}';
    } else if (req.method === 'GET' && url.pathname === LIST_PATH) {
      const pageSize = Math.min(100, intParam(url.searchParams.get('pagesize'), 10));
      body = page(intParam(url.searchParams.get('page'), 1), pageSize);
    } else if (req.method === 'GET' && url.pathname.startsWith(`${LIST_PATH}/`)) {
      body = retrieveBody(decodeURIComponent(url.pathname.slice(LIST_PATH.length + 1)));
    } else {
      status = 404;
      body = '{"status":"fail","data":{"message":"Not found"}}';
    }
    if (latencyMs > 0) setTimeout(send, latencyMs, res, status, body);
    else send(res, status, body);
  });

  const listen = backlog === undefined ? { port: 0, host: '127.0.0.1' } : { port: 0, host: '127.0.0.1', backlog };
  await new Promise<void>((resolve) => server.listen(listen, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

export type ServedComparison = Comparison & { requests: { subject: number; baseline: number } };

/**
 * `compare`, also recording how many requests one round of each side made, so
 * a ratio between sides that did different work (an extra page, a retry) shows.
 */
export async function compareOn(
  server: BenchServer,
  rounds: number,
  subject: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  references: Record<string, () => Promise<unknown>> = {},
): Promise<ServedComparison> {
  const requests: Record<string, number> = {};
  const count = (side: string, run: () => Promise<unknown>) => async () => {
    const before = server.requests();
    await run();
    requests[side] = server.requests() - before;
  };
  const counted = Object.fromEntries(Object.entries(references).map(([name, run]) => [name, count(name, run)]));
  const result = await compare(rounds, count('subject', subject), count('baseline', baseline), counted);
  for (const name of Object.keys(references)) {
    if (requests[name] !== requests.baseline) {
      throw new Error(`bench reference ${name}: ${requests[name]} requests, the baseline made ${requests.baseline}`);
    }
  }
  return { ...result, requests: { subject: requests.subject!, baseline: requests.baseline! } };
}
