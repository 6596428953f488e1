import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Page, ResponseValidationError } from '../../../src/index.js';
import { makeClient, server } from '../../helpers/msw.js';
import { collect, serveList } from '../../helpers/pages.js';
import { API_KEY, BASE_URL, success, transferJson } from '../../helpers/fixtures.js';
import { capture } from '../../helpers/requests.js';

const TRANSFERS = `${BASE_URL}/v1/transfers`;

describe('transfers.create', () => {
  it('POSTs /v1/transfers with the JSON body in wire form and resolves to the unwrapped transfer', async () => {
    const seen = capture(success(transferJson({ amount: 150000 })));
    const transfer = await makeClient().transfers.create({
      destination_account_id: 'acc_partner',
      amount: '150000.00',
      currency: 'IDR',
      client_reference_id: 'inv-1',
      description: 'Settlement',
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url.pathname).toBe('/v1/transfers');
    expect(seen[0]!.url.search).toBe('');
    expect(seen[0]!.headers.get('content-type')).toMatch(/^application\/json/);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(JSON.parse(seen[0]!.body)).toEqual({
      destination_account_id: 'acc_partner',
      amount: 150000,
      currency: 'idr',
      client_reference_id: 'inv-1',
      description: 'Settlement',
    });
    expect(seen[0]!.body).toContain('"amount":150000');
    expect(transfer).toEqual(transferJson({ amount: '150000.00' }));
    expect(transfer).not.toHaveProperty('data');
  });

  it('sends a decimal string amount as a JSON number', async () => {
    const seen = capture(success(transferJson()));
    await makeClient().transfers.create({ destination_account_id: 'acc_partner', amount: '10000.50', currency: 'idr' });
    expect(JSON.parse(seen[0]!.body)).toEqual({
      destination_account_id: 'acc_partner',
      amount: 10000.5,
      currency: 'idr',
    });
  });

  it('keeps unknown fields and accepts an unknown status', async () => {
    capture(success(transferJson({ status: 'reversed', fx: { rate: 1 }, settled_at: '2026-11-23T03:00:01Z' })));
    const transfer = await makeClient().transfers.create({
      destination_account_id: 'acc_partner',
      amount: 1,
      currency: 'idr',
    });
    expect(transfer.status).toBe('reversed');
    expect(transfer).toMatchObject({ fx: { rate: 1 }, settled_at: '2026-11-23T03:00:01Z' });
  });

  it('accepts a transfer without description and client_reference_id', async () => {
    const data = transferJson();
    delete data.description;
    delete data.client_reference_id;
    capture(success(data));
    const transfer = await makeClient().transfers.create({
      destination_account_id: 'acc_partner',
      amount: 1,
      currency: 'idr',
    });
    expect(transfer.description).toBeUndefined();
    expect(transfer.client_reference_id).toBeUndefined();
  });

  it.each([
    ['amount', '1.005', 'data.amount'],
    ['amount', 'abc', 'data.amount'],
    ['id', 7, 'data.id'],
    ['destination_account_id', null, 'data.destination_account_id'],
    ['updated_at', 0, 'data.updated_at'],
  ])('refuses %s = %j with ResponseValidationError at %s, carrying the raw body', async (key, value, path) => {
    const text = JSON.stringify(success(transferJson({ [key]: value })));
    server.use(http.post(TRANSFERS, () => new HttpResponse(text, { headers: { 'content-type': 'application/json' } })));
    const error = await makeClient()
      .transfers.create({ destination_account_id: 'acc_partner', amount: 1, currency: 'idr' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe(path);
    expect((error as ResponseValidationError).body).toBe(text);
  });
});

describe('transfers.list', () => {
  it('GETs /v1/transfers with page and pagesize and resolves to a Page of transfers', async () => {
    const items = [transferJson({ id: 'tr_3', amount: 3 }), transferJson({ id: 'tr_2' }), transferJson({ id: 'tr_1' })];
    const seen = serveList('/v1/transfers', { items });
    const page = await makeClient().transfers.list({ page: 1, pagesize: 2 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url.pathname).toBe('/v1/transfers');
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({ page: '1', pagesize: '2' });
    expect(page).toBeInstanceOf(Page);
    expect(page.data.map((t) => t.id)).toEqual(['tr_3', 'tr_2']);
    expect(page.data[0]!.amount).toBe('3.00');
    expect(page.page).toBe(1);
    expect(page.page_size).toBe(2);
    expect(page.total_items).toBe(3);
  });

  it('walks every transfer across pages with for await', async () => {
    const items = Array.from({ length: 5 }, (_, i) => transferJson({ id: `tr_${5 - i}` }));
    const seen = serveList('/v1/transfers', { items });
    const all = await collect(makeClient().transfers.list({ pagesize: 2 }));
    expect(all.map((t) => t.id)).toEqual(['tr_5', 'tr_4', 'tr_3', 'tr_2', 'tr_1']);
    expect(seen.map((s) => s.page)).toEqual([1, 2, 3]);
    expect(seen.every((s) => s.url.searchParams.get('pagesize') === '2')).toBe(true);
  });
});
