// A driver for profiling lunas's own work (docs/performance.md, "Profiles"):
// `calls` retrieves at `inFlight` at a time (in waves, as retrieve.ts), by one
// side only, against a bench server in another process, so a CPU profile holds
// the client alone:
//
//   npx tsx bench/profile.ts serve                 # prints the server's URL
//   node --cpu-prof --import tsx bench/profile.ts <url> lunas 100 20000
//
// With `mem` for the URL, every side sends through a fetch that answers from
// memory (it builds the Request fetch would, then a Response of the bench
// server's body), so the figure and the profile hold lunas's and ky's own
// work and nothing of a socket, the server or another process:
//
//   node --import tsx bench/profile.ts mem lunas 100 50000
//
// Sides: lunas (default, global fetch), lunasUnlimited (maxConcurrentRequests: Infinity), lunasUndici, ky (ky alone on global
// fetch, lunas's headers), kyUndici, fetch (bare). Prints the wall and CPU µs per call.
import { performance } from 'node:perf_hooks';
import { bareGet, chargeUrl, kyGetter, sdkClient, undiciFetch } from './clients.js';
import { chargeId, retrieveBody } from './fixtures.js';
import { startServer } from './server.js';

const [url, side = 'lunas', inFlightArg = '100', callsArg = '20000'] = process.argv.slice(2);
if (url === 'serve') {
  const server = await startServer({ total: 10_000, backlog: 4_096 });
  console.log(server.url);
} else if (url) {
  if (url === 'mem') {
    const memory = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const id = decodeURIComponent(request.url.slice(request.url.lastIndexOf('/') + 1));
      const body = retrieveBody(id);
      const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
      return new Response(body, { status: 200, headers });
    };
    globalThis.fetch = memory as typeof fetch;
  }
  const base = url === 'mem' ? 'http://127.0.0.1:9' : url;
  const path = (id: string) => `v1/payments/charges/${encodeURIComponent(id)}`;
  const make: Record<string, () => (id: string) => Promise<unknown>> = {
    lunas: () => {
      const client = sdkClient(base);
      return (id) => client.charges.retrieve(id);
    },
    lunasUnlimited: () => {
      const client = sdkClient(base, { maxConcurrentRequests: Infinity });
      return (id) => client.charges.retrieve(id);
    },
    lunasUndici: () => {
      const client = sdkClient(base, { fetch: undiciFetch });
      return (id) => client.charges.retrieve(id);
    },
    ky: () => {
      const get = kyGetter(base);
      return (id) => get(path(id));
    },
    kyUndici: () => {
      const get = kyGetter(base, undiciFetch);
      return (id) => get(path(id));
    },
    fetch: () => (id) => bareGet(chargeUrl(base, id)),
  };
  const retrieve = make[side]?.();
  if (!retrieve) throw new Error(`bench profile: no side ${side}`);
  const inFlight = Number(inFlightArg);
  const calls = Number(callsArg);
  const wave = (n: number) => Promise.all(Array.from({ length: inFlight }, (_, j) => retrieve(chargeId(n + j + 1))));
  for (let i = 0; i < 2_000; i += inFlight) await wave(i); // warm-up
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < calls; i += inFlight) await wave(i % 5_000);
  const us = ((performance.now() - start) * 1000) / calls;
  const { user, system } = process.cpuUsage(cpu);
  const cpuUs = (user + system) / calls;
  console.log(`${side} at ${inFlight} in flight: ${us.toFixed(1)} µs a call, ${cpuUs.toFixed(1)} µs of CPU`);
  process.exit(0);
} else {
  throw new Error('usage: bench/profile.ts serve | <url> <side> <inFlight> <calls>');
}
