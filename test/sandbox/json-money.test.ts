/**
 * Money sent as a JSON number by a client that is not lunas (curl, another
 * language): the sandbox reads the literal as the exact decimal it writes,
 * never through a double, so it stores the amount sent or refuses it exactly
 * as it would the same digits in a string.
 */
import { describe, expect, it } from 'vitest';
import { call, inProcessSandbox, sandbox } from './helpers.js';

const charge = (amount: string) => `{"payment_method":"qris","amount":${amount}}`;
const transfer = (amount: string) => `{"destination_account_id":"acc_partner","amount":${amount},"currency":"idr"}`;
const PLACES = 'Amount must be a number with at most two decimal places';

describe('a JSON-number amount is read as the exact decimal it writes', () => {
  it.each([
    ['9007199254740993', '9007199254740993.00'],
    ['36028797018963968', '36028797018963968.00'],
    ['90071992547409.93', '90071992547409.93'],
    ['123456789012345678901234.99', '123456789012345678901234.99'],
    ['100.000000000000000000', '100.00'],
    ['1.5', '1.50'],
    ['1e2', '100.00'],
    ['1.5E3', '1500.00'],
    ['12345e-2', '123.45'],
    ['1e+21', '1000000000000000000000.00'],
    ['9007199254740993e3', '9007199254740993000.00'],
  ])('a charge of %s is stored as %s, over HTTP', async (literal, stored) => {
    const box = await sandbox();
    const response = await call(box, 'POST', '/v1/payments/charges', { raw: charge(literal) });
    expect(response.status).toBe(200);
    expect(response.body.data.amount).toBe(stored);
    const kept = await call(box, 'GET', `/v1/payments/charges/${response.body.data.id}`);
    expect(kept.body.data.amount).toBe(stored);
  });

  it('a transfer of 9007199254740993 moves exactly that, in process too', async () => {
    // Rich past any opening balance the sandbox takes (lunas-sdk's largest amount): a huge charge paid settles into it.
    const box = inProcessSandbox();
    const huge = await call(box, 'POST', '/v1/payments/charges', { raw: charge('1e24') });
    await box.payCharge(huge.body.data.id);
    const response = await call(box, 'POST', '/v1/transfers', { raw: transfer('9007199254740993') });
    expect(response.status).toBe(200);
    expect(response.body.data.amount).toBe('9007199254740993.00');
    expect(box.balance('acc_partner')).toBe('9007199254740993.00');
  });

  it('an item price is read the same way', async () => {
    const box = await sandbox();
    const raw =
      '{"payment_method":"qris","amount":10000,"items":[{"name":"Tea","price":9007199254740993,"quantity":1}]}';
    const response = await call(box, 'POST', '/v1/payments/charges', { raw });
    expect(response.status).toBe(200);
    expect(response.body.data.items[0].price).toBe('9007199254740993.00');
  });

  it('the last of two amounts with one name is the one read, as JSON.parse keeps the last', async () => {
    const box = await sandbox();
    const raw = '{"payment_method":"qris","amount":"5","amount":9007199254740993}';
    const response = await call(box, 'POST', '/v1/payments/charges', { raw });
    expect(response.body.data.amount).toBe('9007199254740993.00');
    const back = await call(box, 'POST', '/v1/payments/charges', {
      raw: '{"payment_method":"qris","amount":9007199254740993,"amount":"5"}',
    });
    expect(back.body.data.amount).toBe('5.00');
  });
});

describe('a JSON-number amount with a non-zero digit past the cents is refused, as its string is', () => {
  it.each([
    ['100.0000000000000001', 'amount'],
    ['0.001', 'amount'],
    ['1e-3', 'amount'],
    ['1.0000000000000000000000000000001e2', 'amount'],
  ])('%s', async (literal) => {
    const box = await sandbox();
    for (const raw of [charge(literal), charge(JSON.stringify(literal))]) {
      const response = await call(box, 'POST', '/v1/payments/charges', { raw });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ status: 'fail', data: { amount: [PLACES] } });
    }
    expect((await call(box, 'GET', '/v1/payments/charges')).body.total_items).toBe(0);
  });

  it('an item price of 100.0000000000000001 is refused at items.0.price', async () => {
    const box = inProcessSandbox();
    const raw =
      '{"payment_method":"qris","amount":100,"items":[{"name":"Tea","price":100.0000000000000001,"quantity":1}]}';
    const response = await call(box, 'POST', '/v1/payments/charges', { raw });
    expect(response.body).toEqual({
      status: 'fail',
      data: { 'items.0.price': ['Price must be a number with at most two decimal places'] },
    });
  });

  it('a transfer of 100.0000000000000001 moves nothing', async () => {
    const box = await sandbox();
    const response = await call(box, 'POST', '/v1/transfers', { raw: transfer('100.0000000000000001') });
    expect(response.body).toEqual({ status: 'fail', data: { amount: [PLACES] } });
    expect(box.balance('acc_partner')).toBe('0.00');
  });

  it.each(['0', '-0', '0.000', '-5', '0e5'])('%s is "Amount must be greater than 0"', async (literal) => {
    const box = await sandbox();
    const response = await call(box, 'POST', '/v1/payments/charges', { raw: charge(literal) });
    expect(response.body).toEqual({ status: 'fail', data: { amount: ['Amount must be greater than 0'] } });
  });

  it('a number whose digits written out would not fit in a request body is refused, not expanded', async () => {
    const box = await sandbox();
    const started = Date.now();
    const response = await call(box, 'POST', '/v1/payments/charges', { raw: charge('1e999999999') });
    expect(response.body).toEqual({ status: 'fail', data: { amount: [PLACES] } });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('malformed JSON keeps its answers', () => {
  it.each([
    '{"payment_method":"qris","amount":01}',
    '{"payment_method":"qris","amount":1.}',
    '{"payment_method":"qris","amount":.5}',
    '{"payment_method":"qris","amount":+1}',
    '{"payment_method":"qris","amount":1e}',
    '{"payment_method":"qris","amount":0x10}',
    '{"payment_method":"qris","amount":NaN}',
    '{"payment_method":"qris","amount":Infinity}',
    '{"payment_method":"qris","amount":1,}',
    '{"payment_method":\'qris\',"amount":1}',
    '{"payment_method":"qris" "amount":1}',
    '{"payment_method":"qris","amount":1} x',
    '{"payment_method":"q\u0001ris","amount":1}',
    '{"payment_method":"\\x71ris","amount":1}',
  ])('%s is "Request body must be valid JSON"', async (raw) => {
    const box = await sandbox();
    const response = await call(box, 'POST', '/v1/payments/charges', { raw });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'fail', data: { message: 'Request body must be valid JSON' } });
  });
});
