/**
 * core/lists/walk-rules.ts: what a walk decides for each item and page, seen
 * through `for await`. No item twice, however the list shifts between pages;
 * the documented order of charges and transfers checked, never trusted (a
 * warn-level line, not an error); total_items never a rule of the walk; and a
 * walk that makes no progress ends with a LunasError, never loops.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { type LogLevel, LunasError, ResponseValidationError } from '../../../../src/index.js';
import { makeClient, server } from '../../../helpers/msw.js';
import { collect, makeItems, type SeenListRequest, serveList } from '../../../helpers/pages.js';
import { walkAll } from '../../../helpers/recorders.js';
import { seeRequest } from '../../../helpers/seen-request.js';
import { BASE_URL, chargeJson, transferJson } from '../../../helpers/fixtures.js';

const PAYOUTS = '/v1/payouts';
const CHARGES = '/v1/payments/charges';

/** The time `second` seconds after a fixed instant, as a `created_at`. */
const at = (second: number) => new Date(Date.UTC(2026, 10, 23, 3, 0, 0) + second * 1000).toISOString();

/** A client whose warn-level log lines are collected in `lines`. */
function warnLog(logLevel: LogLevel = 'warn') {
  const lines: string[] = [];
  const ignore = () => undefined;
  const logger = { debug: ignore, info: ignore, warn: (line: string) => lines.push(line), error: ignore };
  return { lines, client: makeClient({ logger, logLevel }) };
}

describe('no item twice', () => {
  it('items shifted onto the next page by new items at the head are yielded once', async () => {
    const original = makeItems(25, 'old_');
    let list = [...original];
    let created = 0;
    const seen = serveList(PAYOUTS, {
      items: () => list,
      // After serving each page, two charges are created (newest first).
      after: () => {
        list = [{ id: `new_${created++}`, n: -1 }, { id: `new_${created++}`, n: -1 }, ...list];
      },
    });
    const all = await collect(makeClient().payouts.list({ pagesize: 10 }));
    const ids = all.map((item) => item.id);
    // Every original item exactly once, in order; the new ones landed on pages already read.
    expect(ids).toEqual(original.map((item) => item.id));
    expect(seen.map((s) => s.page)).toEqual([1, 2, 3]);
  });

  it('items shifted again on the following fetch (6 new per fetch, pagesize 10) are still yielded once', async () => {
    // Page 1: old_0..9. +6: page 2 = old_4..13 (old_4..9 skipped). +6 more: page 3 = old_8..17,
    // where old_8 and old_9 were yielded on page 1 and skipped on page 2.
    const original = makeItems(30, 'old_');
    let list = [...original];
    let created = 0;
    serveList(PAYOUTS, {
      items: () => list,
      after: () => {
        const fresh = Array.from({ length: 6 }, () => ({ id: `new_${created++}`, n: -1 }));
        list = [...fresh, ...list];
      },
    });
    const ids = (await collect(makeClient().payouts.list({ pagesize: 10 }))).map((item) => String(item.id));
    const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(duplicates).toEqual([]);
    expect(ids.filter((id) => id.startsWith('old_')).sort()).toEqual(original.map((item) => item.id).sort());
  });

  it('charges shifted by more than a whole page between fetches are yielded once, without a warning', async () => {
    // 12 new charges per fetch with pagesize 10: page 2 starts with 2 new charges and
    // then holds page 1's items again; page 3 holds the rest of page 1 and more.
    const original = Array.from({ length: 30 }, (_, i) => chargeJson({ id: `ch_old_${i}`, created_at: at(1000 - i) }));
    let list = [...original];
    let created = 0;
    serveList('/v1/payments/charges', {
      items: () => list,
      after: (request) => {
        // Busy only while pages 1 and 2 are read, so the walk can end.
        if (request.page > 2) return;
        const fresh = Array.from({ length: 12 }, () =>
          chargeJson({ id: `ch_new_${created}`, created_at: at(2000 + created++) }),
        );
        list = [...fresh.reverse(), ...list];
      },
    });
    const { lines, client } = warnLog();
    const ids = (await collect(client.charges.list({ pagesize: 10 }))).map((charge) => charge.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ids.filter((id) => id.startsWith('ch_old_'))).toEqual(original.map((charge) => charge.id));
    // The new charges pushed onto later pages are not repeats: they are yielded, and
    // being newer than everything on the first page, they are no sign of disorder.
    expect(ids.filter((id) => id.startsWith('ch_new_')).length).toBeGreaterThan(0);
    expect(lines).toEqual([]);
  });

  it('charges sharing one created_at across page boundaries are all yielded', async () => {
    const items = Array.from({ length: 25 }, (_, i) =>
      chargeJson({ id: `ch_${i}`, created_at: '2026-11-23T03:00:00Z' }),
    );
    serveList('/v1/payments/charges', { items });
    const ids = (await collect(makeClient().charges.list({ pagesize: 10 }))).map((charge) => charge.id);
    expect(ids).toEqual(items.map((charge) => charge.id));
  });

  it('items with timestamps in another field name or format are not dropped', async () => {
    // created_at is optional for payouts; a walk must not lose items that lack it.
    const items = [
      { id: 'a', created_at: '2026-11-23T03:00:05Z' },
      { id: 'b' },
      { id: 'c', created_at: 'yesterday' },
      { id: 'd', created_at: '2026-11-23T03:00:01Z' },
    ];
    serveList(PAYOUTS, { items });
    expect(await collect(makeClient().payouts.list({ pagesize: 2 }))).toEqual(items);
  });

  it('an item repeated inside one page is yielded once', async () => {
    serveList(PAYOUTS, { items: [{ id: 'a' }, { id: 'a' }, { id: 'b' }] });
    expect(await collect(makeClient().payouts.list({ pagesize: 10 }))).toEqual([{ id: 'a' }, { id: 'b' }]);
  });
});

