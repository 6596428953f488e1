/**
 * What `console.log` shows of a list: a PagePromise says which request it
 * stands for and how to use it (not `PagePromise [Promise] { undefined }`),
 * without sending anything or showing the key; a Page shows its fields.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { API_KEY, chargeJson } from '../../../helpers/fixtures.js';
import { makeClient } from '../../../helpers/msw.js';
import { serveList } from '../../../helpers/pages.js';
import { countRequests } from '../../../helpers/requests.js';

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
