/**
 * The wire as both transports share it: a reply the service decided on, the
 * response it becomes, the request target split, the body limit. Nothing here
 * needs Node.js, so the in-process sandbox runs wherever `fetch` does.
 */
import { errorEnvelope } from '../service/envelopes.js';

/** A response the service decided on, written by a transport (or withheld by a fault). */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * The reply that is sent instead, once it is known: an answer that waits
   * (the control surface's wait for webhooks) travels through the service's
   * synchronous router as this, and the gateway awaits it. Made by
   * {@link deferredReply}; the service's own replies never have it.
   */
  later?: Promise<Reply>;
}

/** A response as a transport sends it: header names in lower case, the body as text. */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Largest accepted request body. */
export const BODY_LIMIT = 1024 * 1024;

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

/** The response a reply becomes: JSON unless its body is text already, with the request's id. */
export function toWire(reply: Reply, requestId: string | undefined): WireResponse {
  const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const headers: Record<string, string> = {
    'content-type': JSON_CONTENT_TYPE,
    ...(requestId === undefined ? {} : { 'x-request-id': requestId }),
  };
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name.toLowerCase()] = value;
  return { status: reply.status, headers, text };
}

/** A reply known only later: its own status and body are never sent (see {@link Reply.later}). */
export const deferredReply = (later: Promise<Reply>): Reply => ({ status: 202, body: null, later });

export const errorReply = (status: number, message: string, headers?: Record<string, string>): Reply => ({
  status,
  body: errorEnvelope(message),
  ...(headers ? { headers } : {}),
});

export const failReply = (status: number, data: Record<string, unknown>): Reply => ({
  status,
  body: { status: 'fail', data },
});
