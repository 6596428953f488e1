import type { IncomingMessage, ServerResponse } from 'node:http';

/** A response the service decided on, written by the server (or withheld by a fault). */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Largest accepted request body. */
const BODY_LIMIT = 1024 * 1024;
/** Past this the rest of an oversized body is not even drained: the connection is cut. */
const DRAIN_LIMIT = 16 * BODY_LIMIT;

/**
 * Splits a raw request target. The path is kept exactly as sent: no
 * dot-segment removal and no percent-decoding, so `..%2F` can never climb out
 * of a collection.
 */
export function splitTarget(target: string): { path: string; query: Record<string, string> } {
  const mark = target.indexOf('?');
  const path = mark === -1 ? target : target.slice(0, mark);
  const query: Record<string, string> = {};
  if (mark !== -1) {
    for (const [name, value] of new URLSearchParams(target.slice(mark + 1))) {
      if (!(name in query)) query[name] = value;
    }
  }
  return { path, query };
}

/** The request body, or `'too-large'` past {@link BODY_LIMIT}. The excess is drained, not kept. */
export function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
      else if (size > DRAIN_LIMIT) req.destroy();
    });
    req.on('end', () => resolve(size > BODY_LIMIT ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
  });
}

export function writeReply(res: ServerResponse, reply: Reply, requestId: string | undefined): void {
  const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const headers: Record<string, string | number> = {
    'content-type': JSON_CONTENT_TYPE,
    ...(requestId === undefined ? {} : { 'x-request-id': requestId }),
  };
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name.toLowerCase()] = value;
  headers['content-length'] = Buffer.byteLength(text);
  res.writeHead(reply.status, headers);
  res.end(text);
}

export const errorReply = (status: number, message: string, headers?: Record<string, string>): Reply => ({
  status,
  body: { status: 'error', message },
  ...(headers ? { headers } : {}),
});

export const failReply = (status: number, data: Record<string, unknown>): Reply => ({
  status,
  body: { status: 'fail', data },
});
