import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Charge,
  type Client,
  getResponseInfo,
  InternalServerError,
  type Logger,
  LunasError,
  type Page,
  RequestValidationError,
  ResponseValidationError,
} from 'lunas-sdk';
import type { Sandbox, SandboxOptions } from 'lunas-sdk/testing';
import { listPage } from '../helpers/fixtures.js';
import { walkAll } from '../helpers/recorders.js';
import { start, startShared } from './helpers.js';
import { rejection } from '../helpers/rejection.js';
import { sleep } from '../helpers/waiting.js';

const SEEDED = 1234;

/** A clock that moves forward 1 ms per reading, so every charge has its own created_at. */
function tickingClock(): Pick<SandboxOptions, 'now'> {
  let tick = Date.parse('2025-01-01T00:00:00.000Z');
  return { now: () => new Date(tick++) };
}

/** A logger collecting warn-level lines, with the client options that route them to it. */
function warnLog() {
  const lines: string[] = [];
  const ignore = () => undefined;
  const logger: Logger = { debug: ignore, info: ignore, warn: (line: string) => lines.push(line), error: ignore };
  return { lines, options: { logger, logLevel: 'warn' } as const };
}

/** What a `for await` walk yielded, and the error that ended it, if any. */
function expectNewestFirst(charges: readonly Charge[]): void {
  for (let i = 1; i < charges.length; i++) {
    const newer = Date.parse(charges[i - 1]!.created_at);
    const older = Date.parse(charges[i]!.created_at);
    if (!(newer > older)) expect.fail(`items ${i - 1} and ${i} are not newest first`);
  }
}

