// Child of measurement 10 (batch.ts), run with --expose-gc, one per side, variant
// and round: makes one client, sends `warmups` retrieves one after another,
// collects, then starts `calls` retrieves at once with Promise.all and reports
// the batch's wall time and heap as one JSON line on stdout. The server lives
// in the parent, so only this side's allocations are in this heap.
//
// This file imports only the side it times (not clients.ts, which loads every
// library), so the sides are built here: the same requests as clients.ts's
// sdkClient, bareGet, openaiGetter and stripeGetter (keep them in step). lunas
// goes through its public API only, as built in dist/ (ESM): by default
// (global fetch), and with `fetch: undiciFetch` from lunas-sdk/undici.
import { performance } from 'node:perf_hooks';
import type * as Lunas from 'lunas-sdk';
import type * as LunasUndici from 'lunas-sdk/undici';
import { API_KEY, chargeId } from './fixtures.js';

export type BatchSide = 'lunas' | 'lunasUndici' | 'fetch' | 'openai' | 'stripe';

/** What one child reports; heap figures in bytes. */
export interface BatchChildResult {
  side: BatchSide;
  warmups: number;
  calls: number;
  wallMs: number;
  /** heapUsed after the warm-up calls and a full GC. */
  baselineBytes: number;
  /**
   * The largest heapUsed sampled during the batch: every 5 ms, at every 100th
   * answer, once all calls are started and once they have all settled.
   */
  peakBytes: number;
  samples: number;
}

type Retrieve = (id: string) => Promise<unknown>;

const path = (id: string) => `/v1/payments/charges/${encodeURIComponent(id)}`;

const retrievers: Record<BatchSide, (baseURL: string) => Promise<Retrieve>> = {
  async lunas(baseURL) {
    const dist = new URL('../dist/index.js', import.meta.url).href;
    const { Client } = (await import(dist)) as typeof Lunas;
    const client = new Client({ apiKey: API_KEY, baseURL });
    return (id) => client.charges.retrieve(id);
  },
  async lunasUndici(baseURL) {
    const dist = (file: string) => new URL(`../dist/${file}`, import.meta.url).href;
    const { Client } = (await import(dist('index.js'))) as typeof Lunas;
    const { undiciFetch } = (await import(dist('undici/index.js'))) as typeof LunasUndici;
    const client = new Client({ apiKey: API_KEY, baseURL, fetch: undiciFetch });
    return (id) => client.charges.retrieve(id);
  },
  async fetch(baseURL) {
    // clients.ts's bareGet: GET, status check, JSON.parse.
    const headers = { authorization: `Bearer ${API_KEY}` };
    return async (id) => {
      const res = await fetch(`${baseURL}${path(id)}`, { headers });
      if (!res.ok) throw new Error(`bench batch baseline: ${res.status} for ${id}`);
      return JSON.parse(await res.text()) as unknown;
    };
  },
  async openai(baseURL) {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: API_KEY, baseURL });
    return (id) => client.get(path(id));
  },
  async stripe(baseURL) {
    const { default: Stripe } = await import('stripe');
    const { hostname, port } = new URL(baseURL);
    const client = new Stripe(API_KEY, {
      host: hostname,
      port,
      protocol: 'http',
      maxNetworkRetries: 2,
      telemetry: false,
    });
    return async (id) => {
      const body = await client.rawRequest('GET', path(id));
      const status = body.lastResponse.statusCode;
      if (status !== 200) throw new Error(`bench batch stripe reference: ${status} for ${id}`);
      return body;
    };
  },
};

async function main(): Promise<BatchChildResult> {
  const [url, sideArg, warmupsArg, callsArg] = process.argv.slice(2);
  const gc = globalThis.gc;
  const side = Object.keys(retrievers).find((s): s is BatchSide => s === sideArg);
  if (!url || !side || !gc) {
    throw new Error('usage: node --expose-gc --import tsx bench/batch-child.ts <url> <side> <warmups> <calls>');
  }
  const warmups = Number(warmupsArg);
  const calls = Number(callsArg);
  const retrieve = await retrievers[side](url);
  const ids = Array.from({ length: calls }, (_, i) => chargeId(i + 1));

  // The warm-up calls load whatever a side loads lazily and open the first connection.
  for (let i = 0; i < warmups; i++) await retrieve(chargeId(calls + i + 1));
  gc();
  gc();
  const heapUsed = () => process.memoryUsage().heapUsed;
  const baselineBytes = heapUsed();

  let peakBytes = baselineBytes;
  let samples = 0;
  const sample = () => {
    samples++;
    const used = heapUsed();
    if (used > peakBytes) peakBytes = used;
  };
  // A timer alone samples too seldom: with thousands of sockets ready at once, one
  // turn of the event loop can take a second on a slow machine. So also every
  // 100th answer (the wrapper's promise, the same on every side, is in the figure).
  const timer = setInterval(sample, 5);
  let settled = 0;
  const counted = (answer: unknown) => {
    if (++settled % 100 === 0) sample();
    return answer;
  };
  const start = performance.now();
  const pending = ids.map((id) => retrieve(id).then(counted));
  sample(); // every call started: their requests, promises and timers are all alive
  const answers = await Promise.all(pending);
  const wallMs = performance.now() - start;
  sample(); // every answer held at once
  clearInterval(timer);
  if (answers.length !== calls) throw new Error(`bench batch: ${answers.length} answers, expected ${calls}`);
  return { side, warmups, calls, wallMs, baselineBytes, peakBytes, samples };
}

console.log(JSON.stringify(await main()));
// Keep-alive sockets may hold the loop open; the figures are out (stdout to a pipe is synchronous on Linux).
process.exit(0);
