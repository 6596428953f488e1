/**
 * A caller's bad value, written into an error message so it says what was
 * wrong, not only what was expected. Request parameters hold no secret, but a
 * value can be long or hold line breaks: strings are quoted (JSON escapes
 * control characters, so a message stays one line) and cut to a few dozen
 * characters. Never used for header values or options, which may carry
 * credentials: {@link describeKind} names only their kind.
 */

/** Longest string echoed whole, in code points. */
const MAX_ECHOED_LENGTH = 40;

/** `"10,000"`, `3.3000000000000003`, `null`, `an object`, `nothing`. */
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
      return `${value}n`;
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
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

function quoted(text: string): string {
  const codePoints = Array.from(text);
  const shown = codePoints.length > MAX_ECHOED_LENGTH ? `${codePoints.slice(0, MAX_ECHOED_LENGTH).join('')}…` : text;
  return JSON.stringify(shown);
}

/**
 * What a plug-in (a logger, a listener, a schema, a custom `fetch`) threw, for
 * a log line or a message: an Error's name and message, a string, or else only
 * the value's kind. Never throws: a `null`-prototype object, a symbol, a
 * throwing getter or `toString`, a revoked Proxy are all named by their kind.
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