describe(`walking ${SEEDED} charges`, () => {
  let sandbox: Sandbox;
  let client: Client;

  beforeAll(async () => {
    ({ sandbox, client } = await startShared(tickingClock()));
    sandbox.seedCharges(SEEDED);
  });

  afterAll(async () => {
    await sandbox.close();
  });

  /** Requests the sandbox receives while `run` runs. */
  async function requestsDuring(run: () => Promise<void>) {
    const before = sandbox.requests.length;
    await run();
    return sandbox.requests.slice(before);
  }

  it('for await at pagesize 100 yields each charge once, newest first, in 13 requests', async () => {
    const seen: Charge[] = [];
    const requests = await requestsDuring(async () => {
      for await (const charge of client.charges.list({ pagesize: 100 })) seen.push(charge);
    });

    expect(seen).toHaveLength(SEEDED);
    expect(new Set(seen.map((charge) => charge.id)).size).toBe(SEEDED);
    expectNewestFirst(seen);
    // 12 full pages and a short 13th: the short page ends the walk without asking for page 14.
    expect(requests.map((request) => request.query)).toEqual(
      Array.from({ length: 13 }, (_, i) => ({ page: String(i + 1), pagesize: '100' })),
    );
    expect(requests.every((request) => request.method === 'GET' && request.path === '/v1/payments/charges')).toBe(true);
  });

  it('iterPages yields 13 pages with their envelope fields and request ids', async () => {
    const pages: Page<Charge>[] = [];
    const requests = await requestsDuring(async () => {
      for await (const page of (await client.charges.list({ pagesize: 100 })).iterPages()) pages.push(page);
    });

    expect(pages.map((page) => page.page)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(pages.map((page) => page.data.length)).toEqual([...Array<number>(12).fill(100), 34]);
    expect(pages.every((page) => page.page_size === 100 && page.total_items === SEEDED)).toBe(true);
    expect(pages.map((page) => page.hasNextPage())).toEqual([...Array<boolean>(12).fill(true), false]);
    const ids = pages.map((page) => getResponseInfo(page)?.requestId);
    expect(new Set(ids).size).toBe(13);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(requests).toHaveLength(13);
  });

  it('getNextPage walks the same items as for await, then refuses to go past the end', async () => {
    let page = await client.charges.list({ pagesize: 100 });
    const ids = page.data.map((charge) => charge.id);
    while (page.hasNextPage()) {
      const next = await page.getNextPage();
      expect(next.page).toBe(page.page + 1);
      page = next;
      ids.push(...page.data.map((charge) => charge.id));
    }
    expect(page.page).toBe(13);
    expect(ids).toHaveLength(SEEDED);
    expect(new Set(ids).size).toBe(SEEDED);
    await expect(page.getNextPage()).rejects.toBeInstanceOf(LunasError);

    const walked: string[] = [];
    for await (const charge of client.charges.list({ pagesize: 100 })) walked.push(charge.id);
    expect(walked).toEqual(ids);
  });

  it('starts from the page asked for', async () => {
    const seen: string[] = [];
    const requests = await requestsDuring(async () => {
      for await (const charge of client.charges.list({ page: 12, pagesize: 100 })) seen.push(charge.id);
    });
    expect(seen).toHaveLength(SEEDED - 1100);
    expect(requests.map((request) => request.query.page)).toEqual(['12', '13']);
  });

  it('uses the service’s default page size of 10', async () => {
    const page = await client.charges.list();
    expect(page.data).toHaveLength(10);
    expect(page.page_size).toBe(10);
    expect(page.total_items).toBe(SEEDED);
  });

  it('answers a page past the end with no items and no next page', async () => {
    const page = await client.charges.list({ page: 14, pagesize: 100 });
    expect(page.data).toEqual([]);
    expect(page.total_items).toBe(SEEDED);
    expect(page.hasNextPage()).toBe(false);
  });

  it('stops fetching when the loop is left early', async () => {
    const requests = await requestsDuring(async () => {
      let count = 0;
      for await (const _charge of client.charges.list({ pagesize: 100 })) if (++count === 5) break;
      await sleep(100);
    });
    // The first page, and at most the one fetched ahead.
    expect(requests.length).toBeGreaterThanOrEqual(1);
    expect(requests.length).toBeLessThanOrEqual(2);
  });

  it.each([
    [{ pagesize: 1000 }, 'pagesize'],
    [{ pagesize: 101 }, 'pagesize'],
    [{ pagesize: 0 }, 'pagesize'],
    [{ pagesize: 2.5 }, 'pagesize'],
    [{ page: 0 }, 'page'],
    [{ page: -1 }, 'page'],
  ])('refuses %j before sending', async (params, field) => {
    const requests = await requestsDuring(async () => {
      const error = await rejection(client.charges.list(params), RequestValidationError);
      expect(Object.keys(error.fields)).toEqual([field]);
      const walk = async () => {
        for await (const _charge of client.charges.list(params)) expect.fail('yielded an item');
      };
      await rejection(walk(), RequestValidationError);
      await rejection(client.transfers.list(params), RequestValidationError);
    });
    expect(requests).toHaveLength(0);
  });
});

describe('walk boundaries', () => {
  it('asks for one empty page after an exact multiple of the page size', async () => {
    const { sandbox, client } = await start(tickingClock());
    sandbox.seedCharges(200);
    const ids: string[] = [];
    for await (const charge of client.charges.list({ pagesize: 100 })) ids.push(charge.id);
    expect(new Set(ids).size).toBe(200);
    expect(ids).toHaveLength(200);
    expect(sandbox.requests.map((request) => request.query.page)).toEqual(['1', '2', '3']);
  });

  it('makes one request for an empty list', async () => {
    const { sandbox, client } = await start();
    for await (const _charge of client.charges.list({ pagesize: 100 })) expect.fail('yielded an item');
    expect(sandbox.requests).toHaveLength(1);
  });
});

describe('walks with the sandbox clock moved by the test', () => {
  it('yields every charge when the clock was set forward and back between creations', async () => {
    // A merchant's test may move the documented `now` option forward (to expire
    // charges) and back again; the list stays in creation order, newest first.
    let now = new Date('2025-01-01T00:00:00.000Z');
    const { sandbox, client } = await start({ now: () => now });
    sandbox.seedCharges(3);
    now = new Date('2025-01-02T00:00:00.000Z');
    sandbox.seedCharges(2);
    now = new Date('2025-01-01T00:00:00.000Z');
    sandbox.seedCharges(2);

    const page = await client.charges.list({ pagesize: 100 });
    expect(page.data).toHaveLength(7);
    const walked: string[] = [];
    for await (const charge of client.charges.list({ pagesize: 100 })) walked.push(charge.id);
    expect(walked).toEqual(page.data.map((charge) => charge.id));
  });
});

describe('faults during a walk', () => {
  it('a page that fails once is retried and the walk goes on', async () => {
    const { sandbox, client } = await start(tickingClock(), { maxRetries: 2 });
    sandbox.seedCharges(250);
    const first = await client.charges.list({ pagesize: 100 });
    sandbox.inject({ kind: 'status', status: 503, method: 'GET', headers: { 'retry-after-ms': '10' } });
    const ids: string[] = [];
    for await (const charge of first) ids.push(charge.id);
    expect(ids).toHaveLength(250);
    expect(new Set(ids).size).toBe(250);
    expect(sandbox.requests.map((request) => request.query.page)).toEqual(['1', '2', '2', '3']);
  });

  it('a page that keeps failing ends the walk with the error, after the items before it', async () => {
    const { sandbox, client } = await start(tickingClock(), { maxRetries: 1 });
    sandbox.seedCharges(250);
    const first = await client.charges.list({ pagesize: 100 });
    sandbox.inject({
      kind: 'status',
      status: 500,
      method: 'GET',
      times: Infinity,
      headers: { 'retry-after-ms': '10' },
    });
    let count = 0;
    const walk = async () => {
      for await (const _charge of first) count++;
    };
    const error = await rejection(walk(), InternalServerError);
    expect(error.status).toBe(500);
    expect(count).toBe(100);
    expect(sandbox.requests.map((request) => request.query.page)).toEqual(['1', '2', '2']);
  });
});

describe('charges created during a walk', () => {
  async function seededIds(client: Client): Promise<string[]> {
    const ids: string[] = [];
    for await (const charge of client.charges.list({ pagesize: 100 })) ids.push(charge.id);
    return ids;
  }

  it('created on pages already read are not yielded, and shift no older item into a second appearance', async () => {
    const { sandbox, client } = await start(tickingClock());
    sandbox.seedCharges(250);
    const original = await seededIds(client);
    expect(original).toHaveLength(250);

    const created: string[] = [];
    const seen: Charge[] = [];
    for await (const charge of client.charges.list({ pagesize: 100 })) {
      seen.push(charge);
      // Seven new charges in the middle of the first page, three more in the second.
      if (seen.length === 50 || seen.length === 150) {
        const count = seen.length === 50 ? 7 : 3;
        for (let i = 0; i < count; i++)
          created.push((await client.charges.create({ payment_method: 'qris', amount: 500 })).id);
      }
    }

    const ids = seen.map((charge) => charge.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(original);
    expect(ids.some((id) => created.includes(id))).toBe(false);
    expectNewestFirst(seen);
    expect((await client.charges.list()).total_items).toBe(260);
  });

  it.for([
    ['a ticking clock', tickingClock()],
    ['the real clock (many charges share a millisecond)', {}],
  ] as const)(
    'never yield an item twice, even when more than a page is created between pages (%s)',
    async ([, clock]) => {
      const { sandbox, client } = await start(clock);
      sandbox.seedCharges(30);
      const seen: string[] = [];
      for await (const charge of client.charges.list({ pagesize: 10 })) {
        seen.push(charge.id);
        if (seen.length === 5) {
          for (let i = 0; i < 15; i++) await client.charges.create({ payment_method: 'qris', amount: 500 });
        }
      }
      const duplicates = seen.filter((id, index) => seen.indexOf(id) !== index);
      expect(duplicates).toEqual([]);
    },
  );
});

describe('payouts, whose order and fields the service does not document', () => {
  it('a list served oldest first yields every payout', async () => {
    const payouts = [
      { id: 'po_a', amount: '10.00', created_at: '2025-01-01T00:00:00.000Z' },
      { id: 'po_b', amount: '20.00', created_at: '2025-01-02T00:00:00.000Z' },
      { id: 'po_c', amount: '30.00', created_at: '2025-01-03T00:00:00.000Z' },
    ];
    const { client } = await start({ payouts });
    const { lines, options } = warnLog();
    const walked: string[] = [];
    for await (const payout of client.withOptions(options).payouts.list()) walked.push(String(payout.id));
    expect(walked).toEqual(['po_a', 'po_b', 'po_c']);
    expect(lines).toEqual([]);
  });

  it('without timestamps, with more than a page of new payouts arriving between page requests: every payout once', async () => {
    const payouts = Array.from({ length: 40 }, (_, i) => ({ id: `po_old_${i}`, amount: `${i + 1}.00` }));
    const { sandbox, client } = await start({ payouts });
    const fresh = (batch: number) =>
      Array.from({ length: 15 }, (_, i) => ({ id: `po_new_${batch}_${i}`, amount: '1.00' }));
    const walked: string[] = [];
    for await (const payout of client.payouts.list({ pagesize: 10 })) {
      walked.push(String(payout.id));
      // On the first item of pages 2 and 3 (the next page is already requested): 15 new payouts at the head.
      if (walked.length === 10) sandbox.addPayouts(fresh(1));
      if (walked.length === 20) sandbox.addPayouts(fresh(2));
    }
    expect(walked.filter((id, index) => walked.indexOf(id) !== index)).toEqual([]);
    expect(walked.filter((id) => id.startsWith('po_old_'))).toEqual(payouts.map((payout) => payout.id));
  });
});

/** `count` payouts with ids `${prefix}0`, `${prefix}1`, ..., newest first. */
const makePayouts = (count: number, prefix = 'po_') =>
  Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, amount: `${i + 1}.00` }));

