/**
 * The pagination walker against a model of the service, property-based: a
 * newest-first list of random length, random page sizes, and between page
 * requests random interleavings of items created at the head and deleted
 * anywhere, pages that hold more items than their page_size, and a
 * `total_items` that is right, 0, stale, lagging, too large or different on
 * every page. A walk relies on the pages alone, so on a list that makes
 * progress `for await`:
 *
 * - yields every item of every page it reads, unless it yielded it already,
 *   and never an item twice (items without an id are never skipped);
 * - with creations only, yields every item present at the start exactly once
 *   (deletions can move an unread item onto a page already read: no client
 *   can see that);
 * - requests pages 1, 2, ... in turn and stops at the first page shorter than
 *   its page_size, with no request after it, so it never ends while the
 *   service would still return unseen items, and never fails.
 *
 * With created_at consistent with the order and no deletions no warning is
 * logged; with deletions (which, followed by creations, bring an unread item
 * back behind items already read) or out of step (clock skew), each warning
 * names an item that did come after an older one, and says it is not a repeat
 * (these walks are shorter than the ids a walk remembers).
 *
 * A service that makes no progress (resending one page or cycling through a
 * few, with or without ids, whatever its total_items) ends the walk with a
 * `LunasError` within the bound pagination.ts documents: more than 10,000
 * places in a row with nothing new. A list growing by exactly a page before
 * each request ends the walk exactly when that span passes 10,000.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REMEMBERED_IDS } from '../../src/core/lists/walk-rules.js';
import { LunasError, ResponseValidationError } from '../../src/index.js';
import { walkAll } from '../helpers/recorders.js';
import { listResponse, wireClient } from '../helpers/wire.js';
import { chargeJson, transferJson } from '../helpers/fixtures.js';
import { type SeenRequest } from '../helpers/seen-request.js';

const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 80);
const EPOCH = Date.parse('2026-01-01T00:00:00.000Z');

interface Scenario {
  endpoint: 'payouts' | 'paymentMethods' | 'charges' | 'transfers';
  /** Items when the walk begins. */
  total: number;
  /** The pagesize asked for; undefined leaves the service's default (10). */
  pagesize: number | undefined;
  /** Items created at the head before request i + 1 (the first request sees none). */
  created: number[];
  /** Items deleted before request i + 1, after that request's creations: each a place in the list, as a fraction. */
  deleted: number[][];
  /** Items each page holds beyond its page_size (overlapping the next page). */
  extra: number;
  /** Payouts and payment methods: whether items carry an id. */
  withIds: boolean;
  /** What total_items says. */
  counts: Counts;
  timestamps: boolean;
  /** Consecutive items sharing one created_at. */
  tie: number;
  /** Up to how many ms each created_at is off (0: consistent with the order). */
  skewMs: number;
  /** Picks each item's skew. */
  seed: number;
}

/** How wrong the service's total_items is. */
type Counts = 'right' | 'zero' | 'stale' | 'lagging' | 'too large' | 'changing';
const COUNTS: Counts[] = ['right', 'zero', 'stale', 'lagging', 'too large', 'changing'];

/** What a service with `length` items says total_items is, on its request `index` (0-based). */
function count(counts: Counts, length: number, first: number, index: number, seed: number): number {
  switch (counts) {
    case 'right':
      return length;
    case 'zero':
      return 0;
    case 'stale':
      return first;
    case 'lagging':
      return length - 6;
    case 'too large':
      return length + 1_000;
    case 'changing':
      return Math.abs(offset(index, seed, 2 * length + 5));
  }
}

/** A pseudo-random offset in [-range, range] for item `sequence`, fixed by `seed`. */
function offset(sequence: number, seed: number, range: number): number {
  if (range === 0) return 0;
  const mixed = Math.imul(sequence + 1, 2_654_435_761) ^ seed;
  return (Math.abs(mixed) % (2 * range + 1)) - range;
}

/** The service: a newest-first list, paged by the spec's rules, changed as told before each request. */
class ServiceModel {
  /** Oldest first; the list is served reversed. */
  items: Record<string, unknown>[] = [];
  readonly served: { page: number; size: number; data: Record<string, unknown>[] }[] = [];
  /** The newest-first list as the last request saw it. */
  last: Record<string, unknown>[] = [];
  #sequence = 0;

  constructor(readonly scenario: Scenario) {
    this.#create(scenario.total);
  }

