/**
 * `list(...).toArray({ limit })`: the limit's rules, the same walk as
 * `for await` (order, de-duplication), and not one request beyond what the
 * limit needs, look-ahead included.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { type Client, InternalServerError, RequestValidationError, type ResponseEvent } from '../../../../src/index.js';
import { makeClient, server } from '../../../helpers/msw.js';
import { collect, makeItems, serveList } from '../../../helpers/pages.js';
import { BASE_URL, chargeJson, transferJson } from '../../../helpers/fixtures.js';
import { sleep } from '../../../helpers/waiting.js';
import { countRequests } from '../../../helpers/requests.js';
import { answering, refused } from '../../../helpers/wire.js';

const PAYOUTS = '/v1/payouts';

type ListOf = (client: Client) => AsyncIterable<unknown> & { toArray(options: { limit: number }): Promise<unknown[]> };

/** Every list, with items its schema accepts. */
const LISTS: [string, string, ListOf, (index: number) => Record<string, unknown>][] = [
  [
    'charges',
    '/v1/payments/charges',
    (client) => client.charges.list({ pagesize: 10 }),
    (i) => chargeJson({ id: `ch_${i}` }),
  ],
  [
    'transfers',
    '/v1/transfers',
    (client) => client.transfers.list({ pagesize: 10 }),
    (i) => transferJson({ id: `tr_${i}` }),
  ],
  ['payouts', '/v1/payouts', (client) => client.payouts.list({ pagesize: 10 }), (i) => ({ id: `po_${i}` })],
  [
    'paymentMethods',
    '/v1/payments/methods',
    (client) => client.paymentMethods.list({ pagesize: 10 }),
    (i) => ({ code: `m_${i}` }),
  ],
];

describe('the limit', () => {
  it.each<[string, unknown]>([
    ['no options', undefined],
    ['null options', null],
    ['a missing limit', {}],
    ['0', { limit: 0 }],
    ['-1', { limit: -1 }],
    ['10,001', { limit: 10_001 }],
    ['1.5', { limit: 1.5 }],
    ['NaN', { limit: Number.NaN }],
    ['Infinity', { limit: Number.POSITIVE_INFINITY }],
    ['the string "5"', { limit: '5' }],
    ['a BigInt', { limit: 5n }],
    ['null', { limit: null }],
    ['an object', { limit: { value: 5 } }],
  ])('%s: RequestValidationError on limit, nothing sent', async (_label, options) => {
    const requests = countRequests();
    let error: unknown;
    try {
      await makeClient()
        .payouts.list()
        .toArray(options as { limit: number });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RequestValidationError);
    const fields = (error as RequestValidationError).fields;
    expect(Object.keys(fields)).toEqual(['limit']);
    expect(fields.limit![0]).toMatch(/integer from 1 to 10000/);
    expect(requests.count()).toBe(0);
  });

  it('says what it got, a string quoted', async () => {
    countRequests();
    const message = async (options: unknown) =>
      (await makeClient()
        .payouts.list()
        .toArray(options as { limit: number })
        .catch((error: RequestValidationError) => error.fields.limit![0]))!;
    expect(await message({ limit: '5' })).toContain('got "5"');
    expect(await message({ limit: 5n })).toContain('got a bigint');
    expect(await message({ limit: 0 })).toContain('got 0');
    expect(await message({})).toContain('missing');
  });

  it('1 and 10,000 are accepted', async () => {
    serveList(PAYOUTS, { items: makeItems(3) });
    expect(await makeClient().payouts.list().toArray({ limit: 1 })).toEqual(makeItems(1));
    expect(await makeClient().payouts.list().toArray({ limit: 10_000 })).toEqual(makeItems(3));
  });
});

describe.each(LISTS)('%s.list().toArray', (_name, path, list, item) => {
  it('collects items across pages, newest first, at most limit', async () => {
    const items = Array.from({ length: 25 }, (_, index) => item(index));
    const seen = serveList(path, { items });
    expect(await list(makeClient()).toArray({ limit: 13 })).toEqual(items.slice(0, 13));
    expect(seen.map((request) => request.page)).toEqual([1, 2]);
  });

  it('refuses a bad limit before sending', async () => {
    const requests = countRequests();
    await expect(list(makeClient()).toArray({ limit: 0 })).rejects.toBeInstanceOf(RequestValidationError);
    expect(requests.count()).toBe(0);
  });
});

