/**
 * Schemas, both ways: the pieces every resource builds its schemas from, and
 * what runs them on a call.
 *
 * - Responses are lenient (unknown fields kept, unknown enum values
 *   accepted) so a field or status the service adds later never breaks a
 *   merchant. `looseObject` is zod/mini's own: zod's faster compiled object
 *   parser is reachable only through its internals, which any zod release
 *   may reshape (docs/decisions/0004-public-ground.md).
 * - Requests are strict, with the service's messages, each naming the value
 *   given and how to write it; `validate` runs one and turns its issues into
 *   the service's fields map, so a refusal before sending reads like the
 *   service's own `fail` answer.
 * - Money is one rule both ways: a response's amount normalised to two
 *   decimals without floating point, a request's checked to survive the trip
 *   as a JSON number.
 * - `typedAs` and `paramsTypedAs` tie each schema to its hand-written public
 *   interface at compile time.
 *
 * One module, so a call's validation and decoding run in one file. Zod's
 * types stay in core/ and in the resources' modules: the public declarations
 * name no Zod type. Nothing here builds a message on the success path: the
 * describers (report/describe-value.ts) run only inside an `error` callback or a
 * refusal.
 */
import * as z from 'zod/mini';
import * as core from 'zod/v4/core';
import { DECIMAL, normalizeMoney } from '../../shared/money.js';
import { unknownFieldMessage } from './closest-names.js';
import { describeValue } from '../report/describe-value.js';
import { addFieldMessages, type FieldErrors, RequestValidationError } from '../report/errors.js';

export { z };

/** A schema that accepts `In` and parses to `Out`. */
export type Schema<Out, In = Out> = z.ZodMiniType<Out, In>;

/**
 * Records a refusal from inside a transform (zod's way to fail there) and
 * returns what the transform gives back for it.
 */
function refuse(ctx: core.ParsePayload, input: unknown, message: string): never {
  ctx.issues.push({ code: 'custom', input, message });
  return z.NEVER;
}

// Response pieces: lenient, so what the service adds later still parses.

/** A response object: known fields validated, unknown fields kept. */
export function looseObject<const Shape extends core.$ZodLooseShape>(
  shape: Shape,
): z.ZodMiniObject<Shape, core.$loose> {
  return z.looseObject(shape);
}

/**
 * A string enum that stays open at run time: a value added by the service
 * later still parses instead of breaking the caller. It takes no list of
 * known values: it would check none of them. The public union (e.g.
 * `ChargeStatus`) closes the type, through `typedAs`, which accepts a union
 * of strings for the schema's `string`.
 */
export function openEnum(): Schema<string> {
  return z.string();
}

/** A field the service may omit or send as null. */
export function maybe<Out, In>(schema: Schema<Out, In>): z.ZodMiniOptional<z.ZodMiniNullable<Schema<Out, In>>> {
  return z.optional(z.nullable(schema));
}

/** Any JSON object, every field kept: for resources the service leaves unspecified. */
export const jsonObject: Schema<Record<string, unknown>> = z.record(z.string(), z.unknown());

// Each schema tied to its hand-written public interface at compile time, so
// the two cannot drift apart unnoticed and no schema is exported for a test.

/**
 * A response schema typed as the public interface it parses to, the two tied
 * at compile time: `typedAs<Transfer>()(transferWire)` compiles only when
 * `Transfer` and the schema's output agree field by field (the rules:
 * `Disagreement`, below), and the error names each field that does not.
 * Nothing changes at run time: unknown fields are still kept and unknown
 * enum values still pass. Only the type is closed (documented fields, known
 * values), so a merchant's typo is a compile error. Curried because
 * TypeScript infers no type argument once one is given: `T` is named, the
 * schema's type inferred.
 */
export function typedAs<T>() {
  return <S extends Schema<unknown, unknown>>(schema: Tied<S, Disagreement<T, z.output<S>, 'response'>>) =>
    schema as unknown as Schema<T, unknown>;
}

/**
 * A request schema tied to the public parameters interface it checks:
 * `paramsTypedAs<TransferCreateParams>()(z.strictObject({ ... }))` compiles
 * only when what the schema accepts (its input) is `T`, field by field, with
 * no open enum. Returns the schema as it is: `validate` gives its output,
 * the body sent.
 */
export function paramsTypedAs<T>() {
  return <S extends Schema<unknown, unknown>>(schema: Tied<S, Disagreement<T, z.input<S>, 'request'>>) => schema as S;
}

/**
 * The schema's own type when its interface agrees with it, else one object
 * keyed by each disagreeing field, which the compiler prints as the type the
 * argument should have had: `{ "items[].price": Disagrees<"the types differ", number, string> }`.
 */
