/**
 * What every resource shares: request validation, path encoding, the success
 * envelopes and the calls over the transport. A resource method is one line
 * on top of these.
 */
import { RequestValidationError } from './errors.js';
import { answerTo, type ListOrder, Page, type PageEnvelope, PagePromise, type PageSource } from './pagination.js';
import type { RequestOptions } from './request-options.js';
import { issuesToFields, looseObject, type Parser, type Schema, z } from './schema.js';
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

/** Parses caller input with a request schema, or throws `RequestValidationError`. */
export function validate<T>(schema: Schema<T, unknown>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) throw new RequestValidationError(issuesToFields(result.error.issues));
  return result.data;
}

/**
 * One path segment for an id. Percent-encoding keeps `/`, `?` and `#` inside
 * the segment; `.` and `..` cannot be encoded safely (URL parsers resolve
 * them, even as `%2E`), and no real id is either, so they are refused.
 */
export function pathSegment(field: string, id: unknown): string {
  if (typeof id !== 'string' || id === '')
    throw new RequestValidationError({ [field]: ['ID must be a non-empty string'] });
  if (id === '.' || id === '..') throw new RequestValidationError({ [field]: [`ID must not be "${id}"`] });
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

const pageMessage = 'Page must be an integer of at least 1';
const pagesizeMessage = 'Page size must be an integer from 1 to 100';

/** Query parameters of every list method. */
export const listParams = z.strictObject({
  page: z.optional(z.int({ error: pageMessage }).check(z.gte(1, pageMessage))),
  pagesize: z.optional(z.int({ error: pagesizeMessage }).check(z.gte(1, pagesizeMessage), z.lte(100, pagesizeMessage))),
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

  /**
   * GET one resource, its envelope parsed by `envelope` (built by `singleEnvelope`).
   * `path` is a thunk so a bad id rejects instead of throwing.
   */
  protected async fetchOne<T extends object>(
    path: () => string,
    envelope: Parser<{ data: T }>,
    options: RequestOptions | undefined,
  ): Promise<T> {
    const spec = { method: 'GET', path: path(), schema: envelope } as const;
    const { body, info } = await this.#transport.request(spec, options);
    return remember(body.data, info);
  }

  /**
   * POST a body built (and validated) by `body`, which runs before anything is
   * sent; the answer's envelope is parsed by `envelope` (built by `singleEnvelope`).
   */
  protected async submit<T extends object>(
    path: string,
    body: () => unknown,
    envelope: Parser<{ data: T }>,
    options: RequestOptions | undefined,
  ): Promise<T> {
    const spec = { method: 'POST', path, body: body(), schema: envelope } as const;
    const result = await this.#transport.request(spec, options);
    return remember(result.body.data, result.info);
  }

  /**
   * GET a list, as a {@link PagePromise} that can walk every page. `order` is
   * what the service documents for this list; a walk checks only that.
   */
  protected paginate<T>(
    path: string,
    envelope: Parser<PageEnvelope<T>>,
    params: ListParams | undefined,
    options: RequestOptions | undefined,
    order: ListOrder,
  ): PagePromise<T> {
    return new PagePromise(async () => {
      const { page = 1, pagesize } = validate(listParams, params ?? {});
      const transport = this.#transport;
      const source: PageSource<T> = {
        label: `GET /${path}`,
        order,
        warn: (message) => transport.warn(message),
        fetch: async (number, lookahead) => {
          const signal =
            lookahead && options?.signal
              ? AbortSignal.any([options.signal, lookahead])
              : (lookahead ?? options?.signal);
          const { body, info } = await transport.request(
            { method: 'GET', path, query: { page: number, pagesize }, schema: answerTo(envelope as Schema<PageEnvelope<T>, unknown>, number) },
            signal ? { ...options, signal } : options,
          );
          return remember(new Page(body, source), info);
        },
      };
      return source.fetch(page);
    });
  }
}
