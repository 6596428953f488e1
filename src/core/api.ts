/**
 * The one request primitive. Every resource method and the raw
 * `client.get`/`client.post` go through {@link API}: a path, what to send
 * (query or body, and a schema for the envelope's `data`), then the caller's
 * request options.
 */
import { describeValue } from './describe-value.js';
import { addFieldMessages, RequestValidationError, type FieldErrors } from './errors.js';
import { NewestFirstPagePromise } from './newest-first.js';
import { PagePromise } from './page-promise.js';
import { type Listing, type ListOrder, Page, type PageSource } from './pagination.js';
import { hasLoneSurrogate, relativePath, type ResourcePath } from './path.js';
import { checkRequestOptions, type RequestOptions } from './options.js';
import { remember } from './response-info.js';
import { intParam } from './params.js';
import { type Schema, z } from './schema.js';
import { validate } from './validate.js';
import { describeError, foreignError, maskRefusal, redact, type Secret } from './secrets.js';
import type { StandardSchema } from './standard-schema.js';
import type { Transport } from './transport.js';

/**
 * Query parameters of a raw GET; `undefined` values are left out.
 * @category Client
 */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/**
 * Options of `client.get`: the request options, a query, and a schema for the
 * envelope's `data`. Any other name (`querry`, `body`) is refused before sending.
 * @category Client
 */
export interface GetOptions<T = unknown> extends RequestOptions {
  /** Query parameters, e.g. `{ page: 2, pagesize: 100 }`. */
  query?: QueryParams | undefined;
  /**
   * Any Standard Schema (zod, valibot, arktype...) for the envelope's `data`:
   * the result is typed by it, and a mismatch rejects with
   * `ResponseValidationError`, as for lunas's own methods.
   */
  schema?: StandardSchema<T> | undefined;
}

/**
 * Options of `client.post`: the request options, a JSON body, and a schema for
 * the envelope's `data`. Any other name (`bdy`, `query`) is refused before sending.
 * @category Client
 */
export interface PostOptions<T = unknown> extends RequestOptions {
  /** The request body, sent as JSON. */
  body?: unknown;
  /** As for {@link GetOptions.schema}. */
  schema?: StandardSchema<T> | undefined;
}

/**
 * Paging parameters of every list method.
 *
 * @example
 * ```ts
 * const page = await client.charges.list({ page: 2, pagesize: 100 });
 * ```
 * @category Pagination
 */
export interface ListParams {
  /** 1-based page to start from. Default 1. */
  page?: number;
  /** Items per page, 1 to 100. Default: the service's (10). */
  pagesize?: number;
}

/** Query parameters of every list method. */
const listParams = z.strictObject({
  page: z.optional(intParam('Page must be an integer of at least 1', 1)),
  pagesize: z.optional(intParam('Page size must be an integer from 1 to 100', 1, 100)),
});

/**
 * The request options' names, refused in what to send: they go in the last
 * argument, so `{ ...options, schema }` there is a compile error, not options
 * silently dropped.
 */
type NoRequestOptions = { readonly [Name in keyof RequestOptions]?: never };

/**
 * What a GET sends besides its path: a query, and the schema of the envelope's `data`.
 * Each resource method writes its own: `{ schema: chargeSchema }`.
 */
type GetRequest<T> = Pick<GetOptions<T>, 'query' | 'schema'> & NoRequestOptions;

/** What a POST sends besides its path: a JSON body, and the schema of the envelope's `data`. */
type PostRequest<T> = Pick<PostOptions<T>, 'body' | 'schema'> & NoRequestOptions;

/**
 * What a list sends besides its path: the caller's paging `params`, the schema
 * of one page's `data`, and the order the service documents for this list
 * (a walk relies on nothing more).
 */
interface ListRequest<T> extends NoRequestOptions {
  /** Checks a page's `data`. */
  items: StandardSchema<T[]>;
  /** `newest-first` when the service documents it, else `unspecified`. */
  order: ListOrder;
  /** The caller's `page` and `pagesize`, checked before sending. */
  params?: ListParams | null | undefined;
}

