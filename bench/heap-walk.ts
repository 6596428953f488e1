// Child process of measurement 6 (run with --expose-gc): walks the whole list
// and reports heap figures as one JSON line on stdout. The server lives in the
// parent so that its allocations stay out of this heap.
import { sdkClient } from './clients.js';

const [url, pageSizeArg] = process.argv.slice(2);
const pagesize = Number(pageSizeArg);
const gc = globalThis.gc;
if (!url || !gc) throw new Error('usage: node --expose-gc --import tsx bench/heap-walk.ts <url> <pagesize>');

const MB = 1024 * 1024;
const heapUsed = () => process.memoryUsage().heapUsed;
const collect = () => {
  gc();
  gc();
  return heapUsed();
};

const client = sdkClient(url);
// One request first, so lazily loaded code (undici, schemas) is in the baseline.
await client.charges.list({ page: 1, pagesize });
const baseline = collect();

let items = 0;
let peak = 0;
let retainedDuringWalk = 0;
for await (const _charge of client.charges.list({ pagesize })) {
  items++;
  if (items % 1_000 === 0) peak = Math.max(peak, heapUsed() - baseline);
  // A collection mid-walk, with the iterator alive: state the iterator keeps
  // per item (say, every id seen) is freed with it and would not show after.
  if (items % 100_000 === 0) retainedDuringWalk = Math.max(retainedDuringWalk, collect() - baseline);
}
const afterWalk = collect() - baseline;

console.log(
  JSON.stringify({
    items,
    baselineMB: baseline / MB,
    growthMB: afterWalk / MB,
    retainedDuringWalkMB: retainedDuringWalk / MB,
    peakMB: peak / MB,
  }),
);
