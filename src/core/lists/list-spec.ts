/**
 * One list call as the request primitive (call/request.ts) hands it over to the
 * walks ({@link ListSpec}): the list's documented order, the caller's paging
 * parameters and their check, how to send one page's request, and the means
 * to mask what leaves (a refusal, an inspection); and how such a call prints
 * ({@link describeListing}). Nothing here holds the API key.
 */
import type { PageEnvelope } from '../wire/envelope.js';
import type { RequestOptions } from '../checks/options.js';
import { intParam, z } from '../checks/schemas.js';
import type { ResponseInfo } from '../types.js';

/**
 * How a list is documented to be ordered, which decides what a walk may check:
 * - `newest-first`: newest first by `created_at`, a field its items document
 *   (charges, transfers);
 * - `unspecified`: no field the order could be checked against (payouts and
 *   payment methods, whose fields are not documented).
 */
export type ListOrder = 'newest-first' | 'unspecified';

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

/** The query parameters of every list method, checked before the first page is requested. */
export const listParams = z.strictObject({
  page: z.optional(intParam('Page must be an integer of at least 1', 1)),
  pagesize: z.optional(intParam('Page size must be an integer from 1 to 100', 1, 100)),
});

/** The query of one page's request; `pagesize` undefined is the service's default. */
type PageQuery = { page: number; pagesize: number | undefined };

/**
 * @internal One list call as the request primitive (call/request.ts) hands it
 * over: what the caller gave, how to send one page's request, and the means
 * to mask what leaves. Nothing is sent, and nothing checked, until the first
 * page is asked for.
 */
export interface ListSpec<T> {
  /** The list's documented order: only a newest-first list can be walked `since` a time. */
  readonly order: ListOrder;
  /** `GET /v1/payouts`, for messages. */
  readonly label: string;
  /** The caller's `page` and `pagesize`, as given. */
  readonly params: unknown;
  /** The caller's request options, checked by name and value (a refusal masked). */
  readonly options: () => RequestOptions;
  /** Sends one page's request; resolves to its envelope and the exchange behind it. */
  readonly send: (query: PageQuery, options: RequestOptions) => Promise<{ body: PageEnvelope<T>; info: ResponseInfo }>;
  /** Records the exchange behind a page, for `getResponseInfo`. */
  readonly keep: <V extends object>(value: V, info: ResponseInfo) => V;
  /** Writes a warn-level line through the client's log. */
  readonly warn: (message: string) => void;
  /** `text` with every form of the API key masked: for what inspection prints. */
  readonly mask: (text: string) => string;
  /** A refusal of the caller's input, which may quote the key (a name, a time), rebuilt with it masked. */
  readonly refused: (error: unknown) => unknown;
}
/** `GET /v1/payouts, page 2, pagesize 100`: the paging params as given, when they are integers. */
export function describeListing(list: ListSpec<unknown>): string {
  let page: unknown;
  let pagesize: unknown;
  try {
    const { params } = list;
    ({ page = 1, pagesize } = (typeof params === 'object' && params !== null ? params : {}) as ListParams);
  } catch {
    // A getter or a Proxy that throws: the list call rejects for it; inspecting it must not throw.
  }
  const shown = (value: unknown) => (Number.isSafeInteger(value) ? String(value) : 'invalid');
  const size = pagesize === undefined ? "the service's default page size" : `pagesize ${shown(pagesize)}`;
  return `${list.label}, page ${shown(page)}, ${size}`;
}
