/**
 * The describers of core/report/describe-value.ts, one rule each, as the
 * messages that use them show them: values and kinds, issues (a response
 * mismatch says what the response held there, never the value), and what a
 * plug-in threw, however hostile.
 */
import { describe, expect, it } from 'vitest';
import { failOnUnhandledRejections } from '../../../helpers/recorders.js';
import { HOSTILE_THROWS } from '../../../helpers/hostile.js';
import {
  describeGiven,
  describeIssue,
  describeIssueWithInput,
  describeKind,
  describeValue,
  withArticle,
  describeThrown,
} from '../../../../src/core/report/describe-value.js';
import { ResponseValidationError } from '../../../../src/index.js';
import { CHARGE_ID, chargeJson, success } from '../../../helpers/fixtures.js';
import { makeClient } from '../../../helpers/msw.js';
import { jsonReply, route } from '../../../helpers/requests.js';
import { rejection } from '../../../helpers/rejection.js';

describe('describeValue and describeGiven', () => {
  it('quote strings cut to 40 code points, and name other values by value or kind', () => {
    expect(describeValue('a\nb')).toBe('"a\\nb"');
    expect(describeValue('x'.repeat(50))).toBe(`"${'x'.repeat(40)}…"`);
    expect(describeValue(5n)).toBe('a bigint');
    expect(describeValue([1])).toBe('an array');
    expect(describeValue(new Date(Number.NaN))).toBe('an invalid Date');
    expect(describeGiven(undefined)).toBe('missing');
    expect(describeGiven(null)).toBe('got null');
    expect(describeGiven('5')).toBe('got "5"');
  });
});

describe('withArticle and describeKind', () => {
  it('share one rule for the article', () => {
    expect(withArticle('object')).toBe('an object');
    expect(withArticle('string')).toBe('a string');
    expect(describeKind([])).toBe('an array');
    expect(describeKind('sk_live_secret')).toBe('a string');
    expect(describeKind(undefined)).toBe('undefined');
  });
});

describe('describeIssue and describeIssueWithInput', () => {
  it('given what the response holds there: missing, or the kind of what came, never the value', () => {
    const wrongType = { code: 'invalid_type', expected: 'string', message: 'Invalid input' };
    expect(describeIssue(wrongType, { missing: true })).toBe('missing (expected string)');
    expect(describeIssue(wrongType, { missing: false, value: null })).toBe('expected string (got null)');
    expect(describeIssue(wrongType, { missing: false, value: 'sk_live_x' })).toBe('expected string (got a string)');
    expect(describeIssue(wrongType, { missing: false, value: 7 })).toBe('expected string (got a number)');
    const union = { code: 'invalid_union', message: 'Invalid input' };
    expect(describeIssue(union, { missing: true })).toBe('missing (does not match any accepted type)');
    expect(describeIssue(union, { missing: false, value: 7 })).toBe('does not match any accepted type');
    expect(describeIssue({ message: 'must be positive' }, { missing: false, value: -1 })).toBe('must be positive');
  });

  it('a response issue is short; a webhook issue says what came', () => {
    const wrongType = { code: 'invalid_type', expected: 'string', message: 'Invalid input', input: 3 };
    expect(describeIssue(wrongType)).toBe('expected string');
    expect(describeIssueWithInput(wrongType)).toBe('expected a string (got 3)');
    expect(describeIssueWithInput({ ...wrongType, expected: 'object', input: undefined })).toBe(
      'expected an object (missing)',
    );
    expect(describeIssue({ code: 'invalid_union', message: 'Invalid input' })).toBe('does not match any accepted type');
    expect(describeIssue({ message: 'must be positive' })).toBe('must be positive');
    expect(describeIssueWithInput({ code: 'custom', message: 'cannot name a charge', input: '..' })).toBe(
      'cannot name a charge (got "..")',
    );
  });
});

describe('describeThrown', () => {
  failOnUnhandledRejections();

  it.each(HOSTILE_THROWS)('never throws, and names %s by its kind', (_, make) => {
    const text = describeThrown(make());
    expect(typeof text).toBe('string');
    expect(text).toMatch(/^(an? \w+|undefined|null)$/);
  });

  it('gives an Error’s name and message, and a string itself, cut short', () => {
    expect(describeThrown(new TypeError('bad'))).toBe('TypeError: bad');
    expect(describeThrown('plain')).toBe('plain');
    expect(describeThrown('x'.repeat(1_000))).toHaveLength(201);
    expect(describeThrown(null)).toBe('null');
    expect(describeThrown(42)).toBe('a number');
  });
});

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