type Tied<S, D> = [D] extends [never]
  ? S
  : {
      [M in D as M extends Mismatch<infer At, string, unknown, unknown> ? At : never]: M extends Mismatch<
        string,
        infer Why,
        infer I,
        infer T
      >
        ? Disagrees<Why, I, T>
        : never;
    };

/**
 * How a hand-written interface `I` and a schema's type `S` disagree, one
 * object per disagreement naming the field (`items[].price`), or `never` when
 * they agree: the same keys, each optional on both sides or neither, `null`
 * and `undefined` allowed on both sides or neither, nested objects and array
 * items compared the same way, and any other type identical on both sides,
 * with two exceptions for responses. A known-values union (`ChargeStatus`)
 * agrees with the schema's `string` (an open enum: a value the service adds
 * later still parses), and the fields a `looseObject` keeps beyond its own
 * (its `unknown` index signature) are left out of the interface. Requests
 * have no exception: the interface is what the schema accepts.
 */
type Disagreement<I, S, Rule extends 'response' | 'request', At extends string = ''> =
  | NullishDisagreement<I, S, null, 'null', At>
  | NullishDisagreement<I, S, undefined, 'undefined', At>
  | ValueDisagreement<Exclude<I, null | undefined>, Exclude<S, null | undefined>, Rule, At>;

/**
 * One disagreement: the field as a path (`customer_details.name`,
 * `items[].price`, empty for the whole object), why, and both types.
 */
interface Mismatch<At extends string, Why extends string, I, S> {
  field: At;
  why: Why;
  interface: I;
  schema: S;
}

/** What the compiler prints for one field: why it disagrees, the interface's type, the schema's type. */
interface Disagrees<Why extends string, InInterface, InSchema> {
  why: Why;
  interface: InInterface;
  schema: InSchema;
}

type NullishDisagreement<I, S, N, Name extends string, At extends string> = [N] extends [I]
  ? [N] extends [S]
    ? never
    : Mismatch<At, `the interface allows ${Name}, the schema does not`, I, S>
  : [N] extends [S]
    ? Mismatch<At, `the schema allows ${Name}, the interface does not`, I, S>
    : never;

type ValueDisagreement<I, S, Rule extends 'response' | 'request', At extends string> =
  Identical<I, S> extends true
    ? never
    : [I, S] extends [readonly (infer IItem)[], readonly (infer SItem)[]]
      ? Disagreement<IItem, SItem, Rule, `${At}[]`>
      : [I, S] extends [object, object]
        ? ObjectDisagreement<I, S, Rule, At>
        : [Rule, I, Identical<S, string>] extends ['response', string, true]
          ? never // an open enum: the interface's union names the known values of the schema's string
          : Mismatch<At, 'the types differ', I, S>;

type ObjectDisagreement<I, S, Rule extends 'response' | 'request', At extends string> =
  | {
      [K in Exclude<NamedKeys<I>, NamedKeys<S>>]: Mismatch<Field<At, K>, 'in the interface only', I[K], never>;
    }[Exclude<NamedKeys<I>, NamedKeys<S>>]
  | { [K in Exclude<NamedKeys<S>, NamedKeys<I>>]: Mismatch<Field<At, K>, 'in the schema only', never, S[K]> }[Exclude<
      NamedKeys<S>,
      NamedKeys<I>
    >]
  | {
      [K in NamedKeys<I> & NamedKeys<S>]: IsOptional<I, K> extends IsOptional<S, K>
        ? Disagreement<I[K], S[K], Rule, Field<At, K>>
        : Mismatch<
            Field<At, K>,
            IsOptional<I, K> extends true ? 'optional in the interface only' : 'optional in the schema only',
            I[K],
            S[K]
          >;
    }[NamedKeys<I> & NamedKeys<S>]
  | IndexDisagreement<I, S, Rule, At>;

/**
 * Index signatures: on both sides or neither, with values that agree. A
 * response's `looseObject` has one for the fields it keeps beyond its own,
 * which are not part of the closed interface: it does not count. (A schema
 * with no named field at all, a JSON record, keeps its own.)
 */
type IndexDisagreement<I, S, Rule extends 'response' | 'request', At extends string> =
  HasIndex<I, 'request'> extends HasIndex<S, Rule>
    ? HasIndex<I, 'request'> extends true
      ? Disagreement<I[string & keyof I], S[string & keyof S], Rule, `${At}[string]`>
      : never
    : Mismatch<
        At,
        HasIndex<I, 'request'> extends true
          ? 'an index signature in the interface only'
          : 'an index signature in the schema only',
        I,
        S
      >;

