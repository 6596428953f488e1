/**
 * Money, one rule both ways: a response's amount is normalised to a
 * two-decimal string without floating point, and a request's is checked to
 * survive the trip as a JSON number, with a message saying how to write it.
 */
import * as z from 'zod/mini';
import { describeValue } from './describe-value.js';
import { amountInWords, wholeInWords } from './money-words.js';
import type { Schema } from './schema.js';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const CANONICAL = /^-?(?:0|[1-9]\d*)\.\d\d$/;

/**
 * Money as a string with exactly two fractional digits: `10000` and `"10000"`
 * both become `"10000.00"`. Undefined when the value is not a finite decimal or
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

/**
 * From 2^46 (about 70 trillion) on, two amounts a cent apart can parse to the
 * same JSON number: a number that large cannot be trusted to the cent.
 */
const MAX_EXACT_MONEY_NUMBER = 2 ** 46;

/** Money in a response: a JSON number or string, normalised to two decimals. */
export const money = z.transform((value: unknown, ctx) => {
  // One step instead of union + pipe: it runs for every amount on every page.
  if (typeof value === 'number' && Math.abs(value) >= MAX_EXACT_MONEY_NUMBER) {
    ctx.issues.push({ code: 'custom', input: value, message: 'a JSON number this large cannot carry cents exactly' });
    return z.NEVER;
  }
  const normalized = typeof value === 'number' || typeof value === 'string' ? normalizeMoney(value) : undefined;
  if (normalized === undefined) {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: 'expected a decimal amount with at most two fractional digits',
    });
    return z.NEVER;
  }
  return normalized;
}) as Schema<string, number | string>;

/**
 * Money in a request: a number or decimal string, finite, above 0, at most two
 * fractional digits; sent as a JSON number whose literal means exactly the
 * amount given, or refused. Messages name the value given and how to write it.
 */
export function moneyParam(label: string): Schema<number, number | string> {
  const invalid = (value: unknown) =>
    `${label} must be a number with at most two decimal places (got ${describeValue(value)}${moneyHint(value)})`;
  return z.pipe(
    z.union([z.number(), z.string()], {
      error: (issue) => (issue.input === undefined ? `${label} is required` : invalid(issue.input)),
    }),
    z.transform((value, ctx) => {
      const fail = (message: string) => {
        ctx.issues.push({ code: 'custom', input: value, message });
        return z.NEVER;
      };
      const decimal = typeof value === 'string' ? DECIMAL.exec(value) : null;
      if (decimal && (decimal[3]?.length ?? 0) > 2 && isPositive(decimal)) {
        return fail(tooManyDecimals(label, decimal));
      }
      const normalized = normalizeMoney(value);
      if (normalized === undefined) return fail(invalid(value));
      // The service's own message, word for word.
      if (normalized.startsWith('-') || /^0\.00$/.test(normalized)) return fail(`${label} must be greater than 0`);
      const sent = Number(normalized);
      // String() is the literal JSON.stringify writes: it must read back as this very amount.
      const literal = String(sent);
      if (normalizeMoney(literal) !== normalized) {
        return fail(
          `${label} cannot be sent exactly as a JSON number (got ${exactly(value)}, which it would write as ` +
            `${literal}); every whole amount up to ${Number.MAX_SAFE_INTEGER} and every amount with cents up to ` +
            `${MAX_EXACT_WITH_CENTS} is sent exactly`,
        );
      }
      return sent;
    }),
  );
}

/**
 * The largest amount with cents that every JSON reader gets back exactly: 15
 * significant digits always survive a double, which carries 15.95.
 */
const MAX_EXACT_WITH_CENTS = '9999999999999.99';

/** A value for a message, a number as its exact value (`String` would round 2^55 to ...970). */
function exactly(value: number | string): string {
  return typeof value === 'number' && Number.isInteger(value) ? BigInt(value).toString() : describeValue(value);
}

function isPositive([, sign, whole = '', fraction = '']: RegExpExecArray): boolean {
  return sign === '' && /[1-9]/.test(whole + fraction);
}

/**
 * The refusal of a string with more than two fractional digits. In Indonesia
 * '.' groups thousands ("Rp 10.000"), so "10.000" is ten thousand to the
 * people who type it: lunas never guesses, and says what each reading is
 * written as.
 */
function tooManyDecimals(label: string, match: RegExpExecArray): string {
  const [text, , whole = '', fraction = ''] = match;
  const head = `${label} must have at most two digits after the '.' (got ${describeValue(text)})`;
  const plainWhole = BigInt(whole).toString();
  const cents = fraction.slice(0, 2);
  const beyond = fraction.slice(2);
  // The decimal reading, when it is cents exactly ("10.00 for ten"); else how to make it so.
  let decimal: string | undefined = spelled(`${plainWhole}.${cents}`, amountInWords(plainWhole, cents));
  let rounding = '';
  if (/[1-9]/.test(beyond)) {
    decimal = undefined;
    const rounded = (BigInt(plainWhole + cents) + (beyond[0]! >= '5' ? 1n : 0n)).toString().padStart(3, '0');
    rounding = `round it to cents, e.g. ${rounded.slice(0, -2)}.${rounded.slice(-2)}`;
  }
  if (fraction.length !== 3) {
    const fix = decimal === undefined ? rounding : `write ${decimal}`;
    return `${head}: lunas never guesses whether a '.' groups thousands, as it does in Indonesia; ${fix}`;
  }
  const thousands = BigInt(whole + fraction).toString();
  const words = wholeInWords(thousands);
  return (
    `${head}: in Indonesia '.' groups thousands, so it may mean ${words ?? thousands}; ` +
    `write ${spelled(thousands, words)}, or ${decimal ?? rounding}`
  );
}

/** `10000 for ten thousand`, or the digits alone when they have no words. */
const spelled = (digits: string, words: string | undefined) =>
  words === undefined ? digits : `${digits} for ${words}`;

/** Groups of three after '.', then maybe a ',' and cents: "1.500.000", "1.500,50". */
const INDONESIAN_GROUPED = /^\d{1,3}(?:\.\d{3})+(?:,\d+)?$/;

const THOUSANDS_SEPARATED = /^\d{1,3}(?:([,_ ])\d{3})(?:\1\d{3})*(?:\.\d+)?$/;

/** How to write a money value that was refused: `; write 10000 or "10000.00"`, or `''`. */
function moneyHint(value: unknown): string {
  if (typeof value === 'number') {
    return Number.isFinite(value) ? '; round it to cents, e.g. Math.round(amount * 100) / 100' : '';
  }
  if (typeof value !== 'string') return '; pass a number or a decimal string';
  const trimmed = value.trim();
  // "10,000" or "10 000": thousands separators, never a decimal comma ("1,5" is not 15).
  const separator = THOUSANDS_SEPARATED.exec(trimmed)?.[1];
  let candidate = separator === undefined ? trimmed : trimmed.replaceAll(separator, '');
  // "1.500.000,50", as Indonesia writes it: '.' groups thousands, ',' starts the cents.
  if (INDONESIAN_GROUPED.test(trimmed)) candidate = trimmed.replaceAll('.', '').replace(',', '.');
  const normalized = normalizeMoney(candidate);
  if (normalized !== undefined) return `; write ${Number(normalized)} or "${normalized}"`;
  if (DECIMAL.test(candidate)) return '; round it to two decimal places';
  return '; write digits with an optional dot and two decimals, e.g. 10000 or "10000.00"';
}