  #create(count: number): void {
    const { endpoint, tie, skewMs, seed, withIds } = this.scenario;
    for (let i = 0; i < count; i++) {
      const sequence = this.#sequence++;
      const id = `it_${String(sequence).padStart(5, '0')}`;
      const time = EPOCH + Math.floor(sequence / tie) * 1000 + offset(sequence, seed, skewMs);
      const createdAt = new Date(time).toISOString();
      const base: Record<string, unknown> =
        endpoint === 'charges'
          ? chargeJson({ id, created_at: createdAt, updated_at: createdAt })
          : endpoint === 'transfers'
            ? transferJson({ id, created_at: createdAt, updated_at: createdAt })
            : withIds
              ? { id, n: sequence }
              : { n: sequence };
      if ((endpoint === 'payouts' || endpoint === 'paymentMethods') && this.scenario.timestamps) {
        base.created_at = createdAt;
      }
      this.items.push(base);
    }
  }

  #delete(places: readonly number[]): void {
    for (const place of places) {
      if (this.items.length === 0) return;
      this.items.splice(Math.min(this.items.length - 1, Math.floor(place * this.items.length)), 1);
    }
  }

  answer(request: SeenRequest): Response {
    const index = this.served.length;
    if (index > 0) {
      this.#create(this.scenario.created[index - 1] ?? 0);
      this.#delete(this.scenario.deleted[index - 1] ?? []);
    }
    const rawPage = Number(request.url.searchParams.get('page') ?? '1');
    const rawSize = Number(request.url.searchParams.get('pagesize') ?? '10');
    const page = Number.isInteger(rawPage) && rawPage >= 1 ? rawPage : 1;
    const size = Math.min(Number.isInteger(rawSize) && rawSize >= 1 ? rawSize : 10, 100);
    const newestFirst = this.items.slice().reverse();
    this.last = newestFirst;
    const data = newestFirst.slice((page - 1) * size, page * size + this.scenario.extra);
    this.served.push({ page, size, data });
    const { counts, total, seed } = this.scenario;
    const total_items = count(counts, newestFirst.length, total, index, seed);
    return listResponse(data, page, size, total_items);
  }
}

function scenario(kind: 'no timestamps' | 'consistent' | 'skewed', changes = true): fc.Arbitrary<Scenario> {
  const timestamps = kind !== 'no timestamps';
  const fraction = fc.double({ min: 0, max: 1, noNaN: true });
  return fc
    .record({
      endpoint:
        kind === 'no timestamps'
          ? fc.constantFrom('payouts', 'paymentMethods')
          : kind === 'consistent'
            ? fc.constantFrom('payouts', 'paymentMethods', 'charges', 'transfers')
            : fc.constantFrom('charges', 'transfers'),
      total: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 250 })),
      pagesize: fc.option(fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 100 })), {
        nil: undefined,
      }),
      timestamps: fc.constant(timestamps),
      tie: timestamps ? fc.constantFrom(1, 1, 2, 3, 7) : fc.constant(1),
      skewMs: kind === 'skewed' ? fc.integer({ min: 1, max: 5_000 }) : fc.constant(0),
      seed: fc.integer(),
      shift: fraction,
      created: changes ? fc.array(fraction, { maxLength: 12 }) : fc.constant<number[]>([]),
      deleted: changes
        ? fc.oneof(fc.constant<number[][]>([]), fc.array(fc.array(fraction, { maxLength: 6 }), { maxLength: 12 }))
        : fc.constant<number[][]>([]),
      extra: changes ? fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 15 })) : fc.constant(0),
      withIds: kind === 'no timestamps' && changes ? fc.boolean() : fc.constant(true),
      counts: fc.constantFrom(...COUNTS),
    })
    .map(({ shift, created, ...rest }) => {
      const size = rest.pagesize ?? 10;
      // Up to three pages of shift per request.
      const most = Math.ceil(3 * size * shift);
      // fraction can be exactly 1: clamp, or the bound above would be exceeded by one.
      return { ...rest, created: created.map((fraction) => Math.min(most, Math.floor(fraction * (most + 1)))) };
    });
}

interface Walked {
  yielded: Record<string, unknown>[];
  requests: SeenRequest[];
  warnings: string[];
}

async function walk(model: ServiceModel): Promise<Walked> {
  const warnings: string[] = [];
  const ignore = () => undefined;
  const logger = { debug: ignore, info: ignore, warn: (line: string) => warnings.push(line), error: ignore };
  const { client, sent } = wireClient((request) => model.answer(request), { logger, logLevel: 'warn' });
  const params = model.scenario.pagesize === undefined ? {} : { pagesize: model.scenario.pagesize };
  const list: AsyncIterable<object> = client[model.scenario.endpoint].list(params);
  const yielded: Record<string, unknown>[] = [];
  for await (const item of list) yielded.push({ ...item });
  return { yielded, requests: sent, warnings };
}

