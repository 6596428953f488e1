import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { normalizeMoney } from '../../../src/shared/money.js';
import { ResponseValidationError } from '../../../src/index.js';
import { makeClient, server } from '../../helpers/msw.js';
import { BASE_URL, chargeJson, success } from '../../helpers/fixtures.js';

describe('normalizeMoney', () => {
  it.each([
    [10000, '10000.00'],
    ['10000', '10000.00'],
    [10000.5, '10000.50'],
    ['10000.5', '10000.50'],
    ['10000.50', '10000.50'],
    ['10000.500', '10000.50'],
    ['007.1', '7.10'],
    ['0', '0.00'],
    [0, '0.00'],
    ['0.07', '0.07'],
    [0.07, '0.07'],
    [0.1, '0.10'],
    [99999999.99, '99999999.99'],
    [1e21, '1000000000000000000000.00'],
    [2 ** 60, '1152921504606846976.00'],
    ['12345678901234567.89', '12345678901234567.89'],
    ['-5', '-5.00'],
  ])('%j -> %j', (input, output) => {
    expect(normalizeMoney(input)).toBe(output);
  });

  it.each([
    ['1.234'],
    [1.234],
    ['0.001'],
    [0.1 + 0.2],
    [1e-7],
    ['abc'],
    [''],
    ['1e3'],
    ['1,000.00'],
    [' 1'],
    ['1.'],
    ['.5'],
    ['+1'],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
  ])('%j -> undefined', (input) => {
    expect(normalizeMoney(input)).toBeUndefined();
  });
});

describe('money in responses', () => {
  function serveCharge(data: Record<string, unknown>) {
    server.use(http.get(`${BASE_URL}/v1/payments/charges/:id`, () => HttpResponse.json(success(data))));
  }

  it.each([
    [10000, '10000.00'],
    ['10000', '10000.00'],
    [10000.5, '10000.50'],
    ['10000.50', '10000.50'],
    ['007.1', '7.10'],
    [2 ** 46 - 1, '70368744177663.00'],
    ['12345678901234567.89', '12345678901234567.89'],
    ['10000.000', '10000.00'],
  ])('amount %j -> %j (a string with two decimals)', async (amount, expected) => {
    serveCharge(chargeJson({ amount }));
    const charge = await makeClient().charges.retrieve('ch_123');
    expect(charge.amount).toBe(expected);
    expect(typeof charge.amount).toBe('string');
  });

  it('normalises fee and items[].price the same way', async () => {
    serveCharge(
      chargeJson({
        fee: 70,
        items: [
          { name: 'Tea', price: 5000, quantity: 1 },
          { name: 'Cake', price: '12.5', quantity: 2 },
          { name: 'Water', price: 0.5, quantity: 3 },
        ],
      }),
    );
    const charge = await makeClient().charges.retrieve('ch_123');
    expect(charge.fee).toBe('70.00');
    expect(charge.items!.map((item) => item.price)).toEqual(['5000.00', '12.50', '0.50']);
  });

  it.each([
    ['amount', '10000.123', 'data.amount'],
    ['amount', 10000.123, 'data.amount'],
    ['amount', 'abc', 'data.amount'],
    ['amount', true, 'data.amount'],
    ['amount', null, 'data.amount'],
    ['amount', '', 'data.amount'],
    ['amount', '1e3', 'data.amount'],
    ['amount', { value: '1.00' }, 'data.amount'],
    ['amount', 1e21, 'data.amount'],
    ['amount', 2 ** 46, 'data.amount'],
    ['fee', '0.001', 'data.fee'],
    ['fee', false, 'data.fee'],
  ])('%s = %j -> ResponseValidationError at %s with the raw body', async (key, value, path) => {
    const text = JSON.stringify(success(chargeJson({ [key]: value })), null, 2);
    server.use(
      http.get(
        `${BASE_URL}/v1/payments/charges/:id`,
        () => new HttpResponse(text, { headers: { 'content-type': 'application/json', 'x-request-id': 'req_money' } }),
      ),
    );
    const error = await makeClient()
      .charges.retrieve('ch_123')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const validation = error as ResponseValidationError;
    expect(validation.path).toBe(path);
    expect(validation.body).toBe(text);
    expect(validation.status).toBe(200);
    expect(validation.requestId).toBe('req_money');
    expect(validation.issues.map((issue) => issue.path)).toContain(path);
  });

  it('items[].price with three non-zero decimals -> ResponseValidationError at data.items.0.price', async () => {
    const text = JSON.stringify(success(chargeJson({ items: [{ name: 'Tea', price: '1.999', quantity: 1 }] })));
    server.use(
      http.get(
        `${BASE_URL}/v1/payments/charges/:id`,
        () => new HttpResponse(text, { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const error = await makeClient()
      .charges.retrieve('ch_123')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('data.items.0.price');
    expect((error as ResponseValidationError).body).toBe(text);
  });

  it('reports every bad money field, the first one as path', async () => {
    serveCharge(chargeJson({ amount: 'abc', fee: 'def' }));
    const error = (await makeClient()
      .charges.retrieve('ch_123')
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((issue) => issue.path).sort()).toEqual(['data.amount', 'data.fee']);
    expect(['data.amount', 'data.fee']).toContain(error.path);
  });
});
