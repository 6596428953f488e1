/**
 * Money read without floating point: one rule for the SDK (a response's
 * amount, a request's) and the sandbox (every amount it takes), so the two
 * never disagree on what `"1.500"` or `1e21` means. Part of src/shared, which
 * imports nothing.
 */

/** A plain decimal: an optional `-`, digits, and optionally `.` and digits (sign, whole, fraction). */
export const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const CANONICAL = /^-?(?:0|[1-9]\d*)\.\d\d$/;

/**
 * Money as a string with exactly two fractional digits: `10000` and `"10000"`
 * both become `"10000.00"`, `"1.500"` becomes `"1.50"`. `undefined` when the
 * value is not a finite decimal (no exponent, no sign but `-`, no spaces) or
 * would lose a non-zero digit beyond the cents.
 */
export function normalizeMoney(value: number | string): string | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // BigInt prints large integers without an exponent; String() gives the
    // shortest round-tripping form of the rest (and an exponent, refused, for
    // values far below a cent).
    text = Number.isInteger(value) ? BigInt(value).toString() : String(value);
  } else {
    // The usual answer ("10000.00") is already normal: skip the rewrite.
    if (CANONICAL.test(value)) return value;
    text = value;
  }
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = ''] = match;
  if (/[1-9]/.test(fraction.slice(2))) return undefined;
  return `${sign}${whole.replace(/^0+(?=\d)/, '')}.${fraction.padEnd(2, '0').slice(0, 2)}`;
}