/**
 * The order warnings of a walk that forgot nothing: each names an item that did
 * come after an older one, and says it is not a repeat. Returns how many there were.
 */
function checkOrderWarnings({ yielded, warnings }: Walked): number {
  const times = yielded.map((item) => Date.parse(String(item.created_at)));
  const cameAfterOlder = new Set(
    yielded
      .filter((_, index) => times.slice(0, index).some((time) => time < times[index]!))
      .map((item) => String(item.id)),
  );
  for (const line of warnings) {
    const named = /: item (\S+) created_at /.exec(line)?.[1];
    if (named === undefined) continue; // the count of the rest
    expect(cameAfterOlder).toContain(named);
    expect(line).toContain('It was yielded, and is not a repeat');
  }
  // Ten lines at most, plus one with the count of the rest.
  expect(warnings.length).toBeLessThanOrEqual(11);
  return warnings.length;
}

/** What the walk must have done on a list that makes progress (it returned: it did not fail). */
function checkWalk(model: ServiceModel, { yielded, requests }: Walked): void {
  const { scenario, served } = model;
  const key = (item: Record<string, unknown>) => (scenario.withIds ? String(item.id) : JSON.stringify(item));
  const read = served.flatMap((page) => page.data.map(key));
  if (scenario.withIds) {
    // Every item of every page read, unless already yielded; never twice; in the order read.
    expect(yielded.map(key)).toEqual([...new Set(read)]);
  } else {
    // Without ids nothing is recognised, so nothing is skipped: the pages as sent.
    expect(yielded.map(key)).toEqual(read);
  }
  if (scenario.deleted.every((places) => places.length === 0) && scenario.withIds) {
    // With creations only, every item present at the start exactly once.
    const originals = Array.from({ length: scenario.total }, (_, i) => `it_${String(i).padStart(5, '0')}`);
    const yieldedOriginals = yielded.map(key).filter((id) => Number(id.slice(3)) < scenario.total);
    expect(yieldedOriginals.sort()).toEqual(originals);
  }
  // Pages 1, 2, ... in turn; every page but the last at least full; the last one short; nothing after it.
  expect(requests.map((request) => request.url.searchParams.get('page'))).toEqual(
    requests.map((_, index) => String(index + 1)),
  );
  expect(served).toHaveLength(requests.length);
  const last = served[served.length - 1]!;
  expect(last.data.length).toBeLessThan(last.size);
  for (const page of served.slice(0, -1)) expect(page.data.length).toBeGreaterThanOrEqual(page.size);
  // It ended with nothing left to read: the service held no item past its last page.
  expect(model.last.length).toBeLessThanOrEqual((last.page - 1) * last.size + last.data.length);
}

