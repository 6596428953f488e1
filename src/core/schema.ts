/**
 * Shared Zod pieces. Responses are read leniently (unknown fields kept,
 * unknown enum values accepted); requests strictly, with the service's messages.
 * Zod's types stay in here and in the resources' modules: the public types
 * are hand-written interfaces (see `typedAs`), and the public declarations
 * name no Zod type.
 */
import * as z from 'zod/mini';
import * as core from 'zod/v4/core';
import { describeValue } from './describe-value.js';
import { addFieldMessages, type FieldErrors, RequestValidationError } from './errors.js';

export { z };

/** A schema that accepts `In` and parses to `Out`. */
export type Schema<Out, In = Out> = z.ZodMiniType<Out, In>;

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

// zod/mini parses objects with a generic loop; zod's compiled ("JIT") object
// parser is about five times faster, and only it costs a few hundred bytes.
// Every page of a list runs through these objects, so responses use it.
// Where eval is forbidden (strict CSP, some edge runtimes) zod falls back by itself.
type Init = (inst: object, def: object) => void;
const CompiledLooseObject = core.$constructor('LunasLooseObject', (inst: core.$ZodObject, def: core.$ZodObjectDef) => {
  (core.$ZodObjectJIT.init as Init)(inst, def);
  (z.ZodMiniType.init as Init)(inst, def);
});

/** A response object: known fields validated, unknown fields kept. */
export function looseObject<const Shape extends core.$ZodLooseShape>(
  shape: Shape,
): z.ZodMiniObject<Shape, core.$loose> {
  return new CompiledLooseObject({ type: 'object', shape, catchall: z.unknown() }) as unknown as z.ZodMiniObject<
    Shape,
    core.$loose
  >;
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
 * A string enum that stays open at run time: a value added by the service
 * later still parses instead of breaking the caller. The known values are
 * the public union's (e.g. `ChargeStatus`), which closes the type; the
 * schema's own output is `string`.
 */
export function openEnum<const T extends readonly string[]>(_known: T): Schema<string> {
  return z.string();
}

/**
 * A response schema typed as the public interface it parses to. Nothing
 * changes at run time: unknown fields are still kept and unknown enum values
 * still pass. Only the type is closed (documented fields, known values), so a
 * merchant's typo is a compile error. The type tests (test/unit/types.test.ts)
 * prove, field by field, that `T` and the schema's own output agree.
 */
export function typedAs<T>(schema: Schema<unknown, unknown>): Schema<T, unknown> {
  return schema as Schema<T, unknown>;
}

/** A field the service may omit or send as null. */
export function maybe<Out, In>(schema: Schema<Out, In>): z.ZodMiniOptional<z.ZodMiniNullable<Schema<Out, In>>> {
  return z.optional(z.nullable(schema));
}

/** Any JSON object, every field kept: for resources the service leaves unspecified. */
export const jsonObject: Schema<Record<string, unknown>> = z.record(z.string(), z.unknown());

/**
 * A JSON object the caller passes through unchecked (options of a payment
 * method lunas does not know yet). It must serialise: a BigInt or a circular
 * reference would otherwise fail while sending, as if the network had.
 */
export const jsonObjectParam: Schema<Record<string, unknown>> = jsonObject.check(
  z.refine(serialisesAsJson, {
    error: (issue) => `Must be JSON data: ${jsonFailure(issue.input)}; pass numbers, strings, arrays and objects`,
  }),
);

function serialisesAsJson(value: unknown): boolean {
  return jsonFailure(value) === undefined;
}

/** Why JSON.stringify refuses `value` (first line of its message), or undefined when it does not. */
function jsonFailure(value: unknown): string | undefined {
  try {
    JSON.stringify(value);
    return undefined;
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).split('\n')[0];
  }
}

/** Number of Unicode code points, so an emoji counts once towards a length limit. */
export function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Money in a request: a number or decimal string, finite, above 0, at most two
 * fractional digits; sent as a JSON number, so it must survive that exactly.
 * Messages name the value given and how to write it.
 */
export function moneyParam(label: string): Schema<number, number | string> {
  const invalid = (value: unknown) =>
    `${label} must be a number with at most two decimal places (got ${describeValue(value)}${moneyHint(value)})`;
  return z.pipe(
    z.union([z.number(), z.string()], {
      error: (issue) => (issue.input === undefined ? `${label} is required` : invalid(issue.input)),
    }),
    z.transform((value, ctx) => {
      const normalized = normalizeMoney(value);
      const fail = (message: string) => {
        ctx.issues.push({ code: 'custom', input: value, message });
        return z.NEVER;
      };
      if (normalized === undefined) return fail(invalid(value));
      // The service's own message, word for word.
      if (normalized.startsWith('-') || /^0\.00$/.test(normalized)) return fail(`${label} must be greater than 0`);
      const sent = Number(normalized);
      if (normalizeMoney(sent) !== normalized) {
        return fail(`${label} is too large to send exactly as a JSON number (got ${describeValue(value)})`);
      }
      return sent;
    }),
  );
}

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
  const candidate = separator === undefined ? trimmed : trimmed.replaceAll(separator, '');
  const normalized = normalizeMoney(candidate);
  if (normalized !== undefined) return `; write ${Number(normalized)} or "${normalized}"`;
  if (DECIMAL.test(candidate)) return '; round it to two decimal places';
  return '; write digits with an optional dot and two decimals, e.g. 10000 or "10000.00"';
}

