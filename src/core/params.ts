/**
 * Request parameters other than money (see money.ts): strict, with the
 * service's messages, each naming the value given and how to write it.
 */
import * as z from 'zod/mini';
import { describeValue } from './describe-value.js';
import { jsonObject, type Schema } from './schema.js';

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
