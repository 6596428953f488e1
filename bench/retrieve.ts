// Measurements 1 and 3: the per-call overhead of `charges.retrieve`, one at a
// time and 100 in flight, against a bare fetch of the same URL. References
// timed in the same rounds: ky alone (the floor of a transport built on ky),
// openai-node's raw `client.get()` and stripe-node's `rawRequest` (over
// node:http) on the same endpoint, and, for 1, a bare fetch with a per-attempt
// timeout signal (the floor of any transport that honours the contract's timeout).
import {
  bareGet,
  chargeUrl,
  kyGetter,
  nodeTransport,
  openaiGetter,
  sdkClient,
  stripeGetter,
  timedGet,
} from './clients.js';
import { chargeId } from './fixtures.js';
import { compareOn, type BenchServer, type ServedComparison } from './server.js';

// 21 rounds: single rounds of one side range from 0.7 to 1.5 times its median on
// a quiet 2-vCPU machine, and with 11 rounds row 1's gap to ky over the same
// transport moved between 0.03 and 0.15 in five runs of the same code.
const ROUNDS = 21;

type Retrieve = (id: string) => Promise<unknown>;

async function retrievers(server: BenchServer) {
  const client = sdkClient(server.url);
  const ky = kyGetter(server.url);
  const transport = await nodeTransport();
  const kyNode = kyGetter(server.url, transport);
  // The standard path, which a caller's `fetch` takes: the default on Node.js is the Node transport.
  const sdkNode = sdkClient(server.url, { fetch: (input, init) => globalThis.fetch(input, init) });
  const openai = openaiGetter(server.url);
  const stripe = stripeGetter(server.url);
  return {
    sdk: ((id) => client.charges.retrieve(id)) satisfies Retrieve,
    bare: ((id) => bareGet(chargeUrl(server.url, id))) satisfies Retrieve,
    ky: ((id) => ky(`v1/payments/charges/${encodeURIComponent(id)}`)) satisfies Retrieve,
    kyNode: ((id) => kyNode(`v1/payments/charges/${encodeURIComponent(id)}`)) satisfies Retrieve,
    sdkNode: ((id) => sdkNode.charges.retrieve(id)) satisfies Retrieve,
    openai: ((id) => openai(`/v1/payments/charges/${encodeURIComponent(id)}`)) satisfies Retrieve,
    stripe: ((id) => stripe(`/v1/payments/charges/${encodeURIComponent(id)}`)) satisfies Retrieve,
    fetchWithTimeout: ((id) => timedGet(chargeUrl(server.url, id))) satisfies Retrieve,
  };
}

export async function sequentialRetrieve(server: BenchServer, calls = 2_000): Promise<ServedComparison> {
  const sides = await retrievers(server);
  const ids = Array.from({ length: calls }, (_, i) => chargeId(i + 1));
  const inTurn = (retrieve: Retrieve) => async () => {
    for (const id of ids) await retrieve(id);
  };
  return compareOn(server, ROUNDS, inTurn(sides.sdk), inTurn(sides.bare), {
    ky: inTurn(sides.ky),
    kyNode: inTurn(sides.kyNode),
    sdkNode: inTurn(sides.sdkNode),
    openai: inTurn(sides.openai),
    stripe: inTurn(sides.stripe),
    fetchWithTimeout: inTurn(sides.fetchWithTimeout),
  });
}

export async function concurrentRetrieve(server: BenchServer, calls = 1_000, batch = 100): Promise<ServedComparison> {
  const sides = await retrievers(server);
  const batches: string[][] = [];
  for (let i = 0; i < calls; i += batch) {
    batches.push(Array.from({ length: Math.min(batch, calls - i) }, (_, j) => chargeId(i + j + 1)));
  }
  const inBatches = (retrieve: Retrieve) => async () => {
    for (const ids of batches) await Promise.all(ids.map(retrieve));
  };
  return compareOn(server, ROUNDS, inBatches(sides.sdk), inBatches(sides.bare), {
    ky: inBatches(sides.ky),
    kyNode: inBatches(sides.kyNode),
    sdkNode: inBatches(sides.sdkNode),
    openai: inBatches(sides.openai),
    stripe: inBatches(sides.stripe),
  });
}