/** Scripts the sandbox's next answers to `GET /v1/payouts`, one envelope per request, in order. */
function scriptPayouts(sandbox: Sandbox, pages: { data: unknown[]; page: number; page_size: number; total: number }[]) {
  for (const { data, page, page_size, total } of pages) {
    const body = listPage(data, page, page_size, total);
    sandbox.inject({ kind: 'status', status: 200, method: 'GET', path: '/v1/payouts', body });
  }
}

describe('total_items is information, never a rule of the walk (scripted with status-200 faults)', () => {
  it('a cached count lagging by 6: for await yields every payout, and list({ page: 6 }) returns the page', async () => {
    const payouts = makePayouts(36);
    const { sandbox, client } = await start({ payouts });
    const lagging = (page: number) => ({ data: payouts.slice(6 * page - 6, 6 * page), page, page_size: 6, total: 30 });
    scriptPayouts(sandbox, [1, 2, 3, 4, 5, 6, 7].map(lagging));
    const { yielded, error } = await walkAll(client.payouts.list({ pagesize: 6 }));
    expect(error).toBeUndefined();
    expect(yielded.map((payout) => payout.id)).toEqual(payouts.map((payout) => payout.id));

    scriptPayouts(sandbox, [lagging(6)]);
    const sixth = await client.payouts.list({ page: 6, pagesize: 6 });
    expect(sixth.data.map((payout) => payout.id)).toEqual(payouts.slice(30).map((payout) => payout.id));
    expect(sixth.total_items).toBe(30);
  });

  it('two payouts created and two deleted between pages (net zero): every payout still there once', async () => {
    const payouts = makePayouts(6);
    const { sandbox, client } = await start({ payouts });
    const after = [{ id: 'po_new_1' }, { id: 'po_new_0' }, ...payouts.filter((_, i) => i !== 2 && i !== 3)];
    scriptPayouts(sandbox, [
      { data: payouts.slice(0, 2), page: 1, page_size: 2, total: 6 },
      { data: after.slice(2, 4), page: 2, page_size: 2, total: 6 },
      { data: after.slice(4, 6), page: 3, page_size: 2, total: 6 },
      { data: [], page: 4, page_size: 2, total: 6 },
    ]);
    const { yielded, error } = await walkAll(client.payouts.list({ pagesize: 2 }));
    expect(error).toBeUndefined();
    expect(yielded.map((payout) => payout.id)).toEqual(['po_0', 'po_1', 'po_4', 'po_5']);
  });

  it('pages holding more payouts than page_size, overlapping the next: every payout once', async () => {
    const payouts = makePayouts(9);
    const { sandbox, client } = await start({ payouts });
    const overlapping = (page: number) => ({
      data: payouts.slice(3 * page - 3, 3 * page + 3),
      page,
      page_size: 3,
      total: 9,
    });
    scriptPayouts(sandbox, [1, 2, 3, 4].map(overlapping));
    const { yielded, error } = await walkAll(client.payouts.list({ pagesize: 3 }));
    expect(error).toBeUndefined();
    expect(yielded.map((payout) => payout.id)).toEqual(payouts.map((payout) => payout.id));
  });
});

