/**
 * core/checks/closest-names.ts: what an unknown option or request field is
 * answered with, the nearest known names (shared/closest-names.ts's rule) or,
 * when none is near, every known name; the name quoted as a value is, never
 * anything else.
 */
import { describe, expect, it } from 'vitest';
import { unknownFieldMessage, unknownOptionMessage } from '../../../../src/core/checks/closest-names.js';
import { closestNames } from '../../../../src/shared/closest-names.js';

describe('closest names', () => {
  it('normalises case, _ and -; ties give every nearest name; far names give none', () => {
    expect(closestNames('IDEMPOTENCY-KEY', ['idempotencyKey', 'timeout'])).toEqual(['idempotencyKey']);
    expect(closestNames('tmeout', ['timeout', 'maxRetries'])).toEqual(['timeout']);
    expect(closestNames('timoeut', ['timeout'])).toEqual(['timeout']);
    expect(closestNames('bod', ['body', 'bot'])).toEqual(['body', 'bot']);
    expect(closestNames('zzz', ['body'])).toEqual([]);
    expect(closestNames('x'.repeat(100_000), ['body'])).toEqual([]);
    expect(unknownOptionMessage('bod', ['body', 'bot'])).toBe('Unknown option "bod": did you mean "body" or "bot"?');
  });
});

describe('unknownOptionMessage', () => {
  it('names the option and the nearest known one', () => {
    expect(unknownOptionMessage('maxRetry', ['timeout', 'maxRetries'])).toBe(
      'Unknown option "maxRetry": did you mean "maxRetries"?',
    );
  });

  it('lists every known option when none is near', () => {
    expect(unknownOptionMessage('zzz', ['timeout', 'maxRetries'])).toBe(
      'Unknown option "zzz"; known options: timeout, maxRetries',
    );
  });

  it('quotes the name on one line and cut short, as a value is quoted', () => {
    const message = unknownOptionMessage('a\nb'.repeat(20), ['timeout']);
    // The first 40 code points, JSON-escaped, then the mark of a cut.
    expect(message).toBe(`Unknown option "${'a\\nb'.repeat(13)}a…"; known options: timeout`);
    expect(message).not.toContain('\n');
  });
});

describe('unknownFieldMessage', () => {
  it('leaves the field out, which the fields map names, and gives the nearest known one', () => {
    expect(unknownFieldMessage('page_size', ['page', 'pagesize'])).toBe('Unknown field: did you mean "pagesize"?');
  });

  it('lists every known field when none is near', () => {
    const message = unknownFieldMessage('limit', ['page', 'pagesize']);
    expect(message).toBe('Unknown field; known fields: page, pagesize');
    expect(message).not.toContain('limit');
  });
});
