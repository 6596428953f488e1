/**
 * The service's envelopes: `success` carries data, `fail` carries field
 * messages, `error` carries a message. Turns a response into parsed data or
 * the error its status calls for, whatever the body holds. A list's page
 * comes in a `success` envelope too ({@link PageEnvelope}), held to the
 * paging rules a walk relies on ({@link pagingIssues}). And the rules about
 * redirects, which are never followed: an answer that is one, or that came
 * after one, is an error (below).
 */
import { type DescribedIssue, describeIssue, describeThrown, type FoundAt } from '../report/describe-value.js';
import {
  addFieldMessages,
  APIError,
  describeFields,
  errorClassFor,
  LunasError,
  type FieldErrors,
  type ResponseIssue,
  ResponseValidationError,
} from '../report/errors.js';
import { dottedPath } from '../checks/schemas.js';
import { redact, type Secret } from '../report/secrets.js';
import type { StandardSchema } from '../types.js';

/*
 * Redirects, never followed: every rule about them in one place. A payments
 * API has no reason to send one, and an answer from a host the caller never
 * configured must not pass for the service's. Each attempt asks for
 * `redirect: 'manual'`; a 3xx is an `APIError` with its `Location` (never
 * retried); and a custom `fetch` that followed one anyway is caught by the
 * answer it gives.
 */

/** What every attempt asks of `fetch`: a 3xx answered as it came. */
export const REDIRECT_MODE = 'manual' satisfies RequestRedirect;

/**
 * 3xx, or 0: what fetch makes of a redirect under `redirect: 'manual'` in a
 * browser (an opaque redirect, hiding its status and Location).
 */
function isRedirect(status: number): boolean {
  return status === 0 || (status >= 300 && status < 400);
}

const NEVER_FOLLOWED = 'lunas never follows redirects';
const CHECK_BASE_URL = `${NEVER_FOLLOWED} (check the baseURL option)`;

/** Where a redirect pointed (already masked, as every header is), or why that is not known. */
function redirectDetail(status: number, location: string | null): string {
  if (status === 0) return `an opaque redirect (fetch hides where it pointed); ${CHECK_BASE_URL}`;
  if (location === null) return `a redirect with no Location; ${CHECK_BASE_URL}`;
  return `a redirect to ${location}; ${CHECK_BASE_URL}`;
}

/**
 * Thrown by the seam with ky (send.ts) when a custom fetch followed a redirect in spite
 * of `redirect: 'manual'`: the attempt turns it into an {@link APIError}. Its
 * body is cancelled unread.
 */
export class FollowedRedirect extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    /** Where the answer came from, when the response says. */
    readonly url: string | undefined,
  ) {
    super('a redirect was followed');
  }
}

/**
 * Whether `response` came from somewhere other than `asked`: flagged
 * `redirected`, or with a `url` that is neither empty (a Response a custom
 * fetch built itself) nor the URL asked for. Never throws.
 */
export function followedFrom(response: Response, asked: string): FollowedRedirect | undefined {
  try {
    const { url } = response;
    const elsewhere = typeof url === 'string' && url !== '' && url !== asked;
    if (response.redirected !== true && !elsewhere) return undefined;
    void (response.body as ReadableStream | null)?.cancel?.().catch(() => undefined);
    return new FollowedRedirect(
      response.status,
      response.headers,
      typeof url === 'string' && url !== '' ? url : undefined,
    );
  } catch {
    return undefined;
  }
}

