/**
 * core/lists/list-spec.ts: a list call as the walks get it. Its paging
 * parameters, checked before anything is sent; and what `console.log` shows
 * of a list: a PagePromise says which request it stands for and how to use it
 * (not `PagePromise [Promise] { undefined }`), without sending anything or
 * showing the key; a Page shows its fields.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { API_KEY, chargeJson, BASE_URL } from '../../../helpers/fixtures.js';
import { makeClient, server } from '../../../helpers/msw.js';
import { serveList } from '../../../helpers/pages.js';
import { countRequests } from '../../../helpers/requests.js';
import { http, HttpResponse } from 'msw';
import { type Client } from '../../../../src/index.js';
import { expectRefused } from '../../../helpers/refusals.js';

describe('util.inspect of a list', () => {
  it('a PagePromise names its class, request, page and page size, and sends nothing', () => {
    const requests = countRequests();
    const client = makeClient();
    const charges = inspect(client.charges.list({ page: 2, pagesize: 100 }));
    const payouts = inspect(client.payouts.list());
    expect(charges).toBe(
      'NewestFirstPagePromise { GET /v1/payments/charges, page 2, pagesize 100, not requested yet } ' +
        '(await it for the first Page, or for await it for every item)',
    );
    expect(payouts).toMatch(
      /^PagePromise \{ GET \/v1\/payouts, page 1, the service's default page size, not requested yet \}/,
    );
    expect(`${charges}${payouts}`).not.toContain(API_KEY);
    expect(requests.count()).toBe(0);
  });

  it('a since() walk names its request and its time, without the key, and sends nothing', () => {
    const requests = countRequests();
    const client = makeClient();
    const walk = client.charges.list({ pagesize: 100 }).since(new Date('2026-11-23T00:00:00Z'));
    expect(inspect(walk)).toBe(
      'SinceWalk { GET /v1/payments/charges, page 1, pagesize 100, since 2026-11-23T00:00:00.000Z } ' +
        '(for await it for every item created since, or toArray({ limit }))',
    );
    expect(inspect(client.transfers.list().since(API_KEY))).toContain('since "[REDACTED]" }');
    expect(requests.count()).toBe(0);
  });

  it('parameters a list would refuse are shown as invalid, and inspecting does not throw for them', () => {
    const requests = countRequests();
    const params = {
      get page(): number {
        throw new Error('a getter that throws');
      },
    };
    expect(inspect(makeClient().transfers.list(params))).toContain('GET /v1/transfers, page invalid,');
    expect(inspect(makeClient().transfers.list({ pagesize: 'ten' } as never))).toContain('page 1, pagesize invalid,');
    expect(requests.count()).toBe(0);
  });

  it('once awaited it says the first page was requested, and the Page shows its fields without the key', async () => {
    serveList('/v1/payments/charges', { items: [chargeJson({ id: 'ch_1' }), chargeJson({ id: 'ch_2' })] });
    const list = makeClient().charges.list({ pagesize: 10 });
    const page = await list;
    expect(inspect(list)).toContain('pagesize 10, first page requested }');
    const shown = inspect(page, { depth: 0 });
    expect(shown).toBe('Page { data: [Array], page: 1, page_size: 10, total_items: 2 }');
    expect(inspect(page, { depth: 3 })).toContain("id: 'ch_2'");
    expect(inspect(page, { depth: 10, showHidden: true })).not.toContain(API_KEY);
  });
});

describe('list params', () => {
  const lists = [
    ['charges', (c: Client, p: unknown) => c.charges.list(p as never)],
    ['transfers', (c: Client, p: unknown) => c.transfers.list(p as never)],
    ['payouts', (c: Client, p: unknown) => c.payouts.list(p as never)],
    ['paymentMethods', (c: Client, p: unknown) => c.paymentMethods.list(p as never)],
  ] as const;

  describe.each(lists)('%s.list', (_name, list) => {
    it.each([0, -1, 1.5, Number.NaN, '2', null])('page %j', async (page) => {
      await expectRefused((c) => list(c, { page }), { page: 'any' });
    });

    it.each([0, 101, 1.5, -5, '10', Number.POSITIVE_INFINITY])('pagesize %j', async (pagesize) => {
      await expectRefused((c) => list(c, { pagesize }), { pagesize: 'any' });
    });

    it('page_size (the response spelling): did you mean pagesize?', async () => {
      await expectRefused((c) => list(c, { page_size: 10 }), { page_size: 'Unknown field: did you mean "pagesize"?' });
    });

    it.each(['pageSize', 'PAGESIZE', 'page-size'])('%s: did you mean pagesize?', async (name) => {
      await expectRefused((c) => list(c, { [name]: 10 }), { [name]: 'Unknown field: did you mean "pagesize"?' });
    });

    it('limit: the known fields listed', async () => {
      await expectRefused((c) => list(c, { limit: 10 }), { limit: 'Unknown field; known fields: page, pagesize' });
    });

    it('both bad at once', async () => {
      await expectRefused((c) => list(c, { page: 0, pagesize: 0 }), { page: 'any', pagesize: 'any' });
    });

    it('refuses when iterated with for await too, before sending', async () => {
      await expectRefused(
        async (c) => {
          for await (const _ of list(c, { pagesize: 101 })) {
            /* nothing */
          }
        },
        { pagesize: 'any' },
      );
    });
  });

  it.each([
    [1, 1],
    [1, 100],
    [250, 37],
  ])('accepts page %j with pagesize %j and sends them', async (page, pagesize) => {
    const urls: URL[] = [];
    server.use(
      http.get(`${BASE_URL}/v1/payouts`, ({ request }) => {
        urls.push(new URL(request.url));
        return HttpResponse.json({ status: 'success', data: [], page, page_size: pagesize, total_items: 0 });
      }),
    );
    await makeClient().payouts.list({ page, pagesize });
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({ page: String(page), pagesize: String(pagesize) });
  });
});