/**
 * @internal The request primitive behind a {@link Client}; resources hold one.
 * Every method has one shape: the path, what to send, then the caller's
 * request options.
 */
export class API {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** GET `path`; resolves to the envelope's `data`, checked by `request.schema` when given. */
  async get<T>(path: ResourcePath, request: GetRequest<T>, options?: RequestOptions | null): Promise<T> {
    return this.#send('GET', path, request, this.checkOptions(options));
  }

  /** POST `request.body` as JSON to `path`, with an Idempotency-Key; resolves as {@link API.get} does. */
  async post<T>(path: ResourcePath, request: PostRequest<T>, options?: RequestOptions | null): Promise<T> {
    return this.#send('POST', path, request, this.checkOptions(options));
  }

  /**
   * GET a list, as a {@link PagePromise} that can walk every page; a
   * newest-first list's can also walk back to a time (`since`).
   */
  list<T>(
    path: ResourcePath,
    request: ListRequest<T> & { order: 'newest-first' },
    options?: RequestOptions | null,
  ): NewestFirstPagePromise<T>;
  list<T>(path: ResourcePath, request: ListRequest<T>, options?: RequestOptions | null): PagePromise<T>;
  list<T>(path: ResourcePath, request: ListRequest<T>, options?: RequestOptions | null): PagePromise<T> {
    const listing: Listing = {
      order: request.order,
      describe: () => describeListing(redact(`GET /${path.relative}`, this.#transport.secret), request.params),
      secret: this.#transport.secret,
    };
    const Kind = request.order === 'newest-first' ? NewestFirstPagePromise : PagePromise;
    return new Kind(async () => {
      const checked = this.checkOptions(options);
      const { page = 1, pagesize } = this.validate(listParams, request.params ?? {});
      const relative = relativePath(path, this.#transport.secret);
      const transport = this.#transport;
      const source: PageSource<T> = {
        label: `GET /${relative}`,
        order: request.order,
        warn: (message) => transport.warn(message),
        fetch: async (number, lookahead) => {
          const signal =
            lookahead && checked.signal ? AbortSignal.any([checked.signal, lookahead]) : (lookahead ?? checked.signal);
          const { body, info } = await transport.request(
            { method: 'GET', path: relative, query: { page: number, pagesize }, schema: request.items, page: number },
            signal ? { ...checked, signal } : checked,
          );
          return remember(new Page(body, source), info);
        },
      };
      return source.fetch(page);
    }, listing);
  }

  /** The caller's request options, checked by name and value before anything is sent. */
  checkOptions(options: RequestOptions | null | undefined): RequestOptions {
    return this.#refusing(() => checkRequestOptions(options));
  }

  /** A method's parameters, checked by `schema` before anything is sent. */
  validate<T>(schema: Schema<T, unknown>, params: unknown): T {
    return this.#refusing(() => validate(schema, params));
  }

  /**
   * Runs a check of the caller's input. Its refusal quotes names and values
   * to point at a typo, and the caller may have put the key in one: masked.
   */
  #refusing<T>(check: () => T): T {
    try {
      return check();
    } catch (error) {
      throw maskRefusal(error, this.#transport.secret);
    }
  }

  /**
   * `client.get` and `client.post`: the caller's options hold what to send
   * (a GET's query, a POST's body, and a schema) beside the request options.
   */
  async raw<T>(method: 'GET' | 'POST', path: string, options?: GetOptions<T> | PostOptions<T> | null): Promise<T> {
    const checked = this.#refusing(() => checkRequestOptions(options, RAW_NAMES[method]));
    // Own names only: a POST's options have no `query`, which would be read from Object.prototype.
    const { query, body, schema, ...request } = { __proto__: null, ...checked } as typeof checked;
    return this.#send(method, path, { query, body, schema }, request);
  }

  /**
   * One call, its request options already checked. What it sends is checked
   * here, before sending: a raw call's query, body and schema are the caller's.
   */
  async #send<T>(
    method: 'GET' | 'POST',
    path: string | ResourcePath,
    request: { query?: unknown; body?: unknown; schema?: unknown },
    options: RequestOptions,
  ): Promise<T> {
    const secret = this.#transport.secret;
    // Own names only: a GET's description has no `body`, a POST's no `query`, and
    // Object.prototype may hold either.
    const { query, body, schema } = { __proto__: null, ...request } as typeof request;
    const spec = this.#refusing(() => ({
      method,
      path: relativePath(path, secret),
      query: checkQuery(query),
      body: serialize(body, secret),
      schema: checkSchema<T>(schema),
    }));
    const result = await this.#transport.request<T>(spec, options);
    return remember(result.body, result.info);
  }
}

