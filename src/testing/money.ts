/**
 * Money is held as integer cents in a `bigint`, so balances never drift and
 * no amount is too large to add exactly.
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Reads a wire amount: a JSON number or a decimal string.
 * Returns `undefined` when the value is not a number with at most two
 * decimal places (trailing zeros beyond two places are tolerated: "1.500").
 */
export function parseCents(value: unknown): bigint | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // Integral doubles convert exactly; String() would switch to exponent form at 1e21.
    if (Number.isInteger(value)) return BigInt(value) * 100n;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value;
  } else {
    return undefined;
  }
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '0', rawFraction = ''] = match;
  const fraction = rawFraction.replace(/0+$/, '');
  if (fraction.length > 2) return undefined;
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
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