describe('lists whose order is not documented (payouts, payment methods)', () => {
  const oldestFirst = [
    { id: 'x_1', created_at: '2026-01-01T00:00:00Z' },
    { id: 'x_2', created_at: '2026-01-02T00:00:00Z' },
    { id: 'x_3', created_at: '2026-01-03T00:00:00Z' },
  ];

  it.each([
    ['payouts', PAYOUTS],
    ['paymentMethods', '/v1/payments/methods'],
  ] as const)(
    '%s: a one-page list served oldest first yields all of its items, without a warning',
    async (name, path) => {
      serveList(path, { items: oldestFirst });
      const { lines, client } = warnLog();
      expect(await collect(client[name].list())).toEqual(oldestFirst);
      expect(lines).toEqual([]);
    },
  );

  it('more than a page of new items before each request, without timestamps: every item once', async () => {
    const original = makeItems(40, 'old_');
    let list: unknown[] = [...original];
    let created = 0;
    serveList(PAYOUTS, {
      items: () => list,
      // 15 new payouts after each of the first three pages, pagesize 10.
      after: (request) => {
        if (request.page > 3) return;
        const fresh = Array.from({ length: 15 }, () => ({ id: `new_${created++}` }));
        list = [...fresh.reverse(), ...list];
      },
    });
    const ids = (await collect(makeClient().payouts.list({ pagesize: 10 }))).map((item) => String(item.id));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ids.filter((id) => id.startsWith('old_'))).toEqual(original.map((item) => item.id));
  });

  it('a shift of 10,000 items between two requests (the ids a walk remembers) yields no item twice', async () => {
    const original = makeItems(10_100, 'old_');
    let list: unknown[] = original;
    serveList(PAYOUTS, {
      items: () => list,
      after: (request) => {
        if (request.page === 100) list = [...makeItems(10_000, 'new_'), ...original];
      },
    });
    const { lines, client } = warnLog();
    const ids = (await collect(client.payouts.list({ pagesize: 100 }))).map((item) => String(item.id));
    expect(ids).toEqual(original.map((item) => item.id));
    expect(lines).toEqual([]);
  });

  it('a shift of more than 10,000 items drops nothing, and logs nothing about total_items', async () => {
    const original = makeItems(10_100, 'old_');
    let list: unknown[] = original;
    serveList(PAYOUTS, {
      items: () => list,
      after: (request) => {
        if (request.page === 100) list = [...makeItems(10_001, 'new_'), ...original];
      },
    });
    const { lines, client } = warnLog();
    const ids = new Set((await collect(client.payouts.list({ pagesize: 100 }))).map((item) => String(item.id)));
    expect(original.every((item) => ids.has(item.id))).toBe(true);
    expect(lines).toEqual([]);
  });
});

