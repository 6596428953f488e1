/**
 * Iteration holds one page in memory at a time (plus one fetched ahead):
 * walking a million items must not grow memory with them. `npm test` walks
 * 200,000: a retained item is about 90 bytes, so a leak still shows in the
 * heap's trend across the 20 samples; `npm run test:slow` walks the million
 * (LUNAS_MEMORY_WALK_ITEMS: a multiple of 2,000, whole pages between samples).
 *
 * 10,000 requests through msw would take most of the time budget, so the
 * client gets a custom `fetch` (a contract option) that builds each page's
 * Response lazily: the real SDK path (transport, envelope and schema parsing,
 * pagination, dedupe) minus the network.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { makeClient } from '../helpers/msw.js';

const TOTAL = Number(process.env.LUNAS_MEMORY_WALK_ITEMS ?? 200_000);
const PAGE_SIZE = 100;
const SAMPLES = 20;
const SAMPLE_EVERY = TOTAL / SAMPLES;
const MB = 1024 * 1024;

/** A real `gc()` without --expose-gc on the command line, or undefined if unavailable. */
function getGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

const gc = getGc();
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

async function heapUsed(): Promise<number> {
  await tick();
  if (gc) {
    gc();
    await tick();
    gc();
  }
  return process.memoryUsage().heapUsed;
}

/** A fetch that answers GET /v1/payouts?page=&pagesize= with a page built on demand. */
function lazyPayouts(total: number) {
  const stats = { requests: 0, maxPage: 0 };
  const fetch: typeof globalThis.fetch = async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname !== '/v1/payouts') return new Response('not found', { status: 404 });
    const page = Number(url.searchParams.get('page') ?? '1');
    const size = Number(url.searchParams.get('pagesize') ?? '10');
    stats.requests++;
    stats.maxPage = Math.max(stats.maxPage, page);
    const start = (page - 1) * size;
    const end = Math.min(start + size, total);
    const items: string[] = [];
    for (let i = start; i < end; i++) {
      items.push(`{"id":"po_${i}","amount":"${1000 + (i % 97)}.00"}`);
    }
    const body = `{"status":"success","data":[${items.join(',')}],"page":${page},"page_size":${size},"total_items":${total}}`;
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, stats };
}

describe('memory while iterating', () => {
  it(`walks ${TOTAL.toLocaleString('en-US')} items at pagesize 100 without memory growing with them`, async () => {
    expect(Number.isInteger(SAMPLE_EVERY / PAGE_SIZE), 'whole pages between samples').toBe(true);
    const { fetch, stats } = lazyPayouts(TOTAL);
    const client = makeClient({ fetch });
    const samples: number[] = [];
    let pageTwoItem: WeakRef<object> | undefined;
    let pageTwoItemCollected: boolean | undefined;
    let count = 0;
    let outOfOrder = 0;
    const started = performance.now();

    for await (const payout of client.payouts.list({ pagesize: PAGE_SIZE })) {
      if (payout.id !== `po_${count}`) outOfOrder++;
      if (count === PAGE_SIZE) pageTwoItem = new WeakRef(payout);
      count++;
      if (count % SAMPLE_EVERY === 0) {
        samples.push(await heapUsed());
        if (gc && count === SAMPLE_EVERY) pageTwoItemCollected = pageTwoItem?.deref() === undefined;
      }
    }
    const seconds = (performance.now() - started) / 1000;

    expect(count).toBe(TOTAL);
    expect(outOfOrder).toBe(0);
    // 10,000 full pages and one empty page that ends the walk.
    expect(stats.requests).toBe(TOTAL / PAGE_SIZE + 1);
    expect(stats.maxPage).toBe(TOTAL / PAGE_SIZE + 1);
    expect(samples).toHaveLength(SAMPLES);
    const later = `${SAMPLE_EVERY / PAGE_SIZE} pages later`;
    if (gc) expect(pageTwoItemCollected, `an item from page 2 is still reachable ${later}`).toBe(true);

    // After warm-up (the first two samples), the heap stays flat: a retained
    // million items would add about 90 MB, 200,000 about 18 MB (the trend catches those).
    const steady = samples.slice(2);
    const growth = Math.max(...steady) - Math.min(...steady);
    const quarter = Math.floor(steady.length / 4);
    const avg = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const trend = avg(steady.slice(-quarter)) - avg(steady.slice(0, quarter));
    const report = `gc=${gc ? 'yes' : 'no'}, ${seconds.toFixed(1)} s, samples (MB): ${samples.map((s) => (s / MB).toFixed(1)).join(' ')}`;
    expect(growth, report).toBeLessThan(30 * MB);
    expect(trend, report).toBeLessThan((gc ? 5 : 15) * MB);
  }, 60_000);

  it('does not keep the first page alive while walking later pages', async () => {
    // One page at a time plus one ahead: by page 10, nothing from page 1 may be reachable
    // (neither through the PagePromise nor through the iterator started on page 1).
    expect(gc, 'gc is needed for this check').toBeDefined();
    const { fetch } = lazyPayouts(2_000);
    const client = makeClient({ fetch });
    const refs: WeakRef<object>[] = [];
    let collected: boolean[] = [];
    let count = 0;
    for await (const payout of client.payouts.list({ pagesize: PAGE_SIZE })) {
      if (count % PAGE_SIZE === 0) refs.push(new WeakRef(payout));
      count++;
      if (count === 10 * PAGE_SIZE) {
        await heapUsed();
        collected = refs.slice(0, 8).map((ref) => ref.deref() === undefined);
      }
    }
    expect(count).toBe(2_000);
    // Pages 2..8: collected (the steady-state guarantee).
    expect(collected.slice(1)).toEqual([true, true, true, true, true, true, true]);
    // Page 1: collected too.
    expect(collected[0], 'an item of page 1 is still reachable at page 10').toBe(true);
  });
});