/** `error` when it is the redirect a custom fetch followed; never throws, whatever `error` is. */
export function asFollowedRedirect(error: unknown): FollowedRedirect | undefined {
  // A thrown Proxy may trap reading its prototype.
  try {
    return error instanceof FollowedRedirect ? error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The error for an answer a custom fetch got by following a redirect (or from
 * a URL other than the one asked for): refused unread, since it does not come
 * from the service the caller configured. `headers` come masked.
 */
export function followedRedirectError(init: {
  label: string;
  status: number;
  headers: Headers;
  url: string | undefined;
  idempotencyKey: string | undefined;
}): APIError {
  const from = init.url === undefined ? 'after a redirect' : `from ${init.url}`;
  return new APIError({
    status: init.status,
    message: `${init.label} was answered ${from}: the fetch option followed a redirect, and ${NEVER_FOLLOWED}`,
    body: undefined,
    headers: init.headers,
    idempotencyKey: init.idempotencyKey,
  });
}

/** A response read to the end, with the context errors report. */
export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** `POST /v1/transfers`, for messages. */
  label: string;
  idempotencyKey: string | undefined;
  /** The API key's matcher, for text that does not come from the body (already masked). */
  secret: Secret;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * No reviver: the transport masked every form of the key in the text, escaped
 * ones (`\/`, `\u0041`) included, so no parsed string can hold it.
 */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The list envelope's paging fields, each an integer. */
const PAGE_FIELDS = ['page', 'page_size', 'total_items'] as const;

/** The list envelope's fields, as the service names them. @category Pagination */
export interface PageEnvelope<T> {
  /** The items of the page. */
  data: T[];
  /** The page number (1-based). */
  page: number;
  /** The page size the service applied. */
  page_size: number;
  /** The number of items across all pages. */
  total_items: number;
}

/**
 * The paging rules a walk relies on, each resting on the answer itself: the
 * page asked for, and a page size of at least 1 (the walk advances by page
 * number, and decides on a page's length against it). `total_items` is not
 * one: a cached count can lag or lead the pages, and a page that disagrees
 * with it is still returned. {@link decodeSuccess} makes each breach a
 * `ResponseValidationError`, once the envelope's fields are known to be integers.
 */
function pagingIssues(answer: PageEnvelope<unknown>, requested: number): ResponseIssue[] {
  if (answer.page !== requested)
    return [{ path: 'page', message: `expected ${requested}, the page requested, got ${answer.page}` }];
  if (answer.page_size < 1) return [{ path: 'page_size', message: `expected at least 1, got ${answer.page_size}` }];
  return [];
}

/**
 * Parses a 2xx response: a `success` envelope whose `data` `schema` checks
 * (any Standard Schema; unchecked without one). For a list (`page` is the
 * page requested), the result is the envelope's `data` with its paging
 * fields; otherwise the `data` alone. `within` bounds a schema that answers
 * asynchronously (by the attempt's time left, and the caller's signal).
 *
 * Answers synchronously, throwing its error, unless the schema answers with
 * a promise: lunas's own schemas never do, and every call and page decodes
 * here, so it pays for no promise it does not need.
 */
export function decodeSuccess(
  raw: RawResponse,
  schema: StandardSchema<unknown> | undefined,
  page: number | undefined,
  within: Within,
): unknown {
  const list = page !== undefined;
  const parsed = parseJson(raw.text);
  if (!parsed.ok) {
    throw invalidResponse(raw, [{ path: '', message: raw.text === '' ? 'the body is empty' : 'the body is not JSON' }]);
  }
  const body = parsed.value;
  if (!isObject(body)) throw invalidResponse(raw, [{ path: '', message: 'the body is not a JSON object' }]);
  if (body.status !== 'success') {
    // A 2xx carrying a `fail` or `error` envelope is still a refusal, never data.
    if (body.status === 'fail' || body.status === 'error') throw apiError(raw, body);
    throw invalidResponse(raw, [{ path: 'status', message: 'expected "success"' }]);
  }
  const issues: ResponseIssue[] = [];
  if (!Object.hasOwn(body, 'data')) issues.push({ path: 'data', message: 'missing' });
  else if (list && !Array.isArray(body.data)) issues.push({ path: 'data', message: 'expected array' });
  if (list) {
    for (const name of PAGE_FIELDS)
      if (!Number.isSafeInteger(body[name])) issues.push({ path: name, message: 'expected int' });
  }
  if (list && issues.length === 0) issues.push(...pagingIssues(body as unknown as PageEnvelope<unknown>, page));
  if (issues.length > 0) throw invalidResponse(raw, issues);
  const envelope = (data: unknown) =>
    list ? { data, page: body.page, page_size: body.page_size, total_items: body.total_items } : data;
  if (schema === undefined) return envelope(body.data);
  const data = checked(raw, schema, body.data, within);
  return data instanceof Pending ? data.promise.then(envelope) : envelope(data);
}

/** An asynchronous schema's answer still to come: told apart from a value, which may itself be a promise. */
class Pending {
  constructor(readonly promise: Promise<unknown>) {}
}

/**
 * Waits for an asynchronous schema's answer, or rejects with a `LunasError`:
 * `late()` once the attempt's time is up, `APIUserAbortError` at the caller's abort.
 */
type Within = (answer: PromiseLike<unknown>, late: () => LunasError) => PromiseLike<unknown>;

/**
 * `data` as the caller's schema returns it. Whatever the schema does (throws
 * anything, answers with something that is not a Standard Schema result,
 * never answers) ends as a `ResponseValidationError` carrying the body,
 * never as a `TypeError` or a call that hangs.
 */
function checked(raw: RawResponse, schema: StandardSchema<unknown>, data: unknown, within: Within): unknown {
  let answer: unknown;
  let thenable: boolean;
  try {
    answer = schema['~standard'].validate(data);
    // Read here, not through report/log.ts's isThenable: a successful call runs no code of log.ts.
    thenable = typeof (answer as { then?: unknown } | null)?.then === 'function';
  } catch (error) {
    throw schemaThrew(raw, error);
  }
  if (!thenable) return readResult(raw, answer, data);
  const refuse = () => invalidResponse(raw, [{ path: 'data', message: 'the schema did not answer in time' }]);
  return new Pending(
    (async () => {
      let result: unknown;
      try {
        result = await within(answer as PromiseLike<unknown>, refuse);
      } catch (error) {
        throw schemaThrew(raw, error);
      }
      return readResult(raw, result, data);
    })(),
  );
}

/** What a schema's throw (or rejection) ends as: the attempt's deadline and the caller's abort stay as they are. */
function schemaThrew(raw: RawResponse, error: unknown): LunasError {
  if (error instanceof LunasError) return error;
  return invalidResponse(raw, [
    { path: 'data', message: `the schema threw: ${redact(describeThrown(error), raw.secret)}` },
  ]);
}

/** The value of a schema's result, or the error for its issues or for a result lunas cannot read. */
function readResult(raw: RawResponse, result: unknown, data: unknown): unknown {
  const refuse = (message: string) => invalidResponse(raw, [{ path: 'data', message }]);
  let issues: ResponseIssue[] | undefined;
  try {
    // Read once, defensively: `null`, a number or a revoked Proxy throw here, and are no result.
    const given = (result as { issues?: unknown }).issues;
    if (given === undefined && 'value' in (result as object)) return (result as { value: unknown }).value;
    if (Array.isArray(given)) issues = given.map((issue) => readIssue(issue, data));
  } catch {
    // Not a result lunas can read.
  }
  if (issues === undefined) throw refuse('the schema answered with neither a value nor a list of issues');
  throw invalidResponse(raw, issues.length > 0 ? issues : [{ path: 'data', message: REFUSED }]);
}

/** The message of an issue that gives none lunas can read. */
const REFUSED = 'refused by the schema';

/**
 * One issue, with what cannot be read of it replaced: a refusal stays a
 * refusal. `data` tells an absent field (`missing`) from one of another kind.
 */
function readIssue(issue: unknown, data: unknown): ResponseIssue {
  const read = { path: 'data', message: REFUSED };
  try {
    const message = describeIssue(issue as DescribedIssue);
    if (typeof message === 'string') read.message = message;
    const { path } = issue as { path?: unknown };
    if (Array.isArray(path)) {
      const keys = path.map(segmentKey);
      read.path = dottedPath(['data', ...keys]);
      const found = lookUp(data, keys);
      if (found) read.message = describeIssue(issue as DescribedIssue, found);
    }
  } catch {
    // An issue that is not an object, or an odd path: what was read stays.
  }
  return read;
}

/** What `data` holds at `keys`; undefined when the way there passes through a value that is not an object. */
function lookUp(data: unknown, keys: readonly PropertyKey[]): FoundAt | undefined {
  let value = data;
  for (const key of keys) {
    if (typeof value !== 'object' || value === null) return undefined;
    if (!Object.hasOwn(value, key)) return { missing: true };
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return { missing: false, value };
}

/** A path segment's key: a key itself, or a `{ key }` segment's; anything else throws. */
function segmentKey(segment: unknown): PropertyKey {
  const key: unknown = typeof segment === 'object' && segment !== null ? (segment as { key: unknown }).key : segment;
  if (typeof key === 'string' || typeof key === 'number' || typeof key === 'symbol') return key;
  throw new TypeError('not a key');
}

/** The error for a non-2xx response, with the service's message when the body has one. */
export function decodeFailure(raw: RawResponse): APIError {
  const parsed = parseJson(raw.text);
  return apiError(raw, parsed.ok ? parsed.value : raw.text);
}

function apiError(raw: RawResponse, body: unknown): APIError {
  const fields = isObject(body) && body.status === 'fail' ? failFields(body.data) : {};
  const detail = isRedirect(raw.status)
    ? redirectDetail(raw.status, raw.headers.get('location'))
    : serviceMessage(body, fields);
  const ErrorClass = errorClassFor(raw.status);
  return new ErrorClass({
    status: raw.status,
    message: `${raw.label} failed with ${raw.status}: ${detail}${hint(raw.status)}`,
    body,
    headers: raw.headers,
    fields,
    idempotencyKey: raw.idempotencyKey,
  });
}

/** The field map of a `fail` envelope; `{ message }` alone is not a field. */
function failFields(data: unknown): FieldErrors {
  const fields: FieldErrors = {};
  if (!isObject(data)) return fields;
  for (const [field, messages] of Object.entries(data)) {
    if (field === 'message' && !Array.isArray(messages)) continue;
    const texts = Array.isArray(messages) ? messages.map(messageText) : [messageText(messages)];
    addFieldMessages(fields, field, texts);
  }
  return fields;
}

/** One message as text. Not String(): a hostile body's arrays nested 100 000 deep would overflow the stack. */
function messageText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (typeof message === 'object' && message !== null) return Array.isArray(message) ? '(a list)' : '(an object)';
  return String(message);
}

function serviceMessage(body: unknown, fields: FieldErrors): string {
  if (isObject(body)) {
    if (typeof body.message === 'string') return body.message;
    if (isObject(body.data) && typeof body.data.message === 'string') return body.data.message;
    if (Object.keys(fields).length > 0) return describeFields(fields);
  }
  if (typeof body === 'string' && body.trim() !== '') return `non-JSON body: ${snippet(body)}`;
  return 'no error message in the response';
}

function hint(status: number): string {
  if (status === 401) return ' (check the apiKey option or the LUNAS_API_KEY variable)';
  return '';
}

function snippet(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
}

function invalidResponse(raw: RawResponse, issues: ResponseIssue[]): ResponseValidationError {
  const first = issues[0];
  const where = first && first.path !== '' ? `at ${first.path}: ` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new ResponseValidationError({
    summary: `${raw.label} returned ${raw.status} with an unexpected body: ${where}${first?.message ?? 'invalid'}${more}`,
    issues,
    body: raw.text,
    status: raw.status,
    headers: raw.headers,
    idempotencyKey: raw.idempotencyKey,
  });
}
