/**
 * The suite of a list whose items are JSON objects the service does not
 * document (payouts, payment methods), run by each one's unit test file so
 * both are held to the same contract.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Page, RequestValidationError, ResponseValidationError, type Client } from '../../src/index.js';
import { makeClient, server } from './msw.js';
import { collect, serveList } from './pages.js';
import { BASE_URL } from './fixtures.js';
import { countRequests } from './requests.js';

type ListName = 'payouts' | 'paymentMethods';

function list(client: Client, name: ListName, params?: { page?: number; pagesize?: number }) {
  return name === 'payouts' ? client.payouts.list(params) : client.paymentMethods.list(params);
}

/** Each item kept whole, the paging, and the checks of the envelope and of the parameters. */
export function describeJsonObjectList(name: ListName, path: string): void {
  describe(`${name}.list (${path})`, () => {
    it('GETs the path with page and pagesize and resolves to a Page of JSON objects kept whole', async () => {
      const items = [
        {
          id: 'x_2',
          amount: '500.00',
          bank: { code: 'BCA', account: { last4: '1234' } },
          tags: ['a', 1, null],
          ok: true,
        },
        { name: 'no id here', nested: [{ deep: { deeper: [1, 2] } }] },
      ];
      const seen = serveList(path, { items });
      const page = await list(makeClient(), name, { page: 1, pagesize: 5 });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.url.pathname).toBe(path);
      expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({ page: '1', pagesize: '5' });
      expect(page).toBeInstanceOf(Page);
      // Unspecified shapes: nothing added, nothing removed, nothing normalised.
      expect(page.data).toEqual(items);
      expect(page.page).toBe(1);
      expect(page.page_size).toBe(5);
      expect(page.total_items).toBe(2);
    });

    it('asks for the page it was given', async () => {
      const items = Array.from({ length: 12 }, (_, i) => ({ id: `x_${i}` }));
      const seen = serveList(path, { items });
      const page = await list(makeClient(), name, { page: 3, pagesize: 5 });
      expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({ page: '3', pagesize: '5' });
      expect(page.data).toEqual([{ id: 'x_10' }, { id: 'x_11' }]);
      expect(page.page).toBe(3);
    });

    it('walks every item across pages with for await', async () => {
      const items = Array.from({ length: 7 }, (_, i) => ({ id: `x_${i}`, i }));
      const seen = serveList(path, { items });
      const all = await collect(list(makeClient(), name, { pagesize: 3 }));
      expect(all).toEqual(items);
      expect(seen.map((s) => s.page)).toEqual([1, 2, 3]);
    });

    it('yields items without an id as they come (no dedupe by a missing id)', async () => {
      const items = [{ kind: 'a' }, { kind: 'a' }, { kind: 'b' }];
      serveList(path, { items });
      expect(await collect(list(makeClient(), name, { pagesize: 10 }))).toEqual(items);
    });

    it.each([
      ['a number', 5],
      ['a string', 'x'],
      ['null', null],
      ['an array', [1, 2]],
      ['a boolean', true],
    ])('refuses %s as an item with ResponseValidationError naming the item', async (_label, bad) => {
      const text = JSON.stringify({
        status: 'success',
        data: [{ id: 'ok' }, bad],
        page: 1,
        page_size: 10,
        total_items: 2,
      });
      server.use(
        http.get(
          `${BASE_URL}${path}`,
          () => new HttpResponse(text, { headers: { 'content-type': 'application/json' } }),
        ),
      );
      const error = await list(makeClient(), name)
        .then(() => undefined)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).path).toBe('data.1');
      expect((error as ResponseValidationError).body).toBe(text);
    });

    it.each([
      ['page', 'two', 'page'],
      ['page_size', null, 'page_size'],
      ['total_items', 1.5, 'total_items'],
      ['data', { id: 'x' }, 'data'],
    ])('refuses a list envelope with %s = %j', async (key, value, path_) => {
      const body = { status: 'success', data: [], page: 1, page_size: 10, total_items: 0, [key]: value };
      server.use(http.get(`${BASE_URL}${path}`, () => HttpResponse.json(body)));
      const error = await list(makeClient(), name)
        .then(() => undefined)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).path).toBe(path_);
    });

    it('refuses bad paging params before sending', async () => {
      const counter = countRequests();
      const error = await list(makeClient(), name, { page: 0, pagesize: 101 })
        .then(() => undefined)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(Object.keys((error as RequestValidationError).fields).sort()).toEqual(['page', 'pagesize']);
      expect(counter.count()).toBe(0);
    });
  });
}