type HasIndex<T, Rule extends 'response' | 'request'> = string extends keyof T
  ? [Rule, [NamedKeys<T>] extends [never] ? false : true, unknown extends T[string & keyof T] ? true : false] extends [
      'response',
      true,
      true,
    ]
    ? false // a looseObject's kept fields: at run time only
    : true
  : false;

type Identical<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
type NamedKey<K> = string extends K ? never : number extends K ? never : symbol extends K ? never : K;
type NamedKeys<T> = keyof { [K in keyof T as NamedKey<K>]: unknown } & string;
type IsOptional<T, K extends keyof T> = Pick<T, K> extends Required<Pick<T, K>> ? false : true;
type Field<At extends string, K extends string> = At extends '' ? K : `${At}.${K}`;

// Money, one rule both ways: a response's amount is normalised to a
// two-decimal string without floating point, and a request's is checked to
// survive the trip as a JSON number, with a message saying how to write it.

/**
 * From 2^46 (about 70 trillion) on, two amounts a cent apart can parse to the
 * same JSON number: a number that large cannot be trusted to the cent.
 */
const MAX_EXACT_MONEY_NUMBER = 2 ** 46;

/** Money in a response: a JSON number or string, normalised to two decimals. */
export const money = z.transform((value: unknown, ctx) => {
  // One step instead of union + pipe: it runs for every amount on every page.
  if (typeof value === 'number' && Math.abs(value) >= MAX_EXACT_MONEY_NUMBER) {
    return refuse(ctx, value, 'a JSON number this large cannot carry cents exactly');
  }
  const normalized = typeof value === 'number' || typeof value === 'string' ? normalizeMoney(value) : undefined;
  if (normalized === undefined) {
    return refuse(ctx, value, 'expected a decimal amount with at most two fractional digits');
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
      const decimal = typeof value === 'string' ? DECIMAL.exec(value) : null;
      if (decimal && (decimal[3]?.length ?? 0) > 2 && isPositive(decimal)) {
        return refuse(ctx, value, tooManyDecimals(label, decimal));
      }
      const normalized = normalizeMoney(value);
      if (normalized === undefined) return refuse(ctx, value, invalid(value));
      // The service's own message, word for word.
      if (normalized.startsWith('-') || /^0\.00$/.test(normalized)) {
        return refuse(ctx, value, `${label} must be greater than 0`);
      }
      const sent = Number(normalized);
      // String() is the literal JSON.stringify writes: it must read back as this very amount.
      const literal = String(sent);
      if (normalizeMoney(literal) !== normalized) {
        return refuse(
          ctx,
          value,
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

// Amounts in English words, for the refusal of an ambiguous amount: "write
// 10000 for ten thousand, or 10.00 for ten" says which reading each form
// stands for, where two digit strings side by side would not.

const ONES = (
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen ' +
  'seventeen eighteen nineteen'
).split(' ');
const TENS = '  twenty thirty forty fifty sixty seventy eighty ninety'.split(' ');
const SCALES = ' thousand million billion trillion quadrillion quintillion sextillion'.split(' ');

/** 1 to 999 in words: "one hundred five", "forty-two". */
function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts = hundreds > 0 ? [`${ONES[hundreds]} hundred`] : [];
  if (rest >= 20) parts.push(TENS[Math.floor(rest / 10)]! + (rest % 10 > 0 ? `-${ONES[rest % 10]}` : ''));
  else if (rest > 0) parts.push(ONES[rest]!);
  return parts.join(' ');
}

/**
 * A whole number in words ("twenty-five thousand fifty"); undefined past the
 * sextillions, where a message shows the digits alone.
 */
function wholeInWords(digits: string): string | undefined {
  let n = BigInt(digits);
  if (n === 0n) return 'zero';
  const groups: string[] = [];
  for (let scale = 0; n > 0n; scale++, n /= 1000n) {
    if (scale >= SCALES.length) return undefined;
    const group = Number(n % 1000n);
    if (group > 0) groups.unshift(scale === 0 ? belowThousand(group) : `${belowThousand(group)} ${SCALES[scale]}`);
  }
  return groups.join(' ');
}

/** A two-decimal amount read aloud: "10.00" is "ten", "1.50" is "one point five", "25.05" "twenty-five point zero five". */
function amountInWords(whole: string, cents: string): string | undefined {
  const words = wholeInWords(whole);
  const fraction = cents.replace(/0+$/, '');
  if (words === undefined || fraction === '') return words;
  return `${words} point ${[...fraction].map((digit) => ONES[Number(digit)]).join(' ')}`;
}

// Request parameters other than money: strict, with the service's messages,
// each naming the value given and how to write it.

/**
 * A JSON object the caller passes through unchecked (options of a payment
 * method lunas does not know yet). It must serialise: a BigInt or a circular
 * reference would otherwise fail while sending, as if the network had.
 */
export const jsonObjectParam: Schema<Record<string, unknown>> = jsonObject.check(
  z.refine((value) => jsonFailure(value) === undefined, {
    error: (issue) => `Must be JSON data: ${jsonFailure(issue.input)}; pass numbers, strings, arrays and objects`,
  }),
);

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
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** A string with a type message and an optional code-point limit. */
export function textParam(label: string, maxLength?: number): Schema<string> {
  const text = z.string({ error: (issue) => `${label} must be a string (got ${describeValue(issue.input)})` });
  if (maxLength === undefined) return text;
  return text.check(
    // A string has at least as many UTF-16 units as code points: only a long one needs counting.
    z.refine((value: string) => value.length <= maxLength || codePoints(value) <= maxLength, {
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
      if (value === '' && requiredMessage) return refuse(ctx, value, requiredMessage);
      if (!/^[A-Za-z]{3}$/.test(value)) return refuse(ctx, value, invalid(value));
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
      if (typeof value === 'string' && !ISO_DATETIME.test(value)) return refuse(ctx, value, invalid(value));
      const time = typeof value === 'string' ? parseIsoDatetime(value) : value.getTime();
      if (Number.isNaN(time)) {
        return refuse(
          ctx,
          value,
          typeof value === 'string'
            ? `${label} is not a real date and time (got ${describeValue(value)})`
            : invalid(value),
        );
      }
      // Outside years 0000-9999 toISOString() writes an expanded year (+010000-...) that ISO 8601 readers refuse.
      if (time < MIN_ISO_TIME || time > MAX_ISO_TIME) {
        return refuse(ctx, value, `${label} must fall in the years 0000 to 9999 (got ${new Date(time).toISOString()})`);
      }
      return new Date(time).toISOString();
    }),
  );
}

// Validation: caller parameters checked against a request schema, its issues
// turned into the service's fields map.

/**
 * Parses caller parameters with a request schema, or throws
 * `RequestValidationError`. Parameters are an object: anything else (`null`
 * from JavaScript included) is refused under the field `params`.
 */
export function validate<T>(schema: Schema<T, unknown>, input: unknown): T {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new RequestValidationError({ params: [`Parameters must be an object (got ${describeValue(input)})`] });
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new RequestValidationError(issuesToFields(result.error.issues, schema as unknown as SchemaNode));
  }
  return result.data;
}

/** `customer_details.email`, from a path of keys or of Standard Schema segments holding keys. */
export function dottedPath(path: readonly (PropertyKey | { readonly key: PropertyKey })[]): string {
  return path.map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.');
}

/**
 * Zod issues as the service's field map: dotted path to messages. An unknown
 * field gets the closest field of its object, as an unknown option does.
 */
function issuesToFields(issues: readonly z.core.$ZodIssue[], schema: SchemaNode): FieldErrors {
  const fields: FieldErrors = {};
  const add = (path: readonly PropertyKey[], message: string) => addFieldMessages(fields, dottedPath(path), [message]);
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const known = fieldsAt(schema, issue.path);
      for (const key of issue.keys) add([...issue.path, key], unknownFieldMessage(key, known));
    } else {
      add(issue.path, issue.message);
    }
  }
  return fields;
}

/**
 * A zod/mini schema through its public `def`, as far as finding an object's
 * fields needs: an object's `shape` (and `catchall`), an array's `element`,
 * and the schema inside a wrapper (`innerType` of optional and nullable, `in`
 * of a pipe).
 */
interface SchemaNode {
  def: {
    type: string;
    shape?: Record<string, SchemaNode>;
    catchall?: SchemaNode;
    element?: SchemaNode;
    innerType?: SchemaNode;
    in?: SchemaNode;
  };
}

/** The schema inside optional, nullable and pipe wrappers, none of which changes an object's fields. */
function unwrapped(node: SchemaNode | undefined): SchemaNode | undefined {
  let at = node;
  while (at && (at.def.innerType ?? at.def.in)) at = at.def.innerType ?? at.def.in;
  return at;
}

/** The field names of the object at `path` in `schema`, in its order; none when the path leads to no object. */
function fieldsAt(schema: SchemaNode, path: readonly PropertyKey[]): string[] {
  let node = unwrapped(schema);
  for (const segment of path) {
    const def = node?.def;
    if (def?.type === 'array') node = unwrapped(def.element);
    else if (def?.shape && typeof segment === 'string')
      // Own fields only: `constructor` is no field of a shape, whatever its prototype says.
      node = unwrapped(Object.hasOwn(def.shape, segment) ? def.shape[segment] : def.catchall);
    else return [];
  }
  return node?.def.shape ? Object.keys(node.def.shape) : [];
}