describe('newest-first lists (charges, transfers): the order is checked, never trusted', () => {
  const skewed = [
    { id: 'a', second: 5 },
    { id: 'b', second: 1 },
    // Written by a server whose clock runs ahead: newer than b, listed after it.
    { id: 'c', second: 3 },
    { id: 'd', second: 0 },
  ];

  it.each([
    ['charges', CHARGES, chargeJson],
    ['transfers', '/v1/transfers', transferJson],
  ] as const)(
    '%s whose created_at contradicts the order are all yielded, with a warning naming the item',
    async (name, path, make) => {
      serveList(path, { items: skewed.map(({ id, second }) => make({ id, created_at: at(second) })) });
      const { lines, client } = warnLog();
      const list: AsyncIterable<{ id: string }> = client[name].list({ pagesize: 2 });
      const ids = (await collect(list)).map((item) => item.id);
      expect(ids).toEqual(['a', 'b', 'c', 'd']);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`lunas: GET ${path}: item c created_at ${at(3)} came after`);
      expect(lines[0]).toContain(
        `created_at ${at(1)}, but the list is newest first. It was yielded, and is not a repeat (the walk forgot no item it saw)`,
      );
    },
  );

  it('the warning is a log line at warn level: a client logging errors only stays quiet', async () => {
    serveList(CHARGES, { items: skewed.map(({ id, second }) => chargeJson({ id, created_at: at(second) })) });
    const { lines, client } = warnLog('error');
    expect((await collect(client.charges.list({ pagesize: 2 }))).map((charge) => charge.id)).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(lines).toEqual([]);
  });

  it('more than ten items out of order: ten lines, then one line with the count when the walk ends', async () => {
    // Every other charge is 100 s newer than its place: 14 of them come after an older one.
    const items = Array.from({ length: 30 }, (_, i) =>
      chargeJson({ id: `ch_${i}`, created_at: at(1000 - i - (i % 2 === 0 && i > 0 ? -100 : 0)) }),
    );
    serveList(CHARGES, { items });
    const { lines, client } = warnLog();
    const ids = (await collect(client.charges.list({ pagesize: 100 }))).map((charge) => charge.id);
    expect(ids).toEqual(items.map((charge) => charge.id));
    expect(lines).toHaveLength(11);
    expect(lines[9]).toContain('Further such items are counted at the end.');
    expect(lines[10]).toBe(
      'lunas: GET /v1/payments/charges: 4 more items came after older ones in this walk; they were yielded, without a line each',
    );
  });

  it('an item deleted before page 2 and brought back by creations before page 3: yielded once, and the warning says it is not a repeat', async () => {
    // The shrunk counterexample of the property test: transfers c, b, a (newest first), one a page.
    const [a, b, c, d, e] = [0, 1, 2, 3, 4].map((second) =>
      transferJson({ id: `tr_${second}`, created_at: at(second) }),
    );
    let list = [c, b, a];
    const seen = serveList('/v1/transfers', {
      items: () => list,
      after: (request) => {
        // Deleting c moves b onto page 1, already read; two creations push it back to page 3.
        if (request.page === 1) list = [b, a];
        if (request.page === 2) list = [e, d, b, a];
      },
    });
    const { lines, client } = warnLog();
    const ids = (await collect(client.transfers.list({ pagesize: 1 }))).map((transfer) => transfer.id);
    expect(ids).toEqual(['tr_2', 'tr_0', 'tr_1']);
    expect(seen.map((request) => request.page)).toEqual([1, 2, 3, 4, 5]);
    expect(lines).toEqual([
      `lunas: GET /v1/transfers: item tr_1 created_at ${at(1)} came after an item created_at ${at(0)}, but the ` +
        `list is newest first. It was yielded, and is not a repeat (the walk forgot no item it saw): ` +
        `the service's clocks are out of step, or items deleted and created between two pages moved it back.`,
    ]);
  });

  it('once a walk has forgotten ids, an item newer than one yielded may be a repeat, and the warning says so', async () => {
    // 10,100 charges, then the first page's 100 again: by then the walk remembers only the last 10,000.
    const charges = Array.from({ length: 10_100 }, (_, i) => chargeJson({ id: `ch_${i}`, created_at: at(20_000 - i) }));
    serveList(CHARGES, { items: [...charges, ...charges.slice(0, 100)] });
    const { lines, client } = warnLog();
    const ids = (await collect(client.charges.list({ pagesize: 100 }))).map((charge) => charge.id);
    expect(ids).toEqual([...charges, ...charges.slice(0, 100)].map((charge) => charge.id));
    // ch_0 is as new as the first page's newest, so not suspect; ch_1 to ch_99 are: ten lines, then the count.
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe(
      `lunas: GET /v1/payments/charges: item ch_1 created_at ${at(19_999)} came after an item created_at ` +
        `${at(9_901)}, but the list is newest first. It was yielded, and is a repeat if the list shifted by more ` +
        `than the 10000 items a walk remembers between two pages; if not, the service's clocks are out of step, ` +
        `or items deleted and created between two pages moved it back.`,
    );
    expect(lines[10]).toContain(': 89 more items came after older ones in this walk');
  });

  it('charges without a readable created_at are yielded, without a warning', async () => {
    const items = [
      chargeJson({ id: 'a', created_at: at(5) }),
      chargeJson({ id: 'b', created_at: 'not a date' }),
      chargeJson({ id: 'c', created_at: at(4) }),
    ];
    serveList(CHARGES, { items });
    const { lines, client } = warnLog();
    expect((await collect(client.charges.list())).map((charge) => charge.id)).toEqual(['a', 'b', 'c']);
    expect(lines).toEqual([]);
  });
});

