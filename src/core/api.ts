/**
 * The one request primitive. Every resource method and the raw
 * `client.get`/`client.post` go through {@link API}: a path relative to the
 * base URL, options, and a schema for the envelope's `data`.
 */
import { describeValue } from './describe-value.js';
import { addFieldMessages, RequestValidationError, type FieldErrors } from './errors.js';
import { type ListOrder, Page, PagePromise, type PageSource } from './pagination.js';
import { hasLoneSurrogate, relativePath, type ResourcePath } from './path.js';
import { checkRequestOptions, type RequestOptions } from './request-options.js';
import { remember } from './response-info.js';
import { intParam } from './params.js';
import { z } from './schema.js';
import { validate } from './validate.js';
import { describeError, foreignError, redact, type Secret } from './secrets.js';
import type { StandardSchema } from './standard-schema.js';
import type { Transport } from './transport.js';

/** Query parameters of a raw GET; `undefined` values are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/**
 * Options of `client.get`: the request options, a query, and a schema for the
 * envelope's `data`. Any other name (`querry`, `body`) is refused before sending.
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

/** @internal The request primitive behind a {@link Client}; resources hold one. */
export class API {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * GET `path`; resolves to the envelope's `data`, checked by `schema` when
   * given. `call` holds a resource's own query and schema, and then `options`
   * may hold request options only; without it (a raw call) `options` may also
   * hold `query` and `schema`. Every name outside these is refused.
   */
  async get<T>(
    path: string | ResourcePath,
    options?: RequestOptions | null,
    call?: Pick<GetOptions<T>, 'query' | 'schema'>,
  ): Promise<T> {
    const { query, schema, ...request } = checkRequestOptions(options, call ? [] : RAW_GET_NAMES);
    const fields = call ?? { query, schema };
    const spec = {
      method: 'GET',
      path: relativePath(path, this.#transport.secret),
      query: checkQuery(fields.query, this.#transport.secret),
      schema: checkSchema(fields.schema as StandardSchema<T> | undefined),
    } as const;
    const { body, info } = await this.#transport.request<T>(spec, request);
    return remember(body, info);
  }

  /** POST `body` as JSON to `path`, with an Idempotency-Key; `options` and `call` as for {@link API.get}. */
  async post<T>(
    path: string | ResourcePath,
    options?: RequestOptions | null,
    call?: Pick<PostOptions<T>, 'body' | 'schema'>,
  ): Promise<T> {
    const { body, schema, ...request } = checkRequestOptions(options, call ? [] : RAW_POST_NAMES);
    const fields = call ?? { body, schema };
    const spec = {
      method: 'POST',
      path: relativePath(path, this.#transport.secret),
      body: serialize(fields.body, this.#transport.secret),
      schema: checkSchema(fields.schema as StandardSchema<T> | undefined),
    } as const;
    const result = await this.#transport.request<T>(spec, request);
    return remember(result.body, result.info);
  }

  /**
   * GET a list, as a {@link PagePromise} that can walk every page; `items`
   * checks a page's `data`, and `order` is what the service documents for
   * this list (a walk relies on nothing more).
   */
  list<T>(
    path: string | ResourcePath,
    items: StandardSchema<T[]>,
    order: ListOrder,
    params: ListParams | null | undefined,
    options: RequestOptions | null | undefined,
  ): PagePromise<T> {
    return new PagePromise(async () => {
      const checked = checkRequestOptions(options);
      const { page = 1, pagesize } = validate(listParams, params ?? {});
      const relative = relativePath(path, this.#transport.secret);
      const transport = this.#transport;
      const source: PageSource<T> = {
        label: `GET /${relative}`,
        order,
        warn: (message) => transport.warn(message),
        fetch: async (number, lookahead) => {
          const signal =
            lookahead && checked.signal ? AbortSignal.any([checked.signal, lookahead]) : (lookahead ?? checked.signal);
          const { body, info } = await transport.request(
            { method: 'GET', path: relative, query: { page: number, pagesize }, schema: items, page: number },
            signal ? { ...checked, signal } : checked,
          );
          return remember(new Page(body, source), info);
        },
      };
      return source.fetch(page);
    });
  }
}

/** What a raw call's options add to the request options. */
const RAW_GET_NAMES = ['query', 'schema'] as const;
const RAW_POST_NAMES = ['body', 'schema'] as const;

function checkQuery(query: unknown, secret: Secret): Record<string, string | number | boolean | undefined> | undefined {
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
      // The name is the caller's: masked, should the key have been put there.
      addFieldMessages(problems, `query.${redact(name, secret)}`, [message]);
    }
  }
  if (Object.keys(problems).length > 0) throw new RequestValidationError(problems);
  return query as QueryParams;
}

/**
 * The schema, once it is known to be a Standard Schema: anything else would
 * only fail once the response is in, after the request was sent.
 */
function checkSchema<T>(schema: StandardSchema<T> | undefined): StandardSchema<T> | undefined {
  if (schema === undefined) return undefined;
  let validate: unknown;
  try {
    validate = (schema as { '~standard'?: { validate?: unknown } } | null)?.['~standard']?.validate;
  } catch {
    // A Proxy or a getter that throws: not a schema lunas can use.
  }
  if (typeof validate !== 'function')
    throw new RequestValidationError({ schema: ['Schema must be a Standard Schema, such as a zod or valibot schema'] });
  return schema;
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