describe('a service that makes no progress (scripted with status-200 faults)', () => {
  it('page 1 again whatever page is asked for: the walk ends with a LunasError after 10,000 places', async () => {
    const payouts = makePayouts(100);
    const { sandbox, client } = await start({ payouts });
    // Every page from 2 on holds page 1's payouts, numbered as asked; total_items even grows by a page.
    scriptPayouts(
      sandbox,
      Array.from({ length: 103 }, (_, i) => ({ data: payouts, page: i + 1, page_size: 100, total: 100 * (i + 1) })),
    );
    const { yielded, error } = await walkAll(client.payouts.list({ pagesize: 100 }));
    expect(yielded.map((payout) => payout.id)).toEqual(payouts.map((payout) => payout.id));
    expect(error).toBeInstanceOf(LunasError);
    expect(error).not.toBeInstanceOf(ResponseValidationError);
    const stuck = error as LunasError;
    expect(stuck.message).toContain('GET /v1/payouts: the pages up to 102 held nothing new for 10100 places in a row');
    expect(stuck.message).toContain('The walk stopped rather than loop');
    // Pages 1 to 102, and at most the look-ahead for page 103.
    expect(sandbox.requests.length).toBeLessThanOrEqual(103);
  });

  it('another page than the one asked for: ResponseValidationError at page', async () => {
    const { sandbox, client } = await start({ payouts: [{ id: 'po_0' }, { id: 'po_1' }, { id: 'po_2' }] });
    const answer = { status: 'success', data: [{ id: 'po_0' }], page: 1, page_size: 1, total_items: 3 };
    sandbox.inject({ kind: 'status', status: 200, method: 'GET', path: '/v1/payouts', body: answer });
    const error = await rejection(client.payouts.list({ page: 2, pagesize: 1 }), ResponseValidationError);
    expect(error.path).toBe('page');
    expect(error.message).toContain('expected 2, the page requested, got 1');
  });
});

