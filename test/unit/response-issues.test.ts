/**
 * A response mismatch says what the response held there: `missing` for an
 * absent field, the kind for a value of another kind (`got null`, `got a
 * number`), never the value itself.
 */
import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/index.js';
import { CHARGE_ID, chargeJson, success } from '../helpers/fixtures.js';
import { makeClient } from '../helpers/msw.js';
import { jsonReply, route } from '../helpers/requests.js';
import { rejection } from '../helpers/rejection.js';

async function retrieveFailure(charge: Record<string, unknown>): Promise<ResponseValidationError> {
  route('GET', `/v1/payments/charges/${CHARGE_ID}`, () => jsonReply(200, success(charge)));
  return rejection(makeClient({ maxRetries: 0 }).charges.retrieve(CHARGE_ID), ResponseValidationError);
}

describe('response issues', () => {
  it('an absent field is missing, with what was expected', async () => {
    const { payment_method: _, ...withoutMethod } = chargeJson();
    const error = await retrieveFailure(withoutMethod);
    expect(error.issues).toEqual([{ path: 'data.payment_method', message: 'missing (expected string)' }]);
    expect(error.message).toContain('at data.payment_method: missing (expected string)');
  });

  it('a value of another kind names its kind, not its value', async () => {
    const error = await retrieveFailure(chargeJson({ payment_method: 4111_1111, status: null, customer_details: [] }));
    expect(error.issues).toEqual([
      { path: 'data.payment_method', message: 'expected string (got a number)' },
      { path: 'data.status', message: 'expected string (got null)' },
      { path: 'data.customer_details', message: 'expected object (got an array)' },
    ]);
    expect(error.message).not.toContain('4111');
  });

  it('a field absent inside a nested object is missing too', async () => {
    const error = await retrieveFailure(chargeJson({ items: [{ price: '5000.00', quantity: 2 }] }));
    expect(error.issues).toEqual([{ path: 'data.items.0.name', message: 'missing (expected string)' }]);
  });
});