describe('no request past what the limit needs', () => {
  /** Three full pages of 10, then a short one; every request and response event counted. */
  function threePages() {
    const items = makeItems(30);
    const seen = serveList(PAYOUTS, { items });
    const client = makeClient();
    const responses: ResponseEvent[] = [];
    client.on('response', (event) => responses.push(event));
    return { items, seen, client, responses };
  }

  it('limit = the first page’s size: exactly 1 request', async () => {
    const { items, seen, client, responses } = threePages();
    const result = await client.payouts.list({ pagesize: 10 }).toArray({ limit: 10 });
    await sleep(50);
    expect(result).toEqual(items.slice(0, 10));
    expect(seen).toHaveLength(1);
    expect(responses.map((event) => [event.status, event.error])).toEqual([[200, undefined]]);
  });

  it('limit = page size + 1: exactly 2 requests, none aborted', async () => {
    const { items, seen, client, responses } = threePages();
    const result = await client.payouts.list({ pagesize: 10 }).toArray({ limit: 11 });
    await sleep(50);
    expect(result).toEqual(items.slice(0, 11));
    expect(seen.map((request) => request.page)).toEqual([1, 2]);
    expect(seen.map((request) => request.signal.aborted)).toEqual([false, false]);
    expect(responses.map((event) => [event.status, event.error])).toEqual([
      [200, undefined],
      [200, undefined],
    ]);
  });

  it('limit = two pages: exactly 2 requests', async () => {
    const { seen, client } = threePages();
    const result = await client.payouts.list({ pagesize: 10 }).toArray({ limit: 20 });
    await sleep(50);
    expect(result).toHaveLength(20);
    expect(seen).toHaveLength(2);
  });

  it('a limit past the end: every item, and the walk stops as for await does', async () => {
    const items = makeItems(25);
    const seen = serveList(PAYOUTS, { items });
    const result = await makeClient().payouts.list({ pagesize: 10 }).toArray({ limit: 100 });
    expect(result).toEqual(items);
    // The short third page ends the walk without asking for a fourth.
    expect(seen.map((request) => request.page)).toEqual([1, 2, 3]);
  });

  it('looks ahead while a page cannot fill the limit', async () => {
    const gate: { release?: () => void } = {};
    const seen = serveList(PAYOUTS, {
      items: makeItems(30),
      before: (request) => (request.page === 2 ? new Promise<void>((resolve) => (gate.release = resolve)) : undefined),
    });
    const result = makeClient().payouts.list({ pagesize: 10 }).toArray({ limit: 25 });
    // Page 2 is requested while page 1 is being collected, before anything awaits it.
    for (let i = 0; i < 50 && gate.release === undefined; i++) await sleep(10);
    expect(seen.map((request) => request.page)).toEqual([1, 2]);
    gate.release!();
    expect(await result).toHaveLength(25);
    expect(seen.map((request) => request.page)).toEqual([1, 2, 3]);
  });

  it('after the PagePromise was awaited, page 1 is not requested again', async () => {
    const seen = serveList(PAYOUTS, { items: makeItems(30) });
    const promise = makeClient().payouts.list({ pagesize: 10 });
    const first = await promise;
    expect(await promise.toArray({ limit: 15 })).toEqual([...first.data, ...makeItems(15).slice(10)]);
    expect(seen.map((request) => request.page)).toEqual([1, 2]);
  });

  it('starts at the page asked for', async () => {
    const items = makeItems(30);
    const seen = serveList(PAYOUTS, { items });
    expect(await makeClient().payouts.list({ page: 2, pagesize: 10 }).toArray({ limit: 5 })).toEqual(
      items.slice(10, 15),
    );
    expect(seen.map((request) => request.page)).toEqual([2]);
  });
});

describe('the same walk as for await', () => {
  /**
   * A newest-first list that grows while it is walked: after each page is
   * served, three new items are added at the front, pushing the last three of
   * every page onto the next.
   */
  function growingList() {
    let created = 0;
    const items = Array.from({ length: 25 }, (_, index) =>
      chargeJson({ id: `ch_${index}`, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, 100 - index)).toISOString() }),
    );
    serveList('/v1/payments/charges', {
      items: () => items,
      after: () => {
        for (let i = 0; i < 3; i++) {
          created++;
          items.unshift(
            chargeJson({
              id: `ch_new_${created}`,
              created_at: new Date(Date.UTC(2026, 0, 2, 0, 0, created)).toISOString(),
            }),
          );
        }
      },
    });
  }

  it('skips items shifted onto the next page, yielding what for await yields, in its order', async () => {
    growingList();
    const walked = (await collect(makeClient().charges.list({ pagesize: 10 }))).map((charge) => charge.id);
    growingList();
    const collected = (await makeClient().charges.list({ pagesize: 10 }).toArray({ limit: 10_000 })).map(
      (charge) => charge.id,
    );
    expect(collected).toEqual(walked);
    expect(new Set(collected).size).toBe(collected.length);
    // Every original item once, newest first; the ones created during the walk are newer and skipped.
    expect(collected).toEqual(Array.from({ length: 25 }, (_, index) => `ch_${index}`));
  });

  it('a limit counts items after de-duplication', async () => {
    growingList();
    const collected = await makeClient().charges.list({ pagesize: 10 }).toArray({ limit: 12 });
    expect(collected.map((charge) => charge.id)).toEqual(Array.from({ length: 12 }, (_, index) => `ch_${index}`));
  });

  it('a page that fails rejects the whole call with that error', async () => {
    const seen = serveList(PAYOUTS, { items: makeItems(30) });
    // Page 2 answers 500; the other requests fall through to the list.
    server.use(
      http.get(`${BASE_URL}${PAYOUTS}`, ({ request }) =>
        new URL(request.url).searchParams.get('page') === '2'
          ? HttpResponse.json({ status: 'error', message: 'down' }, { status: 500 })
          : undefined,
      ),
    );
    const error = await makeClient({ maxRetries: 0 })
      .payouts.list({ pagesize: 10 })
      .toArray({ limit: 20 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(seen.map((request) => request.page)).toEqual([1]);
  });
});

describe('toArray options', () => {
  it('refuses another name than limit, with the closest one', async () => {
    const { client, sent } = answering();
    const error = await refused(() => client.charges.list().toArray({ limit: 5, limt: 5 } as never));
    expect(error.fields).toEqual({ limt: ['Unknown option "limt": did you mean "limit"?'] });
    const missing = await refused(() => client.charges.list().toArray({ max: 5 } as never));
    expect(Object.keys(missing.fields).sort()).toEqual(['limit', 'max']);
    expect(sent).toHaveLength(0);
  });

  it('reads limit from a null-prototype object, not from Object.prototype', async () => {
    const { client } = answering();
    const bare = Object.assign(Object.create(null) as { limit: number }, { limit: 1 });
    expect(await client.charges.list().toArray(bare)).toHaveLength(1);
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.limit = 1;
    try {
      const error = await refused(() => client.charges.list().toArray({} as never));
      expect(error.fields.limit![0]).toContain('missing');
    } finally {
      delete polluted.limit;
    }
  });
});
