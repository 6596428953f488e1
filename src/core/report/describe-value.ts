/**
 * Values described for messages, one rule each. A caller's bad value is
 * written into an error message so it says what was wrong, not only what was
 * expected. Request parameters hold no secret, but a value can be long or
 * hold line breaks: strings are quoted (JSON escapes control characters, so a
 * message stays one line) and cut to a few dozen characters. Never used for
 * header values or options, which may carry credentials: {@link describeKind}
 * names only their kind.
 */

/** Longest string echoed whole, in code points. */
const MAX_ECHOED_LENGTH = 40;

/** `"10,000"`, `3.3000000000000003`, `null`, `a bigint`, `an object`, `nothing`. */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'nothing';
    case 'string':
      return quoted(value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      // Its kind, not its digits: no JSON value is a BigInt, and the kind says why it was refused.
      return 'a bigint';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : 'a Date';
  return 'an object';
}

/** What came where a value was expected: `missing`, or `got ` and {@link describeValue}'s text. */
export function describeGiven(value: unknown): string {
  return value === undefined ? 'missing' : `got ${describeValue(value)}`;
}

/**
 * `a string`, `a number`, `an array`, `null`: the kind of a value without the
 * value, for arguments that may hold a secret when misplaced (an API key
 * passed where the options go).
 */
export function describeKind(value: unknown): string {
  if (value == null) return String(value);
  let kind: string = typeof value;
  try {
    if (Array.isArray(value)) kind = 'array';
  } catch {
    // A revoked Proxy: Array.isArray throws, and this must not.
  }
  return withArticle(kind);
}

/** `a string`, `an object`: a kind or type name with its indefinite article. */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

function quoted(text: string): string {
  const codePoints = Array.from(text);
  const shown = codePoints.length > MAX_ECHOED_LENGTH ? `${codePoints.slice(0, MAX_ECHOED_LENGTH).join('')}…` : text;
  return JSON.stringify(shown);
}

/** A schema's issue: a Standard Schema one, or zod's with its `code`, `expected` type and (when asked) `input`. */
export interface DescribedIssue {
  readonly message: string;
  readonly code?: unknown;
  readonly expected?: unknown;
  readonly input?: unknown;
}

/** What a response holds where an issue points: nothing (the field is absent), or a value. */
export type FoundAt = { readonly missing: true } | { readonly missing: false; readonly value: unknown };

/**
 * A response's issue, short: `expected string`, `does not match any accepted
 * type`, or the schema's own message. Given what the response holds there,
 * it says `missing (expected string)` for an absent field and `expected
 * string (got null)` for a value of another kind. The kind only, never the
 * value: a response may hold anything, and its body is on the error already.
 */
export function describeIssue(issue: DescribedIssue, found?: FoundAt): string {
  const expected =
    issue.code === 'invalid_type' && typeof issue.expected === 'string' ? `expected ${issue.expected}` : undefined;
  const text = expected ?? (issue.code === 'invalid_union' ? 'does not match any accepted type' : issue.message);
  if (found?.missing) return `missing (${text})`;
  if (found && expected !== undefined) return `${expected} (got ${describeKind(found.value)})`;
  return text;
}

/**
 * A webhook event's issue, with what came: `expected a string (missing)`,
 * `expected an object (got null)`. The event is all the merchant has to
 * debug a refusal with, so the message says what it held.
 */
export function describeIssueWithInput(issue: DescribedIssue): string {
  const expected =
    issue.code === 'invalid_type' && typeof issue.expected === 'string'
      ? `expected ${withArticle(issue.expected)}`
      : describeIssue(issue);
  return `${expected} (${describeGiven(issue.input)})`;
}

/**
 * What a plug-in (a logger, a listener, a schema, a custom `fetch`) threw, for
 * a log line or a message: an Error's name and message, a string, or else only
 * the value's kind. Never throws: a `null`-prototype object, a symbol, a
 * throwing getter or `toString`, a revoked Proxy are all named by their kind.
 *
 * Not `describeError` (core/report/secrets.ts), which has another job: it joins the
 * messages of an `Error` lunas rebuilt from a foreign one (its own, safe to
 * read) with its causes' for a connection error's message; this one reads a
 * value nobody checked, once, and may not follow its causes.
 */
export function describeThrown(value: unknown): string {
  try {
    const text = value instanceof Error ? `${value.name}: ${value.message}` : value;
    // Cut short: a log line or a message stays readable whatever was thrown.
    if (typeof text === 'string') return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    // A Proxy, or a getter or `toString` that throws: its kind below is all that can be read safely.
  }
  return describeKind(value);
}
