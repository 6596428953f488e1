/**
 * Money is held as integer cents in a `bigint`, so balances never drift and
 * no amount is too large to add exactly.
 */
import { normalizeMoney } from '../../shared/money.js';
import { BODY_LIMIT } from '../transport/http.js';

/**
 * Reads a wire amount: a JSON number or a decimal string. A JSON number is
 * read from `literal`, its text as sent (see json.ts), when there is one: a
 * double cannot hold `9007199254740993` or `100.0000000000000001`.
 * Returns `undefined` when the value is not a number with at most two
 * decimal places (trailing zeros beyond two places are tolerated: "1.500").
 */
export function parseCents(value: unknown, literal?: string): bigint | undefined {
  if (typeof value === 'number' && literal !== undefined) return literalCents(literal);
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  // The SDK's own reading (src/shared/money.ts), so both sides agree on every amount.
  const normal = normalizeMoney(value);
  return normal === undefined ? undefined : BigInt(normal.replace('.', ''));
}

const JSON_NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * A JSON number literal's exact value in cents, exponent included: `1.5e3` is
 * 150000n. Refused past a request body's worth of digits written out, so
 * `1e999999999` is never expanded.
 */
function literalCents(literal: string): bigint | undefined {
  const match = JSON_NUMBER.exec(literal);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  const digits = (whole + fraction).replace(/^0+/, '');
  // Where the cents' last digit falls: positive adds zeros, negative drops digits that must be zeros.
  const shift = Number(exponent) - fraction.length + 2;
  let cents: bigint;
  if (digits === '') cents = 0n;
  else if (shift >= 0) {
    if (digits.length + shift > BODY_LIMIT) return undefined;
    cents = BigInt(digits) * 10n ** BigInt(shift);
  } else {
    // `digits` starts with a non-zero digit: keeping none of them drops it.
    const kept = digits.length + shift;
    if (kept <= 0 || /[1-9]/.test(digits.slice(kept))) return undefined;
    cents = BigInt(digits.slice(0, kept));
  }
  return sign === '-' ? -cents : cents;
}

/** Formats cents the way responses carry money: "1234.50". */
export function formatCents(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}
