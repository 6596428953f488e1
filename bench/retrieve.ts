// Measurements 1 and 3: the per-call overhead of `charges.retrieve`, one at a
// time and 100 in flight, against a bare fetch of the same URL.
import { bareGet, chargeUrl, sdkClient } from './clients.js';
import { chargeId } from './fixtures.js';
import { compareOn, type BenchServer, type ServedComparison } from './server.js';

const ROUNDS = 7;

export async function sequentialRetrieve(server: BenchServer, calls = 2_000): Promise<ServedComparison> {
  const client = sdkClient(server.url);
  const ids = Array.from({ length: calls }, (_, i) => chargeId(i + 1));
  return compareOn(
    server,
    ROUNDS,
    async () => {
      for (const id of ids) await client.charges.retrieve(id);
    },
    async () => {
      for (const id of ids) await bareGet(chargeUrl(server.url, id));
    },
  );
}

export async function concurrentRetrieve(server: BenchServer, calls = 1_000, batch = 100): Promise<ServedComparison> {
  const client = sdkClient(server.url);
  const batches: string[][] = [];
  for (let i = 0; i < calls; i += batch) {
    batches.push(Array.from({ length: Math.min(batch, calls - i) }, (_, j) => chargeId(i + j + 1)));
  }
  return compareOn(
    server,
    ROUNDS,
    async () => {
      for (const ids of batches) await Promise.all(ids.map((id) => client.charges.retrieve(id)));
    },
    async () => {
      for (const ids of batches) await Promise.all(ids.map((id) => bareGet(chargeUrl(server.url, id))));
    },
  );
}
