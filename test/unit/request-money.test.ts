/**
 * Money in requests, the two ways a merchant's amount could move another sum:
 * a string whose '.' groups thousands (Indonesian '10.000' is ten thousand),
 * and an amount a JSON number cannot write exactly. Both are refused before
 * anything is sent; every other amount is sent as a literal meaning exactly it.
 */
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/index.js';
import { createdChargeJson, transferJson } from '../helpers/fixtures.js';
import { rejection } from '../helpers/rejection.js';
import { successResponse, wireClient } from '../helpers/wire.js';

const { client, sent } = wireClient((request) =>
  successResponse(request.url.pathname === '/v1/transfers' ? transferJson() : createdChargeJson()),
);

async function refusal(call: Promise<unknown>): Promise<Record<string, string[]>> {
  sent.length = 0;
  const error = await rejection(call, RequestValidationError);
  expect(sent).toHaveLength(0);
  return error.fields;
}

/** The body text sent by `call`, which must be sent once. */
async function bodySent(call: Promise<unknown>): Promise<string> {
  sent.length = 0;
  await call;
  expect(sent).toHaveLength(1);
  return sent[0]!.body;
}

const transfer = (amount: unknown) =>
  client.transfers.create({ destination_account_id: 'acc_partner', amount: amount as string, currency: 'idr' });
const chargeWithPrice = (price: unknown) =>
  client.charges.create({
    payment_method: 'qris',
    amount: 10_000,
    items: [{ name: 'Tea', price: price as string, quantity: 1 }],
  });

describe('a string with more than two digits after the point is refused, zeros included', () => {
  it.each([
    [
      '10.000',
      `Amount must have at most two digits after the '.' (got "10.000"): in Indonesia '.' groups thousands, ` +
        `so it may mean ten thousand; write 10000 for ten thousand, or 10.00 for ten`,
    ],
    [
      '1.500',
      `Amount must have at most two digits after the '.' (got "1.500"): in Indonesia '.' groups thousands, ` +
        `so it may mean one thousand five hundred; write 1500 for one thousand five hundred, or 1.50 for one point five`,
    ],
    [
      '25.050',
      `Amount must have at most two digits after the '.' (got "25.050"): in Indonesia '.' groups thousands, ` +
        `so it may mean twenty-five thousand fifty; write 25050 for twenty-five thousand fifty, ` +
        `or 25.05 for twenty-five point zero five`,
    ],
    [
      '1.234',
      `Amount must have at most two digits after the '.' (got "1.234"): in Indonesia '.' groups thousands, ` +
        `so it may mean one thousand two hundred thirty-four; write 1234 for one thousand two hundred thirty-four, ` +
        `or round it to cents, e.g. 1.23`,
    ],
    [
      '10.0000',
      `Amount must have at most two digits after the '.' (got "10.0000"): lunas never guesses whether a '.' ` +
        `groups thousands, as it does in Indonesia; write 10.00 for ten`,
    ],
    [
      '7.12345',
      `Amount must have at most two digits after the '.' (got "7.12345"): lunas never guesses whether a '.' ` +
        `groups thousands, as it does in Indonesia; round it to cents, e.g. 7.12`,
    ],
  ])('amount %j', async (amount, message) => {
    expect(await refusal(transfer(amount))).toEqual({ amount: [message] });
  });

  it('an item price "1.500" is refused at items.0.price, with the same fix', async () => {
    const fields = await refusal(chargeWithPrice('1.500'));
    expect(Object.keys(fields)).toEqual(['items.0.price']);
    expect(fields['items.0.price']![0]).toMatch(/^Price must have at most two digits after the '\.'/);
    expect(fields['items.0.price']![0]).toContain(
      'write 1500 for one thousand five hundred, or 1.50 for one point five',
    );
  });

  it('a charge amount "10.000" is refused too', async () => {
    const fields = await refusal(client.charges.create({ payment_method: 'qris', amount: '10.000' }));
    expect(fields.amount![0]).toContain('write 10000 for ten thousand, or 10.00 for ten');
  });

  it('Indonesian grouping with a decimal comma is answered with the plain form', async () => {
    expect((await refusal(transfer('1.500.000,50'))).amount![0]).toContain('write 1500000.5 or "1500000.50"');
    expect((await refusal(transfer('1.500.000'))).amount![0]).toContain('write 1500000 or "1500000.00"');
  });

  it('zero or below is still "Amount must be greater than 0", whatever its decimals', async () => {
    expect(await refusal(transfer('0.000'))).toEqual({ amount: ['Amount must be greater than 0'] });
    expect(await refusal(transfer('-1.500'))).toEqual({ amount: ['Amount must be greater than 0'] });
  });

  it('a number is not a string: 10.000 in JavaScript is 10, and is sent as 10', async () => {
    const body = await bodySent(transfer(Number('10.000')));
    expect(body).toContain('"amount":10,');
  });

  it.each(['10.00', '10.5', '10', '0010.50'])('%j, two digits or fewer, is sent', async (amount) => {
    expect(JSON.parse(await bodySent(transfer(amount))).amount).toBe(Number(amount));
  });
});

describe('an amount a JSON number cannot write exactly is refused, never changed', () => {
  const limits =
    'every whole amount up to 9007199254740991 and every amount with cents up to 9999999999999.99 is sent exactly';

  it.each([
    [36028797018963968, '36028797018963968', '36028797018963970'],
    ['36028797018963968', '"36028797018963968"', '36028797018963970'],
    ['9007199254740993', '"9007199254740993"', '9007199254740992'],
    ['90071992547409.93', '"90071992547409.93"', '90071992547409.94'],
    ['99999999999999.99', '"99999999999999.99"', '99999999999999.98'],
    [2 ** 70, '1180591620717411303424', '1.1805916207174113e+21'],
    ['1000000000000000000000', '"1000000000000000000000"', '1e+21'],
  ])('amount %j', async (amount, shown, wouldBe) => {
    expect(await refusal(transfer(amount))).toEqual({
      amount: [
        `Amount cannot be sent exactly as a JSON number (got ${shown}, which it would write as ${wouldBe}); ${limits}`,
      ],
    });
  });

  it('an item price is held to the same rule', async () => {
    const fields = await refusal(chargeWithPrice(36028797018963968));
    expect(fields).toEqual({
      'items.0.price': [
        `Price cannot be sent exactly as a JSON number (got 36028797018963968, which it would write as 36028797018963970); ${limits}`,
      ],
    });
  });

  it.each([
    [9007199254740991, '9007199254740991'],
    ['9007199254740991', '9007199254740991'],
    ['9999999999999.99', '9999999999999.99'],
    [18014398509481984, '18014398509481984'],
    ['100000000000000000000', '100000000000000000000'],
    [90071992547409.94, '90071992547409.94'],
  ])('%j is sent as the literal %s', async (amount, literal) => {
    expect(await bodySent(transfer(amount))).toContain(`"amount":${literal},`);
  });
});
