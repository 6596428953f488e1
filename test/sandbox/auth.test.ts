import { describe, expect, it } from 'vitest';
import { call, createCharge, sandbox } from './helpers.js';

const ENDPOINTS = [
  ['GET', '/v1/payments/charges'],
  ['POST', '/v1/payments/charges'],
  ['GET', '/v1/payments/charges/ch_000000000000000000000000'],
  ['GET', '/v1/transfers'],
  ['POST', '/v1/transfers'],
  ['GET', '/v1/payouts'],
  ['GET', '/v1/payments/methods'],
] as const;

const UNAUTHORIZED = { status: 'error', message: 'Invalid or missing API key' };

describe('authentication', () => {
  it.each(ENDPOINTS)(
    '%s %s answers 401 without a key, with a wrong key and with a wrong scheme',
    async (method, path) => {
      const box = await sandbox();
      const body = method === 'POST' ? {} : undefined;
      const attempts = [
        await call(box, method, path, { key: null, body }),
        await call(box, method, path, { key: 'sk_test_wrong', body }),
        await call(box, method, path, { key: null, body, headers: { authorization: `Basic ${box.apiKey}` } }),
        await call(box, method, path, { key: null, body, headers: { authorization: box.apiKey } }),
      ];
      for (const response of attempts) {
        expect(response.status).toBe(401);
        expect(response.body).toEqual(UNAUTHORIZED);
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      }
      expect(box.requests.map((request) => request.authorized)).toEqual([false, false, false, false]);
    },
  );

  it('changes nothing for an unauthorized POST', async () => {
    const box = await sandbox();
    await call(box, 'POST', '/v1/payments/charges', { key: 'nope', body: { payment_method: 'qris', amount: 5 } });
    await call(box, 'POST', '/v1/transfers', {
      key: null,
      body: { destination_account_id: 'acc_partner', amount: 5, currency: 'idr' },
    });
    expect((await call(box, 'GET', '/v1/payments/charges')).body.total_items).toBe(0);
    expect(box.balance('acc_merchant')).toBe('1000000.00');
    expect(box.transfers()).toHaveLength(0);
  });

  it('accepts the bearer scheme in any case and records the request as authorized', async () => {
    const box = await sandbox({ apiKey: 'sk_test_custom' });
    const response = await call(box, 'GET', '/v1/payouts', {
      key: null,
      headers: { authorization: 'bearer sk_test_custom' },
    });
    expect(response.status).toBe(200);
    expect(box.requests.at(-1)?.authorized).toBe(true);
  });

  it('refuses the default key when another was configured', async () => {
    const box = await sandbox({ apiKey: 'sk_test_custom' });
    expect((await call(box, 'GET', '/v1/payouts', { key: 'sk_test_sandbox' })).status).toBe(401);
  });

  it('checks the key before routing, so an unknown path without a key is 401', async () => {
    const box = await sandbox();
    expect((await call(box, 'GET', '/v1/nothing', { key: null })).status).toBe(401);
  });
});

describe('routing', () => {
  it.each([
    ['/v1/nothing'],
    ['/v1/transfers/'],
    ['/v1/payments/charges/'],
    ['/v1/payments/charges/a/b'],
    ['/v2/transfers'],
    ['/v1'],
  ])('GET %s is 404 Not found', async (path) => {
    const box = await sandbox();
    const response = await call(box, 'GET', path);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ status: 'error', message: 'Not found' });
  });

  it.each([
    ['DELETE', '/v1/payments/charges', 'GET, POST'],
    ['PUT', '/v1/transfers', 'GET, POST'],
    ['POST', '/v1/payouts', 'GET'],
    ['POST', '/v1/payments/methods', 'GET'],
    ['POST', '/v1/payments/charges/ch_x', 'GET'],
    ['PATCH', '/v1/payments/charges/ch_x', 'GET'],
  ])('%s %s is 405 with Allow: %s', async (method, path, allow) => {
    const box = await sandbox();
    const response = await call(box, method, path);
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ status: 'error', message: 'Method not allowed' });
    expect(response.headers.get('allow')).toBe(allow);
  });

  it('sends JSON content type and a fresh x-request-id on every kind of answer', async () => {
    const box = await sandbox();
    const responses = [
      await createCharge(box),
      await createCharge(box, {}),
      await call(box, 'GET', '/v1/payouts', { key: null }),
      await call(box, 'GET', '/v1/nothing'),
      await call(box, 'DELETE', '/v1/payouts'),
      await call(box, 'GET', '/v1/payments/charges/ch_missing'),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 400, 401, 404, 405, 404]);
    const ids = new Set<string>();
    for (const response of responses) {
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const id = response.headers.get('x-request-id') ?? '';
      expect(id).toMatch(/^req_[0-9a-f]{24}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(responses.length);
  });

  it('records every request with its path, query and idempotency key', async () => {
    const box = await sandbox();
    const before = Date.now();
    await call(box, 'GET', '/v1/payments/charges?page=2&pagesize=5&page=9');
    await call(box, 'POST', '/v1/transfers', { body: {}, headers: { 'idempotency-key': 'key-1' } });
    const [list, transfer] = box.requests;
    expect(list).toMatchObject({ method: 'GET', path: '/v1/payments/charges', query: { page: '2', pagesize: '5' } });
    expect(list).not.toHaveProperty('idempotencyKey');
    expect(transfer).toMatchObject({
      method: 'POST',
      path: '/v1/transfers',
      idempotencyKey: 'key-1',
      authorized: true,
    });
    expect(transfer?.at.getTime()).toBeGreaterThanOrEqual(before);
  });
});
