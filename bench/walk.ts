// Measurements 2 and 4: walking a charge list with the SDK's iterator.
import { bareGet, kyGetter, listUrl, sdkClient, undiciFetch } from './clients.js';
import { compareOn, type BenchServer, type ServedComparison } from './server.js';
import { sleep } from './stats.js';

const PAGE_SIZE = 100;

/** A walk that saw the wrong number of items measured something else: stop there. */
function expectCount(label: string, seen: number, expected: number): void {
  if (seen !== expected) throw new Error(`bench ${label}: walked ${seen} items, expected ${expected}`);
}

/**
 * Measurement 2: `for await` over every item vs a bare fetch loop over pages,
 * with the same loop through ky alone, and both again over `undiciFetch`, as
 * references in the same rounds.
 */
export async function walkList(server: BenchServer, total: number): Promise<ServedComparison> {
  const client = sdkClient(server.url);
  const clientUndici = sdkClient(server.url, { fetch: undiciFetch });
  const ky = kyGetter(server.url);
  const kyUndici = kyGetter(server.url, undiciFetch);
  const walk = (label: string, lunas: typeof client) => async () => {
    let n = 0;
    for await (const _charge of lunas.charges.list({ pagesize: PAGE_SIZE })) n++;
    expectCount(label, n, total);
  };
  const pageLoop = (label: string, fetchPage: (page: number) => Promise<{ data: unknown }>) => async () => {
    let n = 0;
    for (let page = 1; ; page++) {
      const body = (await fetchPage(page)) as { data: unknown[] };
      for (const _charge of body.data) n++;
      if (body.data.length < PAGE_SIZE) break;
    }
    expectCount(label, n, total);
  };
  // 21 rounds of about 70 ms each: with 7, four runs of the same code gave 1.10 to 1.30.
  return compareOn(
    server,
    21,
    walk('walk (sdk)', client),
    pageLoop('walk (bare)', (page) => bareGet(listUrl(server.url, page, PAGE_SIZE))),
    {
      ky: pageLoop('walk (ky)', (page) => ky(`v1/payments/charges?page=${page}&pagesize=${PAGE_SIZE}`)),
      sdkUndici: walk('walk (sdk, undiciFetch)', clientUndici),
      kyUndici: pageLoop('walk (ky, undiciFetch)', (page) =>
        kyUndici(`v1/payments/charges?page=${page}&pagesize=${PAGE_SIZE}`),
      ),
    },
  );
}

/**
 * Measurement 4: with server latency and consumer work of the same length,
 * fetching one page ahead should overlap the two and nearly halve the walk.
 * `server` must have latency; the baseline is the SDK walked page by page.
 */
export async function lookahead(server: BenchServer, total: number, workMs: number): Promise<ServedComparison> {
  const client = sdkClient(server.url);
  return compareOn(
    server,
    5,
    async () => {
      let n = 0;
      for await (const _charge of client.charges.list({ pagesize: PAGE_SIZE })) {
        if (++n % PAGE_SIZE === 0) await sleep(workMs);
      }
      expectCount('look-ahead (iterator)', n, total);
    },
    async () => {
      let n = 0;
      let page = await client.charges.list({ pagesize: PAGE_SIZE });
      for (;;) {
        n += page.data.length;
        if (page.data.length > 0) await sleep(workMs);
        if (!page.hasNextPage()) break;
        page = await page.getNextPage();
      }
      expectCount('look-ahead (sequential)', n, total);
    },
  );
}

/**
 * Measurement 4's floor: the same two walks done with bare fetch. Timer
 * overshoot and per-page CPU keep even this above 0.5; the SDK's distance from
 * it, not from 0.5, is what the SDK's look-ahead and parsing cost.
 */
export async function lookaheadFloor(server: BenchServer, total: number, workMs: number): Promise<ServedComparison> {
  const get = async (page: number) =>
    ((await bareGet(listUrl(server.url, page, PAGE_SIZE))) as { data: unknown[] }).data;
  return compareOn(
    server,
    5,
    async () => {
      let n = 0;
      let next = get(1);
      for (let page = 1; ; page++) {
        const items = await next;
        if (items.length === PAGE_SIZE) next = get(page + 1);
        n += items.length;
        if (items.length > 0) await sleep(workMs);
        if (items.length < PAGE_SIZE) break;
      }
      expectCount('look-ahead floor (bare, ahead)', n, total);
    },
    async () => {
      let n = 0;
      for (let page = 1; ; page++) {
        const items = await get(page);
        n += items.length;
        if (items.length > 0) await sleep(workMs);
        if (items.length < PAGE_SIZE) break;
      }
      expectCount('look-ahead floor (bare, sequential)', n, total);
    },
  );
}