/** A string with a type message and an optional code-point limit. */
export function textParam(label: string, maxLength?: number): Schema<string> {
  const text = z.string({ error: (issue) => `${label} must be a string (got ${describeValue(issue.input)})` });
  if (maxLength === undefined) return text;
  return text.check(
    z.refine((value: string) => codePoints(value) <= maxLength, {
      error: (issue) =>
        `${label} must be at most ${maxLength} characters (got ${codePoints(issue.input as string)}); shorten it`,
    }),
  );
}

/** An integer of at least `min` (and at most `max`); `message` says so, the value given is added. */
export function intParam(message: string, min: number, max?: number): Schema<number> {
  const error = (issue: { input?: unknown }) => `${message} (got ${describeValue(issue.input)})`;
  const checks = [z.gte(min, { error }), ...(max === undefined ? [] : [z.lte(max, { error })])];
  return z.int({ error }).check(...checks);
}

/** Three ASCII letters, sent lower-case. */
export function currencyParam(requiredMessage?: string): Schema<string> {
  const invalid = (value: unknown) => `Currency must be a three-letter code such as idr (got ${describeValue(value)})`;
  return z.pipe(
    z.string({
      // The service's "Currency is required" stays word for word.
      error: (issue) => (issue.input === undefined && requiredMessage ? requiredMessage : invalid(issue.input)),
    }),
    z.transform((value, ctx) => {
      if (value === '' && requiredMessage) {
        ctx.issues.push({ code: 'custom', input: value, message: requiredMessage });
        return z.NEVER;
      }
      if (!/^[A-Za-z]{3}$/.test(value)) {
        ctx.issues.push({ code: 'custom', input: value, message: invalid(value) });
        return z.NEVER;
      }
      return value.toLowerCase();
    }),
  );
}

const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** Parses an ISO 8601 datetime with a zone; NaN for anything else, 30 February included. */
function parseIsoDatetime(text: string): number {
  const match = ISO_DATETIME.exec(text);
  if (!match) return Number.NaN;
  const [year, month, day] = match.slice(1, 4).map(Number) as [number, number, number];
  // Date.parse rolls 30 February over into March; a real calendar date round-trips.
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return Number.NaN;
  return Date.parse(text);
}

const MIN_ISO_TIME = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_ISO_TIME = Date.parse('9999-12-31T23:59:59.999Z');

/** A `Date` or an ISO 8601 string with a zone, sent as ISO 8601 UTC. */
export function datetimeParam(label: string): Schema<string, Date | string> {
  const invalid = (value: unknown) =>
    `${label} must be a Date or an ISO 8601 datetime with a time and a zone, e.g. 2026-12-01T00:00:00Z ` +
    `(got ${describeValue(value)})`;
  return z.pipe(
    z.union([z.date(), z.string()], { error: (issue) => invalid(issue.input) }),
    z.transform((value, ctx) => {
      const fail = (message: string) => {
        ctx.issues.push({ code: 'custom', input: value, message });
        return z.NEVER;
      };
      if (typeof value === 'string' && !ISO_DATETIME.test(value)) return fail(invalid(value));
      const time = typeof value === 'string' ? parseIsoDatetime(value) : value.getTime();
      if (Number.isNaN(time)) {
        return fail(
          typeof value === 'string'
            ? `${label} is not a real date and time (got ${describeValue(value)})`
            : invalid(value),
        );
      }
      // Outside years 0000-9999 toISOString() writes an expanded year (+010000-...) that ISO 8601 readers refuse.
      if (time < MIN_ISO_TIME || time > MAX_ISO_TIME) {
        return fail(`${label} must fall in the years 0000 to 9999 (got ${new Date(time).toISOString()})`);
      }
      return new Date(time).toISOString();
    }),
  );
}

/** Zod issues as the service's field map: dotted path to messages. */
export function issuesToFields(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const fields: FieldErrors = {};
  const add = (path: readonly PropertyKey[], message: string) => addFieldMessages(fields, dottedPath(path), [message]);
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], 'Unknown field');
    } else {
      add(issue.path, issue.message);
    }
  }
  return fields;
}

/** `customer_details.email`, from a path of keys or of Standard Schema segments holding keys. */
export function dottedPath(path: readonly (PropertyKey | { readonly key: PropertyKey })[]): string {
  return path.map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.');
}

/**
 * Parses caller parameters with a request schema, or throws
 * `RequestValidationError`. Parameters are an object: anything else (`null`
 * from JavaScript included) is refused under the field `params`.
 */
export function validate<T>(schema: Schema<T, unknown>, input: unknown): T {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new RequestValidationError({ params: [`Parameters must be an object (got ${describeValue(input)})`] });
  const result = schema.safeParse(input);
  if (!result.success) throw new RequestValidationError(issuesToFields(result.error.issues));
  return result.data;
}
