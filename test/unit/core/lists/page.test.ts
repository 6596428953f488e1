/**
 * core/lists/page.ts: a page and the promise `list()` returns. The first page
 * fetched lazily and once, the next pages, iterPages and `for await`, when a
 * walk stops, the look-ahead and its abort, errors during a walk, and memory:
 * one page held at a time (plus one fetched ahead), so walking a million
 * items does not grow with them. The memory test gives the client a custom
 * `fetch` that builds each page's Response lazily (10,000 requests through msw
 * would take most of the time budget): the real SDK path minus the network.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  InternalServerError,
  LunasError,
  NotFoundError,
  Page,
  PagePromise,
  ResponseValidationError,
} from '../../../../src/index.js';
import { makeClient, server } from '../../../helpers/msw.js';
import { collect, makeItems, serveList } from '../../../helpers/pages.js';
import { watchUnhandledRejections } from '../../../helpers/recorders.js';
import { BASE_URL, chargeJson } from '../../../helpers/fixtures.js';
import { sleep } from '../../../helpers/waiting.js';

const PAYOUTS = '/v1/payouts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Resolves when `signal` aborts, or after `ms`. */
function abortedOrAfter(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe('the first page', () => {
  it('await list() gives a Page with data, page, page_size and total_items, and sends one request', async () => {
    const items = makeItems(25);
    const seen = serveList(PAYOUTS, { items });
    const promise = makeClient().payouts.list({ pagesize: 10 });
    expect(promise).toBeInstanceOf(PagePromise);
    const page = await promise;
    expect(page).toBeInstanceOf(Page);
    expect(page.data).toEqual(items.slice(0, 10));
    expect(page.page).toBe(1);
    expect(page.page_size).toBe(10);
    expect(page.total_items).toBe(25);
    await sleep(30);
    expect(seen).toHaveLength(1);
  });

  it('sends nothing until awaited or iterated', async () => {
    const seen = serveList(PAYOUTS, { items: makeItems(3) });
    const promise = makeClient().payouts.list();
    await sleep(30);
    expect(seen).toHaveLength(0);
    await promise;
    expect(seen).toHaveLength(1);
  });

  it('awaiting the same PagePromise twice sends one request and gives the same page', async () => {
    const seen = serveList(PAYOUTS, { items: makeItems(3) });
    const promise = makeClient().payouts.list();
    const [a, b] = await Promise.all([promise, promise]);
    const c = await promise;
    expect(a).toBe(b);
    expect(a).toBe(c);
    expect(seen).toHaveLength(1);
  });

  it('works with then/catch/finally like a promise', async () => {
    serveList(PAYOUTS, { items: makeItems(3) });
    let finished = false;
    const total = await makeClient()
      .payouts.list()
      .finally(() => {
        finished = true;
      })
      .then((page) => page.total_items);
    expect(total).toBe(3);
    expect(finished).toBe(true);
  });
});

describe('hasNextPage and getNextPage', () => {
  it('a full page has a next page; getNextPage asks for page + 1 with the same pagesize', async () => {
    const items = makeItems(15);
    const seen = serveList(PAYOUTS, { items });
    const first = await makeClient().payouts.list({ pagesize: 10 });
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(seen.map((s) => Object.fromEntries(s.url.searchParams))).toEqual([
      { page: '1', pagesize: '10' },
      { page: '2', pagesize: '10' },
    ]);
    expect(second.page).toBe(2);
    expect(second.data).toEqual(items.slice(10));
    expect(second.hasNextPage()).toBe(false);
  });

  it('getNextPage when there is none rejects with LunasError and sends nothing', async () => {
    const seen = serveList(PAYOUTS, { items: makeItems(3) });
    const page = await makeClient().payouts.list({ pagesize: 10 });
    expect(page.hasNextPage()).toBe(false);
    const error = await page.getNextPage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LunasError);
    expect(seen).toHaveLength(1);
  });

  it('an empty page has no next page', async () => {
    serveList(PAYOUTS, { items: [] });
    const page = await makeClient().payouts.list();
    expect(page.data).toEqual([]);
    expect(page.total_items).toBe(0);
    expect(page.hasNextPage()).toBe(false);
  });

  it('a page the service numbered differently from the one asked for rejects with ResponseValidationError at page', async () => {
    // Answering another page than the one asked for would make a walk loop or skip: never a Page.
    serveList(PAYOUTS, { items: makeItems(30), envelope: (body) => ({ ...body, page: 1 }) });
    const error = await makeClient()
      .payouts.list({ page: 2, pagesize: 10 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('page');
    expect((error as ResponseValidationError).message).toContain('expected 2, the page requested, got 1');
  });

  it('walks by hand until hasNextPage is false', async () => {
    const items = makeItems(23);
    const seen = serveList(PAYOUTS, { items });
    let page = await makeClient().payouts.list({ pagesize: 5 });
    const ids = page.data.map((item) => item.id);
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      ids.push(...page.data.map((item) => item.id));
    }
    expect(ids).toEqual(items.map((item) => item.id));
    expect(seen.map((s) => s.page)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('iterPages', () => {
  it('yields the first page itself, then each following page', async () => {
    const items = makeItems(12);
    serveList(PAYOUTS, { items });
    const first = await makeClient().payouts.list({ pagesize: 5 });
    const pages = await collect(first.iterPages());
    expect(pages[0]).toBe(first);
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(pages.flatMap((p) => p.data)).toEqual(items);
  });

  it('can start from a later page', async () => {
    serveList(PAYOUTS, { items: makeItems(12) });
    const first = await makeClient().payouts.list({ pagesize: 5 });
    const second = await first.getNextPage();
    const pages = await collect(second.iterPages());
    expect(pages.map((p) => p.page)).toEqual([2, 3]);
  });
});

describe('for await over items', () => {
  it('yields every item across pages, in order', async () => {
    const items = makeItems(47);
    const seen = serveList(PAYOUTS, { items });
    const all = await collect(makeClient().payouts.list({ pagesize: 10 }));
    expect(all).toEqual(items);
    expect(seen.map((s) => s.page)).toEqual([1, 2, 3, 4, 5]);
    expect(seen.every((s) => s.url.searchParams.get('pagesize') === '10')).toBe(true);
  });

  it('a Page is itself iterable from that page onward', async () => {
    const items = makeItems(9);
    serveList(PAYOUTS, { items });
    const first = await makeClient().payouts.list({ pagesize: 4 });
    const second = await first.getNextPage();
    expect(await collect(second)).toEqual(items.slice(4));
  });

  it('walks charges with their schema (money normalised on every page)', async () => {
    const items = Array.from({ length: 5 }, (_, i) => chargeJson({ id: `ch_${i}`, amount: 1000 + i }));
    serveList('/v1/payments/charges', { items });
    const all = await collect(makeClient().charges.list({ pagesize: 2 }));
    expect(all.map((c) => [c.id, c.amount])).toEqual([
      ['ch_0', '1000.00'],
      ['ch_1', '1001.00'],
      ['ch_2', '1002.00'],
      ['ch_3', '1003.00'],
      ['ch_4', '1004.00'],
    ]);
  });

  it('sends the call options (headers) with every page request', async () => {
    const headers: (string | null)[] = [];
    server.use(
      http.get(`${BASE_URL}${PAYOUTS}`, ({ request }) => {
        headers.push(request.headers.get('x-trace'));
        const page = Number(new URL(request.url).searchParams.get('page'));
        const data = page <= 2 ? [{ id: `p${page}` }] : [];
        return HttpResponse.json({ status: 'success', data, page, page_size: 1, total_items: 2 });
      }),
    );
    const all = await collect(makeClient().payouts.list({ pagesize: 1 }, { headers: { 'x-trace': 'walk-1' } }));
    expect(all).toEqual([{ id: 'p1' }, { id: 'p2' }]);
    expect(headers).toEqual(['walk-1', 'walk-1', 'walk-1']);
  });
});

describe('when iteration stops', () => {
  it('at the first empty page: that request is the last one made', async () => {
    // total_items claims more, but page 3 comes back empty: the walk ends there.
    const items = makeItems(20);
    const seen = serveList(PAYOUTS, { items, envelope: (body) => ({ ...body, total_items: 50 }) });
    const all = await collect(makeClient().payouts.list({ pagesize: 10 }));
    await sleep(30);
    expect(all).toEqual(items);
    expect(seen.map((s) => s.page)).toEqual([1, 2, 3]);
  });

  it('at an empty page in the middle, even when later pages would have items', async () => {
    const seen = serveList(PAYOUTS, {
      items: makeItems(30),
      envelope: (body, request) => (request.page === 2 ? { ...body, data: [] } : body),
    });
    const all = await collect(makeClient().payouts.list({ pagesize: 10 }));
    await sleep(30);
    expect(all).toHaveLength(10);
    expect(seen.map((s) => s.page)).toEqual([1, 2]);
  });

  it('after a short page, without another request', async () => {
    const items = makeItems(15);
    const seen = serveList(PAYOUTS, { items });
    const all = await collect(makeClient().payouts.list({ pagesize: 10 }));
    await sleep(30);
    expect(all).toEqual(items);
    expect(seen.map((s) => s.page)).toEqual([1, 2]);
  });

  it('after a full last page, with exactly one extra (empty) request', async () => {
    const items = makeItems(20);
    const seen = serveList(PAYOUTS, { items });
    const all = await collect(makeClient().payouts.list({ pagesize: 10 }));
    await sleep(30);
    expect(all).toEqual(items);
    expect(seen.map((s) => s.page)).toEqual([1, 2, 3]);
  });

  it('when there are no items: zero items, one request', async () => {
    const seen = serveList(PAYOUTS, { items: [] });
    const all = await collect(makeClient().payouts.list({ pagesize: 10 }));
    await sleep(30);
    expect(all).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('when the service answers with a different page number than asked (it ignores page): ResponseValidationError, no loop', async () => {
    const items = makeItems(4);
    const seen = serveList(PAYOUTS, {
      items,
      // A service that always returns the first page (and, so a broken SDK
      // fails instead of hanging, an empty page after 10 requests).
      envelope: (body, request) =>
        seen.indexOf(request) >= 10 ? { ...body, data: [], page: 1 } : { ...body, data: items.slice(0, 2), page: 1 },
    });
    const yielded: unknown[] = [];
    let error: unknown;
    try {
      for await (const item of makeClient().payouts.list({ pagesize: 2 })) yielded.push(item);
    } catch (e) {
      error = e;
    }
    await sleep(30);
    expect(yielded).toEqual(items.slice(0, 2));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('page');
    expect(seen).toHaveLength(2);
  });

  it('starting from page 3: requests 3, 4, ... and yields from page 3 on', async () => {
    const items = makeItems(35);
    const seen = serveList(PAYOUTS, { items });
    const promise = makeClient().payouts.list({ page: 3, pagesize: 10 });
    const first = await promise;
    expect(first.page).toBe(3);
    const all = await collect(promise);
    expect(all).toEqual(items.slice(20));
    expect(seen.map((s) => s.page)).toEqual([3, 4]);
  });
});

describe('look-ahead', () => {
  it('while the consumer works on page N, the request for page N+1 has already arrived (and no further)', async () => {
    const page2Arrived = deferred();
    const seen = serveList(PAYOUTS, {
      items: makeItems(30),
      before: (request) => {
        if (request.page === 2) page2Arrived.resolve();
      },
    });
    let sawPage2WhileOnPage1: boolean | undefined;
    let requestsWhileOnPage1 = -1;
    let finishedPage1At = 0;
    let index = 0;
    for await (const _item of makeClient().payouts.list({ pagesize: 10 })) {
      if (index === 0) {
        sawPage2WhileOnPage1 = await Promise.race([
          page2Arrived.promise.then(() => true),
          sleep(2000).then(() => false),
        ]);
        await sleep(50);
        requestsWhileOnPage1 = seen.length;
      }
      if (index === 9) finishedPage1At = Date.now();
      index++;
    }
    expect(sawPage2WhileOnPage1).toBe(true);
    // One page ahead at most: page 3 waits until the consumer reaches page 2.
    expect(requestsWhileOnPage1).toBe(2);
    expect(seen[1]!.page).toBe(2);
    expect(seen[1]!.at).toBeLessThan(finishedPage1At);
    expect(index).toBe(30);
  });

  it('breaking out early aborts the look-ahead request and makes no further request', async () => {
    const abortSeen = deferred();
    const seen = serveList(PAYOUTS, {
      items: makeItems(50),
      before: async (request) => {
        if (request.page === 2) {
          request.signal.addEventListener('abort', () => abortSeen.resolve());
          await abortedOrAfter(request.signal, 3000);
        }
      },
    });
    const yielded: string[] = [];
    for await (const item of makeClient().payouts.list({ pagesize: 10 })) {
      yielded.push(String(item.id));
      if (yielded.length === 3) {
        // Let the look-ahead reach the handler before leaving.
        await sleep(30);
        break;
      }
    }
    const aborted = await Promise.race([abortSeen.promise.then(() => true), sleep(1000).then(() => false)]);
    await sleep(50);
    expect(yielded).toEqual(['it_0', 'it_1', 'it_2']);
    expect(aborted).toBe(true);
    expect(seen[1]!.signal.aborted).toBe(true);
    expect(seen.map((s) => s.page)).toEqual([1, 2]);
  });

  it('breaking out on a later page aborts that page’s look-ahead', async () => {
    const seen = serveList(PAYOUTS, {
      items: makeItems(50),
      before: async (request) => {
        if (request.page === 3) await abortedOrAfter(request.signal, 3000);
      },
    });
    let count = 0;
    for await (const _ of makeClient().payouts.list({ pagesize: 10 })) {
      if (++count === 15) {
        await sleep(30);
        break;
      }
    }
    await sleep(50);
    expect(seen.map((s) => s.page)).toEqual([1, 2, 3]);
    expect(seen[2]!.signal.aborted).toBe(true);
    expect(seen[1]!.signal.aborted).toBe(false);
  });

  it('breaking out of iterPages aborts the look-ahead too', async () => {
    const seen = serveList(PAYOUTS, {
      items: makeItems(50),
      before: async (request) => {
        if (request.page === 2) await abortedOrAfter(request.signal, 3000);
      },
    });
    const first = await makeClient().payouts.list({ pagesize: 10 });
    for await (const page of first.iterPages()) {
      expect(page.page).toBe(1);
      await sleep(30);
      break;
    }
    await sleep(50);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.signal.aborted).toBe(true);
  });

  it('a failed look-ahead the consumer never reaches is not reported anywhere', async () => {
    const unhandled = watchUnhandledRejections();
    try {
      server.use(
        http.get(`${BASE_URL}${PAYOUTS}`, ({ request }) => {
          const page = Number(new URL(request.url).searchParams.get('page'));
          if (page === 2) return HttpResponse.json({ status: 'error', message: 'boom' }, { status: 500 });
          return HttpResponse.json({ status: 'success', data: makeItems(10), page, page_size: 10, total_items: 20 });
        }),
      );
      let count = 0;
      for await (const _ of makeClient({ maxRetries: 0 }).payouts.list({ pagesize: 10 })) {
        if (++count === 1) await sleep(50);
        if (count === 5) break;
      }
      await sleep(50);
      expect(count).toBe(5);
      expect(unhandled.reasons).toEqual([]);
    } finally {
      unhandled.stop();
    }
  });
});

describe('errors during a walk', () => {
  async function walkUntilError(client = makeClient({ maxRetries: 0 })) {
    const yielded: string[] = [];
    let error: unknown;
    try {
      for await (const item of client.payouts.list({ pagesize: 2 })) yielded.push((item as { id: string }).id);
    } catch (e) {
      error = e;
    }
    return { yielded, error };
  }

  function failOn(pageNumber: number, response: () => Response) {
    server.use(
      http.get(`${BASE_URL}${PAYOUTS}`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        if (page === pageNumber) return response();
        const data = [{ id: `p${page}a` }, { id: `p${page}b` }];
        return HttpResponse.json({ status: 'success', data, page, page_size: 2, total_items: 10 });
      }),
    );
  }

  it('a 500 on page 3 rejects the iteration with InternalServerError after pages 1 and 2', async () => {
    failOn(3, () => HttpResponse.json({ status: 'error', message: 'boom' }, { status: 500 }));
    const { yielded, error } = await walkUntilError();
    expect(yielded).toEqual(['p1a', 'p1b', 'p2a', 'p2b']);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).status).toBe(500);
  });

  it('a 404 on page 2 rejects with NotFoundError', async () => {
    failOn(2, () => HttpResponse.json({ status: 'fail', data: { message: 'gone' } }, { status: 404 }));
    const { yielded, error } = await walkUntilError();
    expect(yielded).toEqual(['p1a', 'p1b']);
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('a malformed page 2 rejects with ResponseValidationError', async () => {
    failOn(2, () => HttpResponse.json({ status: 'success', data: [5], page: 2, page_size: 2, total_items: 10 }));
    const { yielded, error } = await walkUntilError();
    expect(yielded).toEqual(['p1a', 'p1b']);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('data.0');
  });

  it('a non-JSON page 2 rejects with ResponseValidationError', async () => {
    failOn(2, () => new HttpResponse('<html>oops</html>', { headers: { 'content-type': 'text/html' } }));
    const { error } = await walkUntilError();
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toBe('<html>oops</html>');
  });

  it('the caller’s signal aborting mid-walk rejects with APIUserAbortError', async () => {
    const controller = new AbortController();
    serveList(PAYOUTS, {
      items: makeItems(50),
      before: async (request) => {
        if (request.page === 2) await abortedOrAfter(request.signal, 3000);
      },
    });
    const yielded: string[] = [];
    let error: unknown;
    try {
      for await (const item of makeClient().payouts.list({ pagesize: 10 }, { signal: controller.signal })) {
        yielded.push(String(item.id));
        if (yielded.length === 10) controller.abort();
      }
    } catch (e) {
      error = e;
    }
    expect(yielded).toHaveLength(10);
    expect(error).toBeInstanceOf(APIUserAbortError);
  });

  it('a 500 on the first page rejects both await and for await', async () => {
    failOn(1, () => HttpResponse.json({ status: 'error', message: 'boom' }, { status: 503 }));
    const client = makeClient({ maxRetries: 0 });
    await expect(client.payouts.list()).rejects.toBeInstanceOf(InternalServerError);
    const { yielded, error } = await walkUntilError(client);
    expect(yielded).toEqual([]);
    expect(error).toBeInstanceOf(InternalServerError);
  });
});

// `npm test` walks 200,000: a retained item is about 90 bytes, so a leak still shows in the
// heap's trend across the 20 samples; `npm run test:slow` walks the million
// (LUNAS_MEMORY_WALK_ITEMS: a multiple of 2,000, whole pages between samples).
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