/** `GET /v1/payouts, page 2, pagesize 100`: the paging params as given, when they are integers. */
function describeListing(request: string, params: unknown): string {
  let page: unknown;
  let pagesize: unknown;
  try {
    ({ page = 1, pagesize } = (typeof params === 'object' && params !== null ? params : {}) as ListParams);
  } catch {
    // A getter or a Proxy that throws: the list call rejects for it; inspecting it must not throw.
  }
  const shown = (value: unknown) => (Number.isSafeInteger(value) ? String(value) : 'invalid');
  const size = pagesize === undefined ? "the service's default page size" : `pagesize ${shown(pagesize)}`;
  return `${request}, page ${shown(page)}, ${size}`;
}

/** What a raw call's options add to the request options. */
const RAW_NAMES = { GET: ['query', 'schema'], POST: ['body', 'schema'] } as const;

function checkQuery(query: unknown): Record<string, string | number | boolean | undefined> | undefined {
  if (query === undefined || query === null) return undefined;
  // Only a plain object's own entries are read: a URLSearchParams or a Map
  // has none, and would be sent as no query at all.
  const prototype: unknown = typeof query === 'object' ? Object.getPrototypeOf(query) : undefined;
  if (prototype !== Object.prototype && prototype !== null)
    throw new RequestValidationError({ query: ['Query must be a plain object of strings, numbers and booleans'] });
  const problems: FieldErrors = {};
  for (const [name, value] of Object.entries(query)) {
    const ok =
      value === undefined ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value)) ||
      (typeof value === 'string' && !hasLoneSurrogate(value));
    if (!ok || hasLoneSurrogate(name)) {
      const message = `Query values must be strings (Unicode text), finite numbers or booleans (got ${describeValue(value)})`;
      addFieldMessages(problems, `query.${name}`, [message]);
    }
  }
  if (Object.keys(problems).length > 0) throw new RequestValidationError(problems);
  return query as QueryParams;
}

/**
 * The schema, once it is known to be a Standard Schema: anything else would
 * only fail once the response is in, after the request was sent.
 */
function checkSchema<T>(schema: unknown): StandardSchema<T> | undefined {
  if (schema === undefined) return undefined;
  let validate: unknown;
  try {
    validate = (schema as { '~standard'?: { validate?: unknown } } | null)?.['~standard']?.validate;
  } catch {
    // A Proxy or a getter that throws: not a schema lunas can use.
  }
  if (typeof validate !== 'function')
    throw new RequestValidationError({ schema: ['Schema must be a Standard Schema, such as a zod or valibot schema'] });
  return schema as StandardSchema<T>;
}

/** The body as JSON text, once, so a body JSON cannot carry is refused before sending. */
function serialize(body: unknown, secret: Secret): string | undefined {
  if (body === undefined) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    // A toJSON may throw anything, a value whose String() throws included.
    const reason = describeError(foreignError(error, secret));
    throw new RequestValidationError({ body: [`Body must be JSON-serialisable: ${reason}`] });
  }
  if (text === undefined) throw new RequestValidationError({ body: ['Body must be JSON-serialisable'] });
  return text;
}
