// Measurements 1 and 3: the per-call overhead of `charges.retrieve`, one at a
// time and 100 in flight, against a bare fetch of the same URL. Each also runs
// with ky alone in place of the SDK, as the reference an SDK built on ky can reach.
import { bareGet, chargeUrl, kyGetter, sdkClient } from './clients.js';
import { chargeId } from './fixtures.js';
import { compareOn, type BenchServer, type ServedComparison } from './server.js';

const ROUNDS = 7;

/** One retrieve by id, by the SDK or by the ky reference. */
type Retrieve = (id: string) => Promise<unknown>;

export type Side = 'sdk' | 'ky';

function retriever(server: BenchServer, side: Side): Retrieve {
  if (side === 'sdk') {
    const client = sdkClient(server.url);
    return (id) => client.charges.retrieve(id);
  }
  const get = kyGetter(server.url);
  return (id) => get(`v1/payments/charges/${encodeURIComponent(id)}`);
}

export async function sequentialRetrieve(server: BenchServer, side: Side, calls = 2_000): Promise<ServedComparison> {
  const retrieve = retriever(server, side);
  const ids = Array.from({ length: calls }, (_, i) => chargeId(i + 1));
  return compareOn(
    server,
    ROUNDS,
    async () => {
      for (const id of ids) await retrieve(id);
    },
    async () => {
      for (const id of ids) await bareGet(chargeUrl(server.url, id));
    },
  );
}

export async function concurrentRetrieve(
  server: BenchServer,
  side: Side,
  calls = 1_000,
  batch = 100,
): Promise<ServedComparison> {
  const retrieve = retriever(server, side);
  const batches: string[][] = [];
  for (let i = 0; i < calls; i += batch) {
    batches.push(Array.from({ length: Math.min(batch, calls - i) }, (_, j) => chargeId(i + j + 1)));
  }
  return compareOn(
    server,
    ROUNDS,
    async () => {
      for (const ids of batches) await Promise.all(ids.map(retrieve));
    },
    async () => {
      for (const ids of batches) await Promise.all(ids.map((id) => bareGet(chargeUrl(server.url, id))));
    },
  );
}
