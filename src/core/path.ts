/**
 * Paths: resources build theirs with the {@link path} tag, which encodes each
 * id as one segment; raw calls pass a path that is checked, not encoded.
 */
import { describeValue } from './describe-value.js';
import { RequestValidationError } from './errors.js';
import { redact, type Secret } from './secrets.js';

/**
 * One path segment for an id. Percent-encoding keeps `/`, `?` and `#` inside
 * the segment; `.` and `..` cannot be encoded safely (URL parsers resolve
 * them, even as `%2E`), and no real id is either, so they are refused. So is
 * an id holding half of a UTF-16 surrogate pair (text cut in the middle of an
 * emoji, say): it has no UTF-8 form to percent-encode.
 */
function pathSegment(field: string, id: unknown): string {
  const problem = typeof id === 'string' ? idProblem(id) : `ID must be a non-empty string (got ${describeValue(id)})`;
  if (problem !== undefined) throw new RequestValidationError({ [field]: [problem] });
  return encodeURIComponent(id as string);
}

/**
 * Why `id` cannot name a resource as one path segment (see {@link path}), or
 * undefined when it can. One rule for the ids a call refuses before sending
 * and the ids a webhook event cannot name a charge with.
 */
export function idProblem(id: string): string | undefined {
  if (id === '') return `ID must be a non-empty string (got ${describeValue(id)})`;
  if (id === '.' || id === '..') return `ID must not be "${id}"`;
  if (hasLoneSurrogate(id))
    return 'ID must be valid Unicode text: it holds half of a UTF-16 surrogate pair, often text cut inside an emoji';
  return undefined;
}

/**
 * A resource's path, built by {@link path}: relative to the base URL and
 * encoded, so it skips the checks a raw call's path goes through.
 */
export class ResourcePath {
  constructor(readonly relative: string) {}
}

/**
 * A tag for resource paths: `` path`/v1/payments/charges/${id}` `` encodes
 * every interpolated value as one segment (refusing empty, `.` and `..`).
 * It throws `RequestValidationError`, so call it inside an async method.
 */
export function path(strings: TemplateStringsArray, ...ids: unknown[]): ResourcePath {
  let result = strings[0]!.slice(1);
  ids.forEach((id, index) => (result += pathSegment('id', id) + strings[index + 1]!));
  return new ResourcePath(result);
}

/**
 * A raw call's path, relative to the base URL as in the service's docs
 * (`/v1/payouts`), returned without its leading slash. Refuses what would
 * leave the base URL's path or change the request's meaning: a scheme or
 * host, `.`/`..` or empty segments, a query or fragment (use `query`),
 * backslashes, whitespace and control characters. A refusal quotes the
 * path, with the key masked by `secret`.
 */
export function relativePath(value: unknown, secret?: Secret): string {
  if (value instanceof ResourcePath) return value.relative;
  const refuse = (message: string): never => {
    throw new RequestValidationError({ path: [message] });
  };
  if (typeof value !== 'string' || value === '' || value === '/')
    return refuse('Path must be a non-empty string such as /v1/payouts');
  // Masked before it is cut short: a caller may have put the key in the path, and a cut key no longer matches.
  const masked = secret ? redact(value, secret) : value;
  const shown = masked.length > 60 ? `${masked.slice(0, 60)}…` : masked;
  if (hasLoneSurrogate(value)) return refuse(`Path is not valid Unicode text (got ${JSON.stringify(shown)})`);
  if (/^[a-z][a-z\d+.-]*:/i.test(value) || value.startsWith('//'))
    return refuse(`Path must be relative to the base URL, such as /v1/payouts (got ${JSON.stringify(shown)})`);
  if (/[?#]/.test(value))
    return refuse(`Path must not hold a query or fragment; pass the query option (got ${JSON.stringify(shown)})`);
  if (/[\s\\\p{Cc}]/u.test(value))
    return refuse(`Path must not hold whitespace, control characters or backslashes (got ${JSON.stringify(shown)})`);
  const relative = value.startsWith('/') ? value.slice(1) : value;
  for (const segment of relative.split('/')) {
    if (segment === '' || /^(\.|%2e){1,2}$/i.test(segment))
      return refuse(`Path must not hold empty, "." or ".." segments (got ${JSON.stringify(shown)})`);
  }
  return relative;
}

/** Whether `text` holds half of a UTF-16 pair: not Unicode text, and not encodable in a URL. */
export function hasLoneSurrogate(text: string): boolean {
  // ES2024; Node 20, Bun, Deno and workerd all have it, and it scans without a regular expression.
  return !text.isWellFormed();
}