describe('charges whose created_at contradicts the order (scripted with status-200 faults)', () => {
  it('every charge is yielded, and a warn line names the one out of order', async () => {
    const { sandbox, client } = await start();
    sandbox.seedCharges(4);
    const listed = await fetch(`${sandbox.url}/v1/payments/charges?pagesize=4`, {
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
    });
    const served = ((await listed.json()) as { data: Record<string, unknown>[] }).data;
    // The third charge was stamped by a server whose clock ran ahead: newer than the second.
    const stamps = [
      '2025-01-01T10:00:05.000Z',
      '2025-01-01T10:00:01.000Z',
      '2025-01-01T10:00:03.000Z',
      '2025-01-01T10:00:00.000Z',
    ];
    const charges = served.map((charge, i): Record<string, unknown> => ({
      ...charge,
      created_at: stamps[i],
      updated_at: stamps[i],
    }));
    const page = (number: number) => ({
      kind: 'status' as const,
      status: 200,
      method: 'GET',
      path: '/v1/payments/charges',
      body: {
        status: 'success',
        data: charges.slice(2 * number - 2, 2 * number),
        page: number,
        page_size: 2,
        total_items: 4,
      },
    });
    sandbox.inject(page(1));
    sandbox.inject(page(2));
    sandbox.inject(page(3));

    const { lines, options } = warnLog();
    const walked: string[] = [];
    for await (const charge of client.withOptions(options).charges.list({ pagesize: 2 })) walked.push(charge.id);
    expect(walked).toEqual(served.map((charge) => charge.id));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `lunas: GET /v1/payments/charges: item ${String(charges[2]!.id)} created_at ${stamps[2]} came after an item created_at ${stamps[1]}`,
    );
  });
});
