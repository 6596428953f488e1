/**
 * The pagination walker against a model of the service, property-based: a
 * newest-first list of random length, random page sizes, and items created
 * at the head of the list while the walk goes on (before any page request
 * but the first). `for await` must yield every item that existed when the
 * walk began exactly once, never any item twice, and stop at the first page
 * shorter than its page_size, with no request after it.
 *
 * - With or without `created_at`, up to three pages of new items between two
 *   requests (far below the 10,000 ids a walk remembers).
 * - With `created_at` consistent with the order: no warning is logged.
 * - With `created_at` out of step with the order (clock skew): still every
 *   item once, and each warning names an item that did come after an older one.
 * - A hostile service (the same items whatever the page, `total_items`
 *   standing still or creeping up): the walk ends with a `LunasError`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LunasError } from '../../src/index.js';
import { chargeData, transferData, wireClient, type WireRequest } from '../helpers/wire.js';

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
  timestamps: boolean;
  /** Consecutive items sharing one created_at. */
  tie: number;
  /** Up to how many ms each created_at is off (0: consistent with the order). */
  skewMs: number;
  /** Picks each item's skew. */
  seed: number;
}

/** A pseudo-random offset in [-range, range] for item `sequence`, fixed by `seed`. */
function offset(sequence: number, seed: number, range: number): number {
  if (range === 0) return 0;
  const mixed = Math.imul(sequence + 1, 2_654_435_761) ^ seed;
  return (Math.abs(mixed) % (2 * range + 1)) - range;
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
    const { endpoint, tie, skewMs, seed } = this.scenario;
    for (let i = 0; i < count; i++) {
      const sequence = this.#sequence++;
      const id = `it_${String(sequence).padStart(5, '0')}`;
      const time = EPOCH + Math.floor(sequence / tie) * 1000 + offset(sequence, seed, skewMs);
      const createdAt = new Date(time).toISOString();
      const base: Record<string, unknown> =
        endpoint === 'charges'
          ? chargeData({ id, created_at: createdAt, updated_at: createdAt })
          : endpoint === 'transfers'
            ? transferData({ id, created_at: createdAt, updated_at: createdAt })
            : { id, n: sequence };
      if ((endpoint === 'payouts' || endpoint === 'paymentMethods') && this.scenario.timestamps) {
        base.created_at = createdAt;
      }
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

function scenario(kind: 'no timestamps' | 'consistent' | 'skewed'): fc.Arbitrary<Scenario> {
  const timestamps = kind !== 'no timestamps';
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
      shift: fc.double({ min: 0, max: 1, noNaN: true }),
      created: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
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
  requests: WireRequest[];
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

function checkWalk(model: ServiceModel, { yielded: items, requests }: Walked): void {
  const yielded = items.map((item) => String(item.id));
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
  it('without created_at, up to three pages of new items per request: every original item once, and a correct stop', async () => {
    await fc.assert(
      fc.asyncProperty(scenario('no timestamps'), async (generated) => {
        const model = new ServiceModel(generated);
        checkWalk(model, await walk(model));
      }),
      { numRuns: RUNS },
    );
  });

  it('with created_at consistent with the order: every original item once, a correct stop, and no warning', async () => {
    await fc.assert(
      fc.asyncProperty(scenario('consistent'), async (generated) => {
        const model = new ServiceModel(generated);
        const walked = await walk(model);
        checkWalk(model, walked);
        expect(walked.warnings).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('with created_at out of step with the order: every original item once, and every warning names an item that came after an older one', async () => {
    let walksWarned = 0;
    await fc.assert(
      fc.asyncProperty(scenario('skewed'), async (generated) => {
        const model = new ServiceModel(generated);
        const walked = await walk(model);
        checkWalk(model, walked);
        const times = walked.yielded.map((item) => Date.parse(String(item.created_at)));
        const cameAfterOlder = new Set(
          walked.yielded
            .filter((_, index) => times.slice(0, index).some((time) => time < times[index]!))
            .map((item) => String(item.id)),
        );
        const named = walked.warnings.flatMap((line) => /: item (\S+) created_at /.exec(line)?.slice(1) ?? []);
        expect(named.filter((id) => !cameAfterOlder.has(id))).toEqual([]);
        // Ten lines at most, plus one with the count of the rest.
        expect(walked.warnings.length).toBeLessThanOrEqual(11);
        if (walked.warnings.length > 0) walksWarned++;
      }),
      { numRuns: RUNS },
    );
    // The skew does put items out of order (the property is not vacuous).
    expect(walksWarned).toBeGreaterThan(0);
  });

  it('with a list that does not change, yields the items in order and makes exactly the requests needed', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenario('no timestamps').map((generated) => ({ ...generated, created: [] })),
        async (generated) => {
          const model = new ServiceModel(generated);
          const { yielded, requests } = await walk(model);
          const expected = Array.from(
            { length: generated.total },
            (_, i) => `it_${String(generated.total - 1 - i).padStart(5, '0')}`,
          );
          expect(yielded.map((item) => item.id)).toEqual(expected);
          const size = generated.pagesize ?? 10;
          expect(requests).toHaveLength(Math.floor(generated.total / size) + 1);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('a service that makes no progress', () => {
  it('same items whatever the page, total_items still or creeping up: the walk ends with a LunasError', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          pagesize: fc.integer({ min: 1, max: 20 }),
          /** Distinct items the service draws every page from. */
          pool: fc.integer({ min: 1, max: 30 }),
          withIds: fc.boolean(),
          startTotal: fc.integer({ min: 0, max: 200 }),
          /** total_items growth per request, as a fraction of half a page. */
          growth: fc.double({ min: 0, max: 1, noNaN: true }),
          seed: fc.integer(),
        }),
        async ({ pagesize, pool, withIds, startTotal, growth, seed }) => {
          const perRequest = Math.floor((growth * pagesize) / 2);
          const respond = (request: WireRequest, index: number) => {
            const page = Number(request.url.searchParams.get('page'));
            const data = Array.from({ length: pagesize }, (_, slot) => {
              const pick = Math.abs(offset(index * 100 + slot, seed, pool)) % pool;
              return withIds ? { id: `p_${pick}` } : { n: pick };
            });
            const total = startTotal + perRequest * index;
            return Response.json({ status: 'success', data, page, page_size: pagesize, total_items: total });
          };
          const { client, sent } = wireClient(respond);
          let error: unknown;
          try {
            for await (const _ of client.payouts.list({ pagesize })) if (sent.length > 5_000) break;
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(LunasError);
          expect(sent.length).toBeLessThan(5_000);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
