/**
 * `list(...).since(time)` on the newest-first lists: the items created at or
 * after a time, ending at the first older item with no request beyond its
 * page (look-ahead included); its argument checked before sending; refused
 * at run time on lists whose items document no `created_at`; an item whose `created_at`
 * is not a time ends the walk with an error, never silently.
 */
import { describe, expect, it } from 'vitest';
import { type Client, LunasError, RequestValidationError, type SinceWalk } from '../../../../src/index.js';
import { chargeJson, transferJson } from '../../../helpers/fixtures.js';
import { makeClient } from '../../../helpers/msw.js';
import { serveList } from '../../../helpers/pages.js';
import { walkAll } from '../../../helpers/recorders.js';
import { countRequests } from '../../../helpers/requests.js';
import { rejection } from '../../../helpers/rejection.js';

const NEWEST = Date.parse('2026-11-23T12:00:00Z');
/** Item `i` is created `i` minutes before {@link NEWEST}. */
const minutesBefore = (i: number) => new Date(NEWEST - i * 60_000).toISOString();

type Walkable = (client: Client) => { since(time: Date | string): SinceWalk<{ id: string; created_at: string }> };

const LISTS: [string, string, Walkable, (i: number) => Record<string, unknown>][] = [
  [
    'charges',
    '/v1/payments/charges',
    (client) => client.charges.list({ pagesize: 10 }),
    (i) => chargeJson({ id: `ch_${i}`, created_at: minutesBefore(i) }),
  ],
  [
    'transfers',
    '/v1/transfers',
    (client) => client.transfers.list({ pagesize: 10 }),
    (i) => transferJson({ id: `tr_${i}`, created_at: minutesBefore(i) }),
  ],
];

const ids = (items: { id: string }[]) => items.map((item) => item.id);

describe.each(LISTS)('%s: since(time)', (_name, path, list, make) => {
  const items = Array.from({ length: 45 }, (_, i) => make(i));
  const expected = (count: number) => ids(items.slice(0, count) as { id: string }[]);

  it('yields the items created at or after the time and requests no page after the one holding the first older item', async () => {
    const seen = serveList(path, { items });
    const walked: { id: string }[] = [];
    // Items 0 to 24 are within 24 minutes; item 25, on page 3, is the boundary.
    for await (const item of list(makeClient()).since(new Date(NEWEST - 24 * 60_000))) walked.push(item);
    expect(ids(walked)).toEqual(expected(25));
    expect(seen.map((request) => request.page)).toEqual([1, 2, 3]);
  });

  it('counts an item created exactly at the time as within it, and takes an ISO string with a zone', async () => {
    const seen = serveList(path, { items });
    const walked: { id: string }[] = [];
    // 13:00 at +01:00 is item 0's 12:00Z exactly.
    for await (const item of list(makeClient()).since('2026-11-23T13:00:00+01:00')) walked.push(item);
    expect(ids(walked)).toEqual(expected(1));
    expect(seen.map((request) => request.page)).toEqual([1]);
  });

  it('when the boundary is the first item of a page, that page is the last one requested', async () => {
    const seen = serveList(path, { items });
    const walked = await list(makeClient())
      .since(new Date(NEWEST - 19 * 60_000))
      .toArray({ limit: 100 });
    expect(ids(walked)).toEqual(expected(20));
    expect(seen.map((request) => request.page)).toEqual([1, 2, 3]);
  });

  it('walks to the end of a list with no older item', async () => {
    const seen = serveList(path, { items });
    const walked = await list(makeClient()).since(new Date(0)).toArray({ limit: 1000 });
    expect(ids(walked)).toEqual(expected(45));
    expect(seen.map((request) => request.page)).toEqual([1, 2, 3, 4, 5]);
  });

  it('toArray stops at its limit when that comes before the time, with no page beyond the limit', async () => {
    const seen = serveList(path, { items });
    const walked = await list(makeClient()).since(new Date(0)).toArray({ limit: 15 });
    expect(ids(walked)).toEqual(expected(15));
    expect(seen.map((request) => request.page)).toEqual([1, 2]);
  });

  it('leaving the loop early requests nothing past the one page fetched ahead', async () => {
    const seen = serveList(path, { items });
    for await (const item of list(makeClient()).since(new Date(0))) {
      expect(item.id).toBe(expected(1)[0]);
      break;
    }
    expect(seen.map((request) => request.page)).toEqual([1, 2]);
  });

  it('an item whose created_at is not a time ends the walk with a LunasError naming it, after the items before it', async () => {
    const broken = items.map((item, i) => (i === 12 ? { ...item, created_at: 'last Tuesday' } : item));
    const seen = serveList(path, { items: broken });
    const { yielded: walked, error } = await walkAll(list(makeClient()).since(new Date(0)));
    expect(error).toBeInstanceOf(LunasError);
    const { message } = error as LunasError;
    expect(message).toContain(`"${expected(13)[12]}"`);
    expect(message).toContain('"last Tuesday"');
    expect(ids(walked)).toEqual(expected(12));
    expect(seen.map((request) => request.page)).toEqual([1, 2]);
  });
});

describe('the time given', () => {
  it.each<[string, unknown]>([
    ['nothing', undefined],
    ['null', null],
    ['an invalid Date', new Date(Number.NaN)],
    ['a number (seconds or milliseconds?)', 1_700_000_000],
    ['a string without a zone', '2026-11-23T12:00:00'],
    ['a date without a time', '2026-11-23'],
    ['words', 'yesterday'],
    ['a date that does not exist', '2026-02-30T00:00:00Z'],
  ])('%s: RequestValidationError on since, nothing sent, for await and toArray alike', async (_label, time) => {
    const requests = countRequests();
    const walk = makeClient()
      .charges.list()
      .since(time as Date);
    const iterated = await rejection(walk[Symbol.asyncIterator]().next(), RequestValidationError);
    const collected = await rejection(walk.toArray({ limit: 5 }), RequestValidationError);
    for (const error of [iterated, collected]) expect(Object.keys(error.fields)).toEqual(['since']);
    expect(requests.count()).toBe(0);
  });

  it('a bad limit is refused before sending too', async () => {
    const requests = countRequests();
    const walk = makeClient().transfers.list().since(new Date());
    const error = await rejection(walk.toArray({ limit: 0 }), RequestValidationError);
    expect(Object.keys(error.fields)).toEqual(['limit']);
    expect(requests.count()).toBe(0);
  });
});

describe('lists whose items document no created_at', () => {
  it.each<[string, (client: Client) => unknown]>([
    ['payouts', (client) => client.payouts.list()],
    ['payment methods', (client) => client.paymentMethods.list({ pagesize: 5 })],
  ])('%s: since() from JavaScript rejects with RequestValidationError, nothing sent', async (_name, list) => {
    const requests = countRequests();
    const walk = (list(makeClient()) as { since(time: Date): SinceWalk<unknown> }).since(new Date());
    const error = await rejection(walk.toArray({ limit: 5 }), RequestValidationError);
    expect(error.fields.since?.[0]).toBe(
      "since() needs a list whose items document created_at (charges, transfers); this one's do not",
    );
    await rejection(walk[Symbol.asyncIterator]().next(), RequestValidationError);
    expect(requests.count()).toBe(0);
  });
});
