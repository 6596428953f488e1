/**
 * What every resource shares: request validation, path encoding, the success
 * envelopes and the calls over the transport. A resource method is one line
 * on top of these.
 */
import { describeValue } from './describe-value.js';
import { RequestValidationError } from './errors.js';
import { Page, type PageEnvelope, PagePromise } from './pagination.js';
import type { RequestOptions } from './request-options.js';
import { intParam, issuesToFields, looseObject, type Schema, z } from './schema.js';
import type { ResponseInfo, Transport } from './transport.js';

const responses = new WeakMap<object, ResponseInfo>();

/**
 * The HTTP exchange behind a value a method returned (a resource or a
 * {@link Page}): status, headers, `x-request-id`, attempts, Idempotency-Key.
 * Undefined for values lunas did not return.
 *
 * @example
 * ```ts
 * const transfer = await client.transfers.create(params);
 * console.log(getResponseInfo(transfer)?.requestId);
 * ```
 */
export function getResponseInfo(value: object): ResponseInfo | undefined {
  return responses.get(value);
}

function remember<T extends object>(value: T, info: ResponseInfo): T {
  responses.set(value, info);
  return value;
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

/**
 * One path segment for an id. Percent-encoding keeps `/`, `?` and `#` inside
 * the segment; `.` and `..` cannot be encoded safely (URL parsers resolve
 * them, even as `%2E`), and no real id is either, so they are refused. So is
 * an id holding half of a UTF-16 surrogate pair (text cut in the middle of an
 * emoji, say): it has no UTF-8 form to percent-encode.
 */
export function pathSegment(field: string, id: unknown): string {
  if (typeof id !== 'string' || id === '')
    throw new RequestValidationError({ [field]: [`ID must be a non-empty string (got ${describeValue(id)})`] });
  if (id === '.' || id === '..') throw new RequestValidationError({ [field]: [`ID must not be "${id}"`] });
  // With the `u` flag a whole pair is one code point, so only a lone half matches.
  if (/\p{Surrogate}/u.test(id)) {
    throw new RequestValidationError({
      [field]: [
        'ID must be valid Unicode text: it holds half of a UTF-16 surrogate pair, often text cut inside an emoji',
      ],
    });
  }
  return encodeURIComponent(id);
}

type SingleEnvelope<T> = Schema<{ data: T }, unknown>;
const singleEnvelopes = new WeakMap<object, SingleEnvelope<unknown>>();

/** The single-resource success envelope around `data`, built once per schema. */
export function singleEnvelope<T>(data: Schema<T, unknown>): SingleEnvelope<T> {
  let envelope = singleEnvelopes.get(data) as SingleEnvelope<T> | undefined;
  if (envelope === undefined) {
    envelope = looseObject({ data });
    singleEnvelopes.set(data, envelope);
  }
  return envelope;
}

/** The list success envelope around items of `item`. */
export function listEnvelope<T>(item: Schema<T, unknown>): Schema<PageEnvelope<T>, unknown> {
  return looseObject({
    data: z.array(item),
    page: z.int(),
    page_size: z.int(),
    total_items: z.int(),
  });
}

/** Query parameters of every list method. */
export const listParams = z.strictObject({
  page: z.optional(intParam('Page must be an integer of at least 1', 1)),
  pagesize: z.optional(intParam('Page size must be an integer from 1 to 100', 1, 100)),
});

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

/** The base of the four resource namespaces. */
export abstract class Resource {
  readonly #transport: Transport;

  /** @internal Resources are created by {@link Client}. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** GET one resource. `path` is a thunk so a bad id rejects instead of throwing. */
  protected async fetchOne<T extends object>(
    path: () => string,
    data: Schema<T, unknown>,
    options: RequestOptions | undefined,
  ): Promise<T> {
    const spec = { method: 'GET', path: path(), schema: singleEnvelope(data) } as const;
    const { body, info } = await this.#transport.request(spec, options);
    return remember(body.data, info);
  }

  /** POST a body built (and validated) by `body`, which runs before anything is sent. */
  protected async submit<T extends object>(
    path: string,
    body: () => unknown,
    data: Schema<T, unknown>,
    options: RequestOptions | undefined,
  ): Promise<T> {
    const spec = { method: 'POST', path, body: body(), schema: singleEnvelope(data) } as const;
    const result = await this.#transport.request(spec, options);
    return remember(result.body.data, result.info);
  }

  /** GET a list, as a {@link PagePromise} that can walk every page. */
  protected paginate<T>(
    path: string,
    envelope: Schema<PageEnvelope<T>, unknown>,
    params: ListParams | undefined,
    options: RequestOptions | undefined,
  ): PagePromise<T> {
    return new PagePromise(async () => {
      const { page = 1, pagesize } = validate(listParams, params ?? {});
      const fetchPage = async (number: number, lookahead?: AbortSignal): Promise<Page<T>> => {
        const signal =
          lookahead && options?.signal ? AbortSignal.any([options.signal, lookahead]) : (lookahead ?? options?.signal);
        const { body, info } = await this.#transport.request(
          { method: 'GET', path, query: { page: number, pagesize }, schema: envelope },
          signal ? { ...options, signal } : options,
        );
        return remember(new Page(body, number, fetchPage), info);
      };
      return fetchPage(page);
    });
  }
}
