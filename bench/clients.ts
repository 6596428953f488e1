// The sides of every comparison: the SDK, the least code that does the same
// request by hand, and the references timed beside them (ky alone on global
// fetch and on lunas-sdk/undici's undiciFetch, openai-node, stripe-node, an
// undici Pool, fetch with a timeout signal). All send the same URL and
// Authorization header.
import ky from 'ky';
import OpenAI from 'openai';
import Stripe from 'stripe';
import { Pool } from 'undici';
import type * as Lunas from 'lunas-sdk';
import type * as LunasUndici from 'lunas-sdk/undici';
import { ensureBuilt } from './bundle.js';
import { API_KEY } from './fixtures.js';

// lunas as npm ships it: dist/, built from src/ when older. Run from src/, tsx
// compiles it with esbuild's keepNames, which wraps every function lunas creates
// per call in a `__name` call that dist/ does not have (0.02 to 0.05 of a bare
// fetch on row 1, measured side by side); ky, openai-node and stripe-node are
// timed as published too. The types still come from src/ (tsconfig paths).
ensureBuilt();
const dist = (file: string) => new URL(`../dist/${file}`, import.meta.url).href;
const { Client, VERSION } = (await import(dist('index.js'))) as typeof Lunas;
const { undiciFetch } = (await import(dist('undici/index.js'))) as typeof LunasUndici;
type Client = Lunas.Client;
type ClientOptions = Lunas.ClientOptions;

export function sdkClient(baseURL: string, options: ClientOptions = {}): Client {
  return new Client({ apiKey: API_KEY, baseURL, ...options });
}

const headers = { authorization: `Bearer ${API_KEY}` };

/** GET and parse, nothing else: no validation, retries, timeout or error mapping. */
export async function bareGet(url: string, signal?: AbortSignal): Promise<{ data: unknown }> {
  const res = await fetch(url, signal ? { headers, signal } : { headers });
  // Checking the status keeps a broken server from looking fast; it costs nothing.
  if (!res.ok) throw new Error(`bench baseline: ${res.status} from ${url}`);
  return JSON.parse(await res.text()) as { data: unknown };
}

/**
 * `bareGet` with what any client honouring the contract's per-attempt timeout
 * adds: an AbortController whose signal goes with the request, and a timer.
 */
export async function timedGet(url: string, timeoutMs = 30_000): Promise<{ data: unknown }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await bareGet(url, controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

export function chargeUrl(baseURL: string, id: string): string {
  return `${baseURL}/v1/payments/charges/${encodeURIComponent(id)}`;
}

export function listUrl(baseURL: string, page: number, pageSize: number): string {
  return `${baseURL}/v1/payments/charges?page=${page}&pagesize=${pageSize}`;
}

/**
 * The headers lunas sends on a GET: ky's references send the same request,
 * since ky's cost grows with every header it copies (about 0.04 of a bare
 * fetch at 500 in flight for these two beside Authorization).
 */
const lunasHeaders = { accept: 'application/json', 'user-agent': `lunas/${VERSION}`, ...headers };

/**
 * The same GET through ky alone, configured as the SDK's transport configures
 * it (no retries, ky's timeout at the SDK's default of 30 s, statuses checked
 * here), with the headers lunas sends: what the contract's HTTP library costs
 * by itself, with no validation, body deadline or error mapping. The SDK
 * cannot be much faster than this, so it shows how much of a ratio is ours.
 */
export function kyGetter(
  baseURL: string,
  fetch?: typeof globalThis.fetch,
): (path: string) => Promise<{ data: unknown }> {
  const api = ky.create({
    prefixUrl: baseURL,
    retry: 0,
    timeout: 30_000,
    throwHttpErrors: false,
    headers: lunasHeaders,
    ...(fetch ? { fetch } : {}),
  });
  return async (path) => {
    const res = await api(path);
    if (!res.ok) throw new Error(`bench ky reference: ${res.status} from ${path}`);
    return JSON.parse(await res.text()) as { data: unknown };
  };
}

/**
 * The same GET through openai-node's raw `client.get()`: a mature SDK's
 * request path (its retries, timeout and headers) with no schema validation.
 * The budget puts lunas at or under it on the same endpoint.
 */
export function openaiGetter(baseURL: string): (path: string) => Promise<unknown> {
  const client = new OpenAI({ apiKey: API_KEY, baseURL });
  return (path) => client.get(path);
}

/**
 * The same GET through stripe-node's `rawRequest`: another mature SDK's request
 * path (its retries, timeout, auth and headers, and its JSON parsing) with no
 * schema validation. Unlike the other sides it sends over node:http (a
 * keep-alive `http.Agent`), not fetch. `rawRequest` takes no params on a GET
 * (it throws if given any), so the path carries everything. Retries are
 * openai-node's default of 2 (stripe-node's default too); telemetry is off, as
 * there is no Stripe to report to.
 */
export function stripeGetter(baseURL: string): (path: string) => Promise<unknown> {
  const { hostname, port } = new URL(baseURL);
  const client = new Stripe(API_KEY, {
    host: hostname,
    port,
    protocol: 'http',
    maxNetworkRetries: 2,
    telemetry: false,
  });
  return async (path) => {
    const body = (await client.rawRequest('GET', path)) as Stripe.Response<{ data: unknown }>;
    // rawRequest resolves any JSON body without an `error` field, a 404 or 401
    // from the bench server included: check the status, as the baseline does.
    const status = body.lastResponse.statusCode;
    if (status !== 200) throw new Error(`bench stripe reference: ${status} from ${path}`);
    return body;
  };
}

/** lunas-sdk/undici's `undiciFetch` as built: a fetch over undici's `request` on the global dispatcher. */
export { undiciFetch };

/**
 * The floor of an HTTP client on Node.js: an undici `Pool` of `connections`
 * to the bench server, its documented `request` and `body.text()`, the same
 * headers as bareGet; no fetch, no web streams, no Response.
 */
export function poolGetter(baseURL: string, connections = 500): (path: string) => Promise<{ data: unknown }> {
  const pool = new Pool(baseURL, { connections });
  return async (path) => {
    const { statusCode, body } = await pool.request({ method: 'GET', path, headers });
    const text = await body.text();
    if (statusCode !== 200) throw new Error(`bench pool floor: ${statusCode} from ${path}`);
    return JSON.parse(text) as { data: unknown };
  };
}