describe('total_items is information, never a rule of the walk', () => {
  it('a cached count that lags by 6: for await yields every item and a direct list({ page: 6 }) returns the page', async () => {
    const items = makeItems(36);
    const seen = serveList(PAYOUTS, { items, envelope: (body) => ({ ...body, total_items: 30 }) });
    expect(await collect(makeClient().payouts.list({ pagesize: 6 }))).toEqual(items);
    expect(seen.map((request) => request.page)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const page = await makeClient().payouts.list({ page: 6, pagesize: 6 });
    expect(page.data).toEqual(items.slice(30));
    expect(page.total_items).toBe(30);
    expect(page.hasNextPage()).toBe(true);
  });

  it.each([
    ['0', () => 0],
    ['too large', () => 1_000_000],
    ['negative', () => -3],
    ['changing between pages', (request: number) => [0, 7, 400, 2][request % 4]!],
  ])('a count that is %s neither stops, fails nor shortens a walk', async (_, total) => {
    const items = makeItems(37);
    const seen = serveList(PAYOUTS, {
      items,
      envelope: (body, request) => ({ ...body, total_items: total(seen.indexOf(request)) }),
    });
    expect(await collect(makeClient().payouts.list({ pagesize: 10 }))).toEqual(items);
    const pages = await collect((await makeClient().payouts.list({ pagesize: 10 })).iterPages());
    expect(pages.map((page) => page.page)).toEqual([1, 2, 3, 4]);
  });

  it('two items created and two deleted between pages (net zero): every item still there is yielded once', async () => {
    const original = makeItems(8, 'old_');
    let list: unknown[] = original;
    serveList(PAYOUTS, {
      items: () => list,
      after: (request) => {
        // The two newest are new; the two deleted were on page 2, not yet read.
        if (request.page === 1)
          list = [{ id: 'new_1' }, { id: 'new_0' }, ...original.filter((_, i) => i !== 2 && i !== 3)];
      },
    });
    const { yielded, error } = await walkAll(makeClient().payouts.list({ pagesize: 2 }));
    expect(error).toBeUndefined();
    expect(yielded.map((item) => item.id)).toEqual(['old_0', 'old_1', 'old_4', 'old_5', 'old_6', 'old_7']);
  });

  it('a page holding more items than page_size, overlapping the next: every item once, no error', async () => {
    const items = makeItems(12);
    // Page n holds the items of pages n and n + 1.
    serveList(PAYOUTS, {
      items,
      envelope: (body, request) => ({ ...body, data: items.slice((request.page - 1) * 3, (request.page + 1) * 3) }),
    });
    const { yielded, error } = await walkAll(makeClient().payouts.list({ pagesize: 3 }));
    expect(error).toBeUndefined();
    expect(yielded).toEqual(items);
  });
});

describe('a walk that makes no progress ends with a LunasError, never loops', () => {
  /** A service answering page n with `pageFor(n)`, echoing the page asked for, whatever it says about total_items. */
  function stuck(pageFor: (page: number) => unknown[], total: (requestIndex: number) => number = () => 25) {
    const seen: SeenListRequest[] = [];
    server.use(
      http.get(`${BASE_URL}${PAYOUTS}`, async ({ request }) => {
        const url = new URL(request.url);
        const page = Number(url.searchParams.get('page'));
        const size = Number(url.searchParams.get('pagesize'));
        seen.push({ ...(await seeRequest(request)), page, pagesize: size });
        // So a broken walk fails the test instead of hanging it.
        const data = seen.length > 500 ? [] : pageFor(page);
        return HttpResponse.json({ status: 'success', data, page, page_size: size, total_items: total(seen.length) });
      }),
    );
    return seen;
  }

  /** The error ending a walk whose full pages of 100 brought nothing new from page `from` to page `to`. */
  const message = (to: number, from: number) =>
    `GET /v1/payouts: the pages up to ${to} held nothing new for ${(to - from + 1) * 100} places in a row, more ` +
    'than the 10000 items a walk remembers. Either the service is sending pages already read instead of those ' +
    'asked for, or new items push the list down as fast as the walk reads it. The walk stopped rather than loop; ' +
    'walk again later (pagesize 100 outruns a busy list), and report it to the service if it persists.';

  it('the same full page whatever page says: each item once, then a LunasError at page 102', async () => {
    const items = makeItems(100);
    const seen = stuck(() => items);
    const { yielded, error } = await walkAll(makeClient().payouts.list({ pagesize: 100 }));
    expect(yielded).toEqual(items);
    expect(error).toBeInstanceOf(LunasError);
    expect(error).not.toBeInstanceOf(ResponseValidationError);
    expect((error as LunasError).message).toBe(message(102, 2));
    // The pages read, and at most the look-ahead for the next one (aborted).
    expect(seen.length).toBeLessThanOrEqual(103);
  });

  it('whatever total_items says (creeping up, growing by a page each time, 0)', async () => {
    for (const total of [(i: number) => 25 + i, (i: number) => 100 * i, () => 0]) {
      const seen = stuck(() => makeItems(100), total);
      const { error } = await walkAll(makeClient().payouts.list({ pagesize: 100 }));
      expect((error as LunasError).message).toBe(message(102, 2));
      expect(seen.length).toBeLessThanOrEqual(103);
    }
  });

  it('a service cycling through pages 1 to 3: every item once, then a LunasError', async () => {
    const items = makeItems(300);
    const seen = stuck((page) => items.slice(((page - 1) % 3) * 100, ((page - 1) % 3) * 100 + 100));
    const { yielded, error } = await walkAll(makeClient().payouts.list({ pagesize: 100 }));
    expect(yielded).toEqual(items);
    expect((error as LunasError).message).toBe(message(104, 4));
    expect(seen.length).toBeLessThanOrEqual(105);
  });

  it('items without an id on a service repeating one full page: yielded as sent, then a LunasError', async () => {
    const items = Array.from({ length: 100 }, (_, n) => ({ n }));
    const seen = stuck(() => items);
    const { yielded, error } = await walkAll(makeClient().payouts.list({ pagesize: 100 }));
    // Without ids nothing can be recognised as a repeat to skip: each page is yielded as sent.
    expect(yielded).toHaveLength(102 * 100);
    expect((error as LunasError).message).toBe(message(102, 2));
    expect(seen.length).toBeLessThanOrEqual(103);
  });

  it('items without an id on a service cycling through two pages: a LunasError too', async () => {
    const seen = stuck((page) => Array.from({ length: 100 }, (_, n) => ({ n, odd: page % 2 === 1 })));
    const { error } = await walkAll(makeClient().payouts.list({ pagesize: 100 }));
    expect((error as LunasError).message).toBe(message(103, 3));
    expect(seen.length).toBeLessThanOrEqual(104);
  });

  it('iterPages ends the same way', async () => {
    const seen = stuck(() => makeItems(100));
    const { yielded: pages, error } = await walkAll((await makeClient().payouts.list({ pagesize: 100 })).iterPages());
    expect(pages.map((page) => page.page)).toEqual(Array.from({ length: 102 }, (_, i) => i + 1));
    expect((error as LunasError).message).toBe(message(102, 2));
    expect(seen.length).toBeLessThanOrEqual(103);
  });

  /** 150 items, and a page of 100 new ones created after each of the first `bursts` requests. */
  function growing(bursts: number) {
    const original = makeItems(150, 'old_');
    let list: unknown[] = original;
    let created = 0;
    serveList(PAYOUTS, {
      items: () => list,
      after: (request) => {
        if (request.page <= bursts)
          list = [...Array.from({ length: 100 }, () => ({ id: `new_${created++}` })), ...list];
      },
    });
    return original;
  }

  it('a list growing by exactly a page before 100 requests in a row (10,000 places): every item once, no error', async () => {
    const original = growing(100);
    const { yielded, error } = await walkAll(makeClient().payouts.list({ pagesize: 100 }));
    expect(error).toBeUndefined();
    expect(yielded.map((item) => item.id)).toEqual(original.map((item) => item.id));
  });

  it('the same list growing by a page before 101 requests in a row: a LunasError', async () => {
    growing(101);
    const { error } = await walkAll(makeClient().payouts.list({ pagesize: 100 }));
    expect((error as LunasError).message).toBe(message(102, 2));
  });

  it('a page_size below 1 is a ResponseValidationError at page_size', async () => {
    serveList(PAYOUTS, { items: makeItems(3), envelope: (body) => ({ ...body, page_size: 0 }) });
    const error = await makeClient()
      .payouts.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('page_size');
  });
});