describe('walking a list while items are created and deleted, whatever total_items says', () => {
  it('without created_at, with or without ids, up to three pages of new items per request, deletions and long pages: nothing lost, nothing twice, a correct stop', async () => {
    await fc.assert(
      fc.asyncProperty(scenario('no timestamps'), async (generated) => {
        const model = new ServiceModel(generated);
        checkWalk(model, await walk(model));
      }),
      { numRuns: RUNS },
    );
  });

  it('with created_at consistent with the order: every original item once, a correct stop, and no warning unless items were deleted', async () => {
    await fc.assert(
      fc.asyncProperty(scenario('consistent'), async (generated) => {
        const model = new ServiceModel(generated);
        const walked = await walk(model);
        checkWalk(model, walked);
        if (generated.deleted.every((places) => places.length === 0)) expect(walked.warnings).toEqual([]);
        else checkOrderWarnings(walked);
      }),
      { numRuns: RUNS },
    );
  });

  it('with created_at out of step with the order: every original item once, and every warning names an item that came after an older one and says it is no repeat', async () => {
    let walksWarned = 0;
    await fc.assert(
      fc.asyncProperty(scenario('skewed'), async (generated) => {
        const model = new ServiceModel(generated);
        const walked = await walk(model);
        checkWalk(model, walked);
        if (checkOrderWarnings(walked) > 0) walksWarned++;
      }),
      { numRuns: RUNS },
    );
    // The skew does put items out of order (the property is not vacuous).
    expect(walksWarned).toBeGreaterThan(0);
  });

  it('with a list that does not change, yields the items in order and makes exactly the requests needed', async () => {
    await fc.assert(
      fc.asyncProperty(scenario('no timestamps', false), async (generated) => {
        const model = new ServiceModel(generated);
        const { yielded, requests } = await walk(model);
        const expected = Array.from(
          { length: generated.total },
          (_, i) => `it_${String(generated.total - 1 - i).padStart(5, '0')}`,
        );
        expect(yielded.map((item) => item.id)).toEqual(expected);
        const size = generated.pagesize ?? 10;
        expect(requests).toHaveLength(Math.floor(generated.total / size) + 1);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('a service that makes no progress', () => {
  it('resending one page or cycling through a few, with or without ids, whatever total_items says: a LunasError within the bound', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          pagesize: fc.integer({ min: 25, max: 100 }),
          /** Pages answered honestly first. */
          honest: fc.integer({ min: 0, max: 3 }),
          /** How many pages the service then cycles through (1: one page again and again). */
          cycle: fc.integer({ min: 1, max: 4 }),
          withIds: fc.boolean(),
          counts: fc.constantFrom(...COUNTS),
          seed: fc.integer(),
        }),
        async ({ pagesize, honest, cycle, withIds, counts, seed }) => {
          const window = (page: number) =>
            Array.from({ length: pagesize }, (_, slot) => {
              const n = (page - 1) * pagesize + slot;
              return withIds ? { id: `p_${n}`, n } : { n };
            });
          const fresh = honest + cycle;
          const respond = (request: SeenRequest, index: number) => {
            const page = Number(request.url.searchParams.get('page'));
            // A cap so that a broken walk fails the property instead of hanging it.
            const from = page <= fresh ? page : honest + 1 + ((page - honest - 1) % cycle);
            const data = index > 5_000 ? [] : window(from);
            const total_items = count(counts, fresh * pagesize, fresh * pagesize, index, seed);
            return listResponse(data, page, pagesize, total_items);
          };
          const { client, sent } = wireClient(respond);
          const { yielded, error } = await walkAll(client.payouts.list({ pagesize }));
          // Fresh pages, then stale ones until they span more than the ids a walk remembers.
          const endPage = fresh + Math.floor(REMEMBERED_IDS / pagesize) + 1;
          expect(error).toBeInstanceOf(LunasError);
          expect(error).not.toBeInstanceOf(ResponseValidationError);
          expect((error as Error).message).toContain(`: the pages up to ${endPage} held nothing new for `);
          // The pages read, and at most the look-ahead (aborted).
          expect(sent.length).toBeLessThanOrEqual(endPage + 1);
          const distinct = Array.from({ length: fresh }, (_, i) => window(i + 1)).flat();
          if (withIds) expect(yielded).toEqual(distinct);
          else expect(yielded.slice(0, distinct.length)).toEqual(distinct);
        },
      ),
      { numRuns: Math.ceil(RUNS / 5) },
    );
  });

  it('a list growing by exactly a page before each of its first requests: the walk ends exactly when that spans more than 10,000 places', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          pagesize: fc.integer({ min: 50, max: 100 }),
          /** How many requests a page of new items precedes, around the bound. */
          bursts: fc.integer({ min: 90, max: 210 }),
          original: fc.integer({ min: 1, max: 150 }),
          counts: fc.constantFrom(...COUNTS),
        }),
        async ({ pagesize, bursts, original, counts }) => {
          const items = Array.from({ length: original }, (_, i) => ({ id: `old_${i}` }));
          let list = items.slice();
          let created = 0;
          const respond = (request: SeenRequest, index: number) => {
            if (index > 1 && index - 1 <= bursts) {
              list = [...Array.from({ length: pagesize }, () => ({ id: `new_${created++}` })), ...list];
            }
            const page = Number(request.url.searchParams.get('page'));
            const data = list.slice((page - 1) * pagesize, page * pagesize);
            const total_items = count(counts, list.length, original, index, page);
            return listResponse(data, page, pagesize, total_items);
          };
          const { client } = wireClient(respond);
          const walk = await walkAll(client.payouts.list({ pagesize }));
          const { error } = walk;
          const yielded = walk.yielded.map((item) => String(item.id));
          // A full first page is read once, then each burst brings it back whole: `bursts` stale pages.
          const stale = original >= pagesize ? bursts * pagesize : 0;
          if (stale > REMEMBERED_IDS) {
            expect(error).toBeInstanceOf(LunasError);
          } else {
            expect(error).toBeUndefined();
            expect(new Set(yielded).size).toBe(yielded.length);
            expect(yielded.filter((id) => id.startsWith('old_'))).toEqual(items.map((item) => item.id));
          }
        },
      ),
      { numRuns: Math.ceil(RUNS / 8) },
    );
  });
});
