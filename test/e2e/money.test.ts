/**
 * Money end to end: an amount that could move another sum never leaves the
 * SDK (a '.' grouping thousands, an integer a JSON number cannot write), and
 * every amount that does is moved and stored by the sandbox exactly as given.
 */
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from 'lunas-sdk';
import { start } from './helpers.js';
import { rejection } from '../helpers/rejection.js';

const rich = [
  // The most an opening balance may be here is what lunas-sdk sends: 1e20 is, and is the largest amount moved below.
  { id: 'acc_merchant', name: 'Merchant', balance: '100000000000000000000.00' },
  { id: 'acc_partner', name: 'Partner', balance: '0.00' },
];

describe('money end to end', () => {
  it("'10.000' moves nothing: refused before sending, naming both readings", async () => {
    const { sandbox, client } = await start();
    const error = await rejection(
      client.transfers.create({ destination_account_id: 'acc_partner', amount: '10.000', currency: 'idr' }),
      RequestValidationError,
    );
    expect(error.fields.amount![0]).toContain('write 10000 for ten thousand, or 10.00 for ten');
    expect(sandbox.requests).toHaveLength(0);
    expect(sandbox.balance('acc_partner')).toBe('0.00');
  });

  it("an item price of '1.500' is refused before sending", async () => {
    const { sandbox, client } = await start();
    const error = await rejection(
      client.charges.create({
        payment_method: 'qris',
        amount: 1500,
        items: [{ name: 'Kopi', price: '1.500', quantity: 1 }],
      }),
      RequestValidationError,
    );
    expect(error.fields['items.0.price']![0]).toContain('write 1500 for one thousand five hundred, or 1.50 for');
    expect(sandbox.requests).toHaveLength(0);
  });

  it.each([36028797018963968, '36028797018963968', '9007199254740993'])(
    '%j is refused, never sent as another amount',
    async (amount) => {
      const { sandbox, client } = await start({ accounts: rich });
      const error = await rejection(
        client.transfers.create({ destination_account_id: 'acc_partner', amount, currency: 'idr' }),
        RequestValidationError,
      );
      expect(error.fields.amount![0]).toMatch(/^Amount cannot be sent exactly as a JSON number/);
      expect(sandbox.requests).toHaveLength(0);
      expect(sandbox.balance('acc_partner')).toBe('0.00');
    },
  );

  it.each([
    [9007199254740991, '9007199254740991.00'],
    ['9999999999999.99', '9999999999999.99'],
    ['100000000000000000000', '100000000000000000000.00'],
    [90071992547409.94, '90071992547409.94'],
  ])('%j is moved and stored exactly', async (amount, stored) => {
    const { sandbox, client } = await start({ accounts: rich });
    const transfer = await client.transfers.create({ destination_account_id: 'acc_partner', amount, currency: 'idr' });
    expect(transfer.amount).toBe(stored);
    expect(sandbox.balance('acc_partner')).toBe(stored);
    const charge = await client.charges.create({
      payment_method: 'qris',
      amount,
      items: [{ name: 'Kopi', price: amount, quantity: 1 }],
    });
    expect([charge.amount, charge.items![0]!.price]).toEqual([stored, stored]);
  });
});
