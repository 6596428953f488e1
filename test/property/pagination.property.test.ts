/**
 * The pagination walker against a model of the service, property-based: a
 * newest-first list of random length, random page sizes, and items created
 * at the head of the list while the walk goes on (before any page request
 * but the first). `for await` must yield every item that existed when the
 * walk began exactly once, never any item twice, and stop at the first page
 * shorter than its page_size, with no request after it.
 *
 * - Items without `created_at`: at most one page of new items between two
 *   requests (what the id check against the previous page covers).
 * - Items whose `created_at` is consistent with the order (newest first, ties
 *   allowed): any number of new items between two requests.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chargeData, wireClient, type WireRequest } from '../helpers/wire.js';

const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 80);
const EPOCH = Date.parse('2026-01-01T00:00:00.000Z');

interface Scenario {
  endpoint: 'payouts' | 'paymentMethods' | 'charges';
  /** Items when the walk begins. */
  total: number;
  /** The pagesize asked for; undefined leaves the service's default (10). */
  pagesize: number | undefined;
  /** Items created at the head before request i + 1 (the first request sees none). */
  created: number[];
  timestamps: boolean;
  /** Consecutive items sharing one created_at. */
  tie: number;
}

/** The service: a newest-first list, paged by the spec's rules, growing at the head as told. */
class ServiceModel {
  /** Oldest first; the list is served reversed. */
  readonly items: Record<string, unknown>[] = [];
  readonly served: { page: number; size: number; count: number }[] = [];
  #sequence = 0;

  constructor(readonly scenario: Scenario) {
    this.#create(scenario.total);
  }

  #create(count: number): void {
    for (let i = 0; i < count; i++) {
      const sequence = this.#sequence++;
      const id = `it_${String(sequence).padStart(5, '0')}`;
      const createdAt = new Date(EPOCH + Math.floor(sequence / this.scenario.tie) * 1000).toISOString();
      const base: Record<string, unknown> =
        this.scenario.endpoint === 'charges'
          ? chargeData({ id, created_at: createdAt, updated_at: createdAt })
          : { id, n: sequence };
      if (this.scenario.endpoint !== 'charges' && this.scenario.timestamps) base.created_at = createdAt;
      this.items.push(base);
    }
  }

  answer(request: WireRequest): Response {
    const fetchIndex = this.served.length;
    if (fetchIndex > 0) this.#create(this.scenario.created[fetchIndex - 1] ?? 0);
    const rawPage = Number(request.url.searchParams.get('page') ?? '1');
    const rawSize = Number(request.url.searchParams.get('pagesize') ?? '10');
    const page = Number.isInteger(rawPage) && rawPage >= 1 ? rawPage : 1;
    const size = Math.min(Number.isInteger(rawSize) && rawSize >= 1 ? rawSize : 10, 100);
    const newestFirst = this.items.slice().reverse();
    const data = newestFirst.slice((page - 1) * size, page * size);
    this.served.push({ page, size, count: data.length });
    return Response.json({ status: 'success', data, page, page_size: size, total_items: newestFirst.length });
  }
}

function scenario(timestamps: boolean): fc.Arbitrary<Scenario> {
  return fc
    .record({
      endpoint: timestamps
        ? fc.constantFrom('payouts', 'paymentMethods', 'charges')
        : fc.constantFrom('payouts', 'paymentMethods'),
      total: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 250 })),
      pagesize: fc.option(fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 100 })), {
        nil: undefined,
      }),
      timestamps: fc.constant(timestamps),
      tie: timestamps ? fc.constantFrom(1, 1, 2, 3, 7) : fc.constant(1),
      shift: fc.double({ min: 0, max: 1, noNaN: true }),
      created: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
    })
    .map(({ shift, created, ...rest }) => {
      const size = rest.pagesize ?? 10;
      // Without timestamps at most one page of shift per request; with them, up to three pages.
      const most = timestamps ? Math.ceil(3 * size * shift) : size;
      // fraction can be exactly 1: clamp, or the bound above would be exceeded by one.
      return { ...rest, created: created.map((fraction) => Math.min(most, Math.floor(fraction * (most + 1)))) };
    });
}

async function walk(model: ServiceModel): Promise<{ yielded: string[]; requests: WireRequest[] }> {
  const { client, sent } = wireClient((request) => model.answer(request));
  const params = model.scenario.pagesize === undefined ? {} : { pagesize: model.scenario.pagesize };
  const list = client[model.scenario.endpoint].list(params);
  const yielded: string[] = [];
  for await (const item of list) yielded.push(String((item as { id: unknown }).id));
  return { yielded, requests: sent };
}

function checkWalk(model: ServiceModel, yielded: string[], requests: WireRequest[]): void {
  const originals = Array.from({ length: model.scenario.total }, (_, i) => `it_${String(i).padStart(5, '0')}`);
  // Never twice; every original exactly once.
  expect(new Set(yielded).size).toBe(yielded.length);
  const yieldedOriginals = yielded.filter((id) => Number(id.slice(3)) < model.scenario.total);
  expect(yieldedOriginals.sort()).toEqual(originals);
  // Pages 1, 2, ... in turn; every page but the last full; the last one short; nothing after it.
  expect(requests.map((request) => request.url.searchParams.get('page'))).toEqual(
    requests.map((_, index) => String(index + 1)),
  );
  expect(model.served).toHaveLength(requests.length);
  const last = model.served[model.served.length - 1]!;
  expect(last.count).toBeLessThan(last.size);
  for (const page of model.served.slice(0, -1)) expect(page.count).toBe(page.size);
}

describe('walking a list while items are created at its head', () => {
  it('without created_at, at most a page of new items per request: every original item once, and a correct stop', async () => {
    await fc.assert(
      fc.asyncProperty(scenario(false), async (generated) => {
        const model = new ServiceModel(generated);
        const { yielded, requests } = await walk(model);
        checkWalk(model, yielded, requests);
      }),
      { numRuns: RUNS },
    );
  });

  it('with created_at consistent with the order, any number of new items per request: every original item once, and a correct stop', async () => {
    await fc.assert(
      fc.asyncProperty(scenario(true), async (generated) => {
        const model = new ServiceModel(generated);
        const { yielded, requests } = await walk(model);
        checkWalk(model, yielded, requests);
        // A new item strictly newer than everything yielded is never yielded (one sharing the
        // newest timestamp may be: it is not a repeat).
        if (generated.tie === 1) expect(yielded).toHaveLength(generated.total);
      }),
      { numRuns: RUNS },
    );
  });

  it('with a list that does not change, yields the items in order and makes exactly the requests needed', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenario(false).map((generated) => ({ ...generated, created: [] })),
        async (generated) => {
          const model = new ServiceModel(generated);
          const { yielded, requests } = await walk(model);
          const expected = Array.from(
            { length: generated.total },
            (_, i) => `it_${String(generated.total - 1 - i).padStart(5, '0')}`,
          );
          expect(yielded).toEqual(expected);
          const size = generated.pagesize ?? 10;
          expect(requests).toHaveLength(Math.floor(generated.total / size) + 1);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
