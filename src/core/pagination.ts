/**
 * `page`/`pagesize` pagination, whole: the paging parameters and the rules a
 * page's answer must keep, a {@link Page} and its walks, the
 * {@link PagePromise} that `list()` returns, walks back to a time
 * ({@link SinceWalk}), `toArray({ limit })`, and what a walk decides for each
 * item and page (repeats, order, progress).
 *
 * The request primitive (request.ts) hands a list over as a {@link ListSpec}:
 * how to send one page's request, and the means to mask what leaves (a
 * refusal, an inspection). Nothing here holds the API key.
 */
import { describeGiven, describeValue } from './describe-value.js';
import { LunasError, RequestValidationError, type ResponseIssue } from './errors.js';
import { readOptions } from './options.js';
import { datetimeParam, intParam, z, validate } from './schemas.js';
import type { RequestOptions } from './options.js';
import type { ResponseInfo } from './request.js';

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
const listParams = z.strictObject({
  page: z.optional(intParam('Page must be an integer of at least 1', 1)),
  pagesize: z.optional(intParam('Page size must be an integer from 1 to 100', 1, 100)),
});

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
 * with it is still returned. envelope.ts makes each breach a
 * `ResponseValidationError`, once the envelope's fields are known to be integers.
 */
export function pagingIssues(answer: PageEnvelope<unknown>, requested: number): ResponseIssue[] {
  if (answer.page !== requested)
    return [{ path: 'page', message: `expected ${requested}, the page requested, got ${answer.page}` }];
  if (answer.page_size < 1) return [{ path: 'page_size', message: `expected at least 1, got ${answer.page_size}` }];
  return [];
}

/** The query of one page's request; `pagesize` undefined is the service's default. */
type PageQuery = { page: number; pagesize: number | undefined };

/**
 * @internal One list call as the request primitive (request.ts) hands it
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

/** What every page of one list shares: how to fetch another, and what a walk needs to know. */
interface PageSource<T> {
  /** `GET /v1/payouts`, for messages. */
  readonly label: string;
  readonly order: ListOrder;
  /** Writes a warn-level line through the client's log. */
  readonly warn: (message: string) => void;
  /** Fetches one page by number; the signal cancels a look-ahead fetch. */
  readonly fetch: (page: number, signal?: AbortSignal) => Promise<Page<T>>;
}

/** What a walk needs to know about its list, besides its pages. */
type WalkContext = Pick<PageSource<unknown>, 'label' | 'order' | 'warn'>;

/** The page fields a walk looks at (never `total_items`): a {@link Page}'s, whatever its items. */
interface WalkedPage {
  readonly data: readonly unknown[];
  readonly page: number;
  readonly page_size: number;
  hasNextPage(): boolean;
}

/** Whether to fetch the page after `page` while the caller works on it. */
type LookAhead = (page: WalkedPage) => boolean;

/**
 * The first page of a list: the caller's options, then its paging
 * parameters, checked before anything is sent; the {@link PageSource} every
 * later page of the list is fetched through.
 */
async function firstPage<T>(list: ListSpec<T>): Promise<Page<T>> {
  const options = list.options();
  let page = 1;
  let pagesize: number | undefined;
  if (list.params !== undefined && list.params !== null) {
    try {
      ({ page = 1, pagesize } = validate(listParams, list.params));
    } catch (error) {
      throw list.refused(error);
    }
  }
  const caller = options.signal;
  const source: PageSource<T> = {
    label: list.label,
    order: list.order,
    warn: list.warn,
    fetch: async (number, lookahead) => {
      // A look-ahead is cancelled when the walk ends early, and by the caller's signal like any page.
      const signal = lookahead && caller ? AbortSignal.any([caller, lookahead]) : (lookahead ?? caller);
      // Null prototype: the options object may hold only the names given, so a polluted prototype is not read.
      const sent = signal === caller ? options : ({ __proto__: null, ...options, signal } as RequestOptions);
      const { body, info } = await list.send({ page: number, pagesize }, sent);
      return list.keep(new Page(body, source), info);
    },
  };
  return source.fetch(page);
}

/** `GET /v1/payouts, page 2, pagesize 100`: the paging params as given, when they are integers. */
function describeListing(list: ListSpec<unknown>): string {
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

/**
 * One page of a list, with the means to walk on ([Pagination](../../docs/pagination.md), the guide).
 *
 * @example
 * ```ts
 * let page = await client.charges.list({ pagesize: 100 });
 * while (true) {
 *   for (const charge of page.data) console.log(charge.id);
 *   if (!page.hasNextPage()) break;
 *   page = await page.getNextPage();
 * }
 * ```
 * @category Pagination
 */
export class Page<T> implements AsyncIterable<T> {
  /** The items of this page, in the list's order. */
  readonly data: T[];
  /** The page number (1-based); always the one requested (another is a `ResponseValidationError`). */
  readonly page: number;
  /** The page size the service applied (it caps `pagesize` at 100). */
  readonly page_size: number;
  /**
   * The number of items across all pages, as the service counted them when
   * this page was read: information only. A walk never relies on it, so a
   * wrong count (stale, 0, too large) neither stops nor fails one.
   */
  readonly total_items: number;
  readonly #source: PageSource<T>;

  /** @internal Built by list methods; not meant to be constructed by callers. */
  constructor(envelope: PageEnvelope<T>, source: PageSource<T>) {
    this.data = envelope.data;
    this.page = envelope.page;
    this.page_size = envelope.page_size;
    this.total_items = envelope.total_items;
    this.#source = source;
  }

  /**
   * Whether another page may hold items. False after an empty page and after
   * a page shorter than its `page_size`.
   */
  hasNextPage(): boolean {
    return this.data.length > 0 && this.data.length >= this.page_size;
  }

  /**
   * Fetches the following page.
   *
   * @throws {@link LunasError} when {@link hasNextPage} is false; nothing is sent.
   * @throws {@link LunasError} the page's error, as on its list method: every call's errors (see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
   */
  getNextPage(): Promise<Page<T>> {
    if (!this.hasNextPage()) {
      return Promise.reject(new LunasError('There is no next page; check hasNextPage() before getNextPage()'));
    }
    return this.#source.fetch(this.page + 1);
  }

  /**
   * Yields this page and each following one. While the caller works on a
   * page, the next is already being fetched (one page ahead at most); leaving
   * the loop early cancels that request. Pages come as the service sent them.
   *
   * @throws {@link LunasError} a following page's error, as on its list method: every call's errors
   *   (see [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
   * @throws {@link LunasError} when the pages held nothing new for more than the 10,000 items a walk remembers.
   */
  iterPages(): AsyncGenerator<Page<T>, void, undefined> {
    // A generator method would keep `this`, the first page, alive for the
    // whole walk; the static walker lets each page go once it is passed.
    const walk = new ItemWalk(this.#source);
    return pageClass(this).walk(this, undefined, (page) => walk.survey(page));
  }

  /**
   * @internal The walk behind {@link iterPages}. `lookAhead` says, for the
   * page about to be yielded, whether to fetch the next one while the caller
   * works on it; when it says no, the next page is fetched only if asked for.
   * `passed`, called once the caller is done with a page, may end the walk by
   * throwing.
   */
  static async *walk<T>(
    current: Page<T>,
    lookAhead?: LookAhead,
    passed?: (page: Page<T>) => void,
  ): AsyncGenerator<Page<T>, void, undefined> {
    // No default value for lookAhead: a generator with one keeps its first argument (page 1) alive.
    let ahead: AbortController | undefined;
    try {
      while (true) {
        let next: Promise<Page<T>> | undefined;
        if (current.hasNextPage() && (lookAhead === undefined || lookAhead(current))) {
          ahead = new AbortController();
          next = current.#source.fetch(current.page + 1, ahead.signal);
          // Handled when awaited below; without this an abandoned walk would
          // report the cancelled look-ahead as an unhandled rejection.
          next.catch(() => undefined);
        }
        yield current;
        passed?.(current);
        if (!current.hasNextPage()) return;
        current = await (next ?? current.#source.fetch(current.page + 1));
        ahead = undefined;
      }
    } finally {
      ahead?.abort();
    }
  }

  /**
   * Yields every item from this page onward, never one twice: items created
   * during the walk push older ones onto later pages, and those the walk has
   * already yielded are skipped (recognised by `id`). A service that keeps
   * sending pages already read ends the walk with a `LunasError`.
   *
   * @throws {@link LunasError} a following page's error, as on its list method: every call's errors
   *   (see [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
   * @throws {@link LunasError} when the pages held nothing new for more than the 10,000 items a walk remembers.
   */
  [Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    return pageClass(this).items(this);
  }

  /**
   * @internal Every item from the first page onward, each once; `lookAhead`
   * as for {@link Page.walk}. One generator for the whole walk (a `yield*`
   * into another would cost a hop per item), which lets go of the first page
   * once it has moved past it.
   */
  static async *items<T>(
    first: Page<T> | Promise<Page<T>> | undefined,
    lookAhead?: LookAhead,
  ): AsyncGenerator<T, void, undefined> {
    let start: Page<T> | undefined = await first!;
    first = undefined;
    const walk = new ItemWalk(start.#source);
    const pages = this.walk(start, lookAhead);
    start = undefined;
    try {
      for await (const page of pages) {
        for (const item of page.data) if (walk.accepts(item)) yield item;
        walk.endPage(page);
      }
    } finally {
      walk.finish();
    }
  }
}

/**
 * The class of `page`, for its methods to reach the static walkers. The class
 * body never names `Page`: the builds would rename a class that refers to
 * itself (`var Page = class _Page`), and stack traces would say `_Page`.
 */
function pageClass<T>(page: Page<T>): typeof Page {
  return page.constructor as typeof Page;
}

/**
 * What `list()` returns: `await` it for the first {@link Page}, or
 * `for await` over it for every item across pages. The first request is sent
 * when it is first awaited or iterated, not before.
 *
 * @example
 * ```ts
 * for await (const charge of client.charges.list({ pagesize: 100 })) {
 *   console.log(charge.id, charge.status);
 * }
 * ```
 * @category Pagination
 */
export class PagePromise<T> extends Promise<Page<T>> implements AsyncIterable<T> {
  /**
   * @internal `then` on a subclass would otherwise build PagePromises through
   * this constructor.
   */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  #first: Promise<Page<T>> | undefined;
  readonly #list: ListSpec<T>;

  /** @internal Built by list methods. */
  constructor(list: ListSpec<T>) {
    super((resolve) => resolve(undefined as never));
    this.#list = list;
  }

  /**
   * What `console.log` and `util.inspect` print: the request it stands for
   * and how to use it, never its (empty) promise state. Sends nothing.
   */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    const state = this.#first === undefined ? 'not requested yet' : 'first page requested';
    return this.#list.mask(
      `${this.constructor.name} { ${describeListing(this.#list)}, ${state} } ` +
        `(await it for the first Page, or for await it for every item)`,
    );
  }

  #firstPage(): Promise<Page<T>> {
    return (this.#first ??= firstPage(this.#list));
  }

  /**
   * Fetches the first page, once however often it is awaited.
   *
   * @throws {@link LunasError} the first page's error, as on its list method: every call's errors
   *   (see [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
   */
  override then<R1 = Page<T>, R2 = never>(
    onfulfilled?: ((value: Page<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onfulfilled, onrejected);
  }

  /** As `Promise.catch`, on the first page's fetch. @throws The errors of {@link PagePromise.then}. */
  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<T> | R> {
    return this.#firstPage().catch(onrejected);
  }

  /** As `Promise.finally`, on the first page's fetch. @throws The errors of {@link PagePromise.then}. */
  override finally(onfinally?: (() => void) | null): Promise<Page<T>> {
    return this.#firstPage().finally(onfinally);
  }

  /**
   * Every item from the first page onward, across pages.
   *
   * @throws {@link LunasError} any page's error, as on its list method: every call's errors (see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
   * @throws {@link LunasError} when the pages held nothing new for more than the 10,000 items a walk remembers.
   */
  [Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    return Page.items(this.#firstPage());
  }

  /**
   * Collects at most `limit` items, walking exactly as `for await` does (the
   * same de-duplication, in the same order), and stops as soon as it has
   * them: no page is requested, not even ahead, once the pages in hand can
   * fill the limit. `limit` is required, an integer from 1 to 10,000, so
   * nobody loads an unbounded list into memory by accident.
   *
   * @throws {@link RequestValidationError} when `limit` is missing, not an integer from 1 to 10,000, or
   *   another option is given; nothing is sent.
   * @throws {@link LunasError} any page's error, as on its list method: every call's errors (see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
   * @throws {@link LunasError} when the pages held nothing new for more than the 10,000 items a walk remembers.
   *
   * @example
   * ```ts
   * const latest = await client.charges.list({ pagesize: 100 }).toArray({ limit: 500 });
   * ```
   */
  toArray(options: { limit: number }): Promise<T[]> {
    return collect(options, (lookAhead) => Page.items(this.#firstPage(), lookAhead), this.#list);
  }

  /**
   * Newest-first lists only: see {@link NewestFirstPagePromise.since}. Here,
   * on a list whose items document no `created_at`, the walk rejects with
   * `RequestValidationError` before sending (for JavaScript callers; the
   * types have no `since` on such lists).
   */
  protected since(time: Date | string): SinceWalk<T> {
    const open =
      this.#list.order === 'newest-first'
        ? (lookAhead?: LookAhead) => Page.items(this.#firstPage(), lookAhead)
        : undefined;
    return new SinceWalk(time, open, this.#list);
  }
}

/**
 * What `list()` returns for a list ordered newest first by `created_at`
 * (charges, transfers): a {@link PagePromise}, which can also be walked back
 * to a point in time with {@link NewestFirstPagePromise.since}. Lists whose
 * items document no `created_at` (payouts, payment methods) return a plain
 * `PagePromise`, without `since`.
 * @category Pagination
 */
export class NewestFirstPagePromise<T> extends PagePromise<T> {
  /**
   * The items created at or after `time`, newest first: the walk ends at the
   * first item created before it, and requests no page beyond the one holding
   * that item. `time` is a `Date` or an ISO 8601 datetime with a zone
   * (`2026-12-01T00:00:00Z`); anything else rejects with
   * `RequestValidationError` when the walk starts, before sending. The
   * service's clock sets `created_at`: see the pagination guide for the
   * caveats (clocks apart, equal timestamps, items created during the walk).
   *
   * @example
   * ```ts
   * const since = new Date(Date.now() - 24 * 60 * 60 * 1000);
   * for await (const charge of client.charges.list({ pagesize: 100 }).since(since)) {
   *   console.log(charge.id, charge.created_at);
   * }
   * const recent = await client.transfers.list({ pagesize: 100 }).since(since).toArray({ limit: 1000 });
   * ```
   * @throws {@link RequestValidationError} when `time` is not a valid `Date` or an ISO 8601 date-time
   *   with a zone; nothing is sent. `since` itself never throws: the walk rejects when iterated.
   * @throws {@link LunasError} any page's error, as the list method's pages: every call's errors (see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
   * @throws {@link LunasError} when an item's `created_at` does not parse as a time, or the pages held
   *   nothing new for more than the 10,000 items a walk remembers.
   */
  override since(time: Date | string): SinceWalk<T> {
    return super.since(time);
  }
}

/** Starts the item walk of a list; `lookAhead` says whether to fetch the next page early. */
type OpenWalk<T> = (lookAhead?: LookAhead) => AsyncGenerator<T, void, undefined>;

const sinceParams = z.strictObject({ since: datetimeParam('Since') });

/**
 * What `since(time)` returns: `for await` over it for every item created at
 * or after `time`, newest first, or `toArray({ limit })` for at most `limit`
 * of them. The walk ends at the first item created before `time`, and no
 * page after the one holding that item is requested. Nothing is sent until
 * it is iterated; a bad `time` rejects with `RequestValidationError` first.
 *
 * An item whose `created_at` cannot be read as a time ends the walk with a
 * `LunasError` naming it: the walk cannot tell whether it belongs, and
 * neither yielding it nor passing over it would be the bounded walk asked for.
 *
 * @example
 * ```ts
 * const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000);
 * for await (const charge of client.charges.list({ pagesize: 100 }).since(yesterday)) {
 *   reconcile(charge);
 * }
 * ```
 * @category Pagination
 */
export class SinceWalk<T> implements AsyncIterable<T> {
  readonly #time: unknown;
  readonly #open: OpenWalk<T> | undefined;
  readonly #list: ListSpec<T>;

  /**
   * @internal Built by `since()`. Without `open`, the list has no documented
   * order, and the walk rejects before sending anything.
   */
  constructor(time: unknown, open: OpenWalk<T> | undefined, list: ListSpec<T>) {
    this.#time = time;
    this.#open = open;
    this.#list = list;
  }

  /** What `console.log` and `util.inspect` print: the walk it stands for, and how to use it. Sends nothing. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    const time = this.#time;
    const since = time instanceof Date && !Number.isNaN(time.getTime()) ? time.toISOString() : describeValue(time);
    return this.#list.mask(
      `SinceWalk { ${describeListing(this.#list)}, since ${since} } ` +
        `(for await it for every item created since, or toArray({ limit }))`,
    );
  }

  /**
   * Every item created at or after the time given, newest first.
   *
   * @throws {@link RequestValidationError} when the time is invalid; nothing is sent.
   * @throws {@link LunasError} any page's error, as the list method's pages: every call's errors (see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
   * @throws {@link LunasError} when an item's `created_at` does not parse as a time, or the pages held
   *   nothing new for more than the 10,000 items a walk remembers.
   */
  [Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    return this.#walk(undefined);
  }

  /**
   * Collects at most `limit` items created at or after the time given
   * (`limit` as for `PagePromise.toArray`: required, 1 to 10,000).
   *
   * @throws {@link RequestValidationError} when `limit` or the time is invalid; nothing is sent.
   * @throws {@link LunasError} the errors of iterating the walk, every call's errors among them (see
   *   [the table](../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
   */
  toArray(options: { limit: number }): Promise<T[]> {
    return collect(options, (lookAhead) => this.#walk(lookAhead), this.#list);
  }

  async *#walk(lookAhead: LookAhead | undefined): AsyncGenerator<T, void, undefined> {
    if (this.#open === undefined) {
      throw new RequestValidationError({
        since: ["since() needs a list whose items document created_at (charges, transfers); this one's do not"],
      });
    }
    let checked: { since: string };
    try {
      checked = validate(sinceParams, { since: this.#time });
    } catch (error) {
      // The refusal quotes the time given: masked, should the key have been passed.
      throw this.#list.refused(error);
    }
    const since = Date.parse(checked.since);
    // The page holding the boundary (or an item the walk cannot place) is the last one requested.
    const withinBound = (page: WalkedPage) => page.data.every((item) => (createdTime(item) ?? -Infinity) >= since);
    for await (const item of this.#open((page) => withinBound(page) && (lookAhead?.(page) ?? true))) {
      const created = createdTime(item);
      if (created === undefined) throw unplaceable(item);
      if (created < since) return;
      yield item;
    }
  }
}

/** The item's `created_at` as milliseconds, or undefined when it has none that parses. */
function createdTime(item: unknown): number | undefined {
  const text = typeof item === 'object' && item !== null ? (item as { created_at?: unknown }).created_at : undefined;
  const time = typeof text === 'string' ? Date.parse(text) : Number.NaN;
  return Number.isNaN(time) ? undefined : time;
}

function unplaceable(item: unknown): LunasError {
  const { id, created_at: created } = (typeof item === 'object' && item !== null ? item : {}) as Record<
    string,
    unknown
  >;
  const name = typeof id === 'string' ? `item ${describeValue(id)}` : 'an item without an id';
  return new LunasError(
    `since(): ${name} has a created_at that is not a time (${describeGiven(created)}), so the walk ` +
      `stopped rather than guess; walk without since() to see every item`,
  );
}

/** The most items `toArray` collects: more belongs in a `for await` loop. */
const MAX_TO_ARRAY = 10_000;

/**
 * `toArray({ limit })` for every walk over a list: `options` checked by name
 * and value before anything is sent (a refusal masked by `list`, since it
 * quotes what was given), then at most `limit` items of the walk `open`
 * starts. `open` is called only once the options are known to be good, with
 * the rule telling the walk whether to fetch the next page ahead: only when
 * the pages in hand cannot fill the limit.
 */
async function collect<T>(
  options: unknown,
  open: (lookAhead: LookAhead) => AsyncIterable<T>,
  list: ListSpec<unknown>,
): Promise<T[]> {
  const { values, problems } = readOptions(typeof options === 'object' && options !== null ? options : {}, ['limit']);
  const { limit } = values;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_TO_ARRAY) {
    problems.limit = [
      `Limit must be an integer from 1 to ${MAX_TO_ARRAY} (${describeGiven(limit)}); use for await for longer walks`,
    ];
  }
  if (Object.keys(problems).length > 0) throw list.refused(new RequestValidationError(problems));
  const items: T[] = [];
  // Look ahead only when this page cannot fill what is still missing.
  const lookAhead = (page: WalkedPage) => items.length + page.data.length < (limit as number);
  for await (const item of open(lookAhead)) {
    items.push(item);
    if (items.length === limit) break;
  }
  return items;
}

/*
 * What a walk over a list decides for each item and each page: skip an item
 * it has already yielded (and nothing else), say so when a list contradicts
 * its documented order, and stop with an error when the service makes no
 * progress. Memory is bounded whatever the length of the walk.
 *
 * A walk relies on the pages alone, never on `total_items` (a cached count
 * may be stale, 0 or too large). Offset paging over a list that changes
 * shifts it: each item created at the head pushes every other item one place
 * down, so a page may start with items already read (skipped by id); each
 * deletion pulls the rest one place up, so an unread item may land on a page
 * already read, which no client can see. Neither reorders the items that
 * stay, and deletions only bring unread items forward, so a page holds
 * nothing new only when the list grew, net, by a page or so since the
 * previous request. A page with nothing new is therefore no error, and no
 * sequence of pages tells a stuck service from a busy list (page 2 equal to
 * page 1 is exactly what `page_size` creations in between produce). The
 * walk allows as much as a shift it can recognise explains: up to
 * REMEMBERED_IDS places in a row with nothing new. More needs one shift
 * larger than that (whose repeats it would have forgotten) or a list growing
 * as fast as the walk reads it; there the walk ends with a `LunasError`,
 * after `10,000 / page_size + 1` such pages (101 at pagesize 100), whether
 * the service is resending pages already read (one page, or a cycle of them)
 * or the list is that busy.
 *
 * "Nothing new" is judged by content: an item is known when its `id`, or for
 * an item without a string `id` a fingerprint of its JSON, is among the last
 * REMEMBERED_IDS seen. Items without an id are never skipped (two of them may
 * be distinct yet equal), but a service repeating pages of them still ends. A
 * cycle through more items than a walk remembers looks like an endless list,
 * and is walked as one.
 */

/**
 * How many of the most recently seen items a walk remembers by id. Items
 * created during a walk push older ones onto later pages, so a page may
 * start with items the walk has just yielded: any shift of up to this many
 * items between two page requests is recognised.
 */
export const REMEMBERED_IDS = 10_000;

/** Out-of-order items logged one line each per walk; the rest are counted in one line at the end. */
const ORDER_WARNINGS_PER_WALK = 10;

/**
 * The ids of the last {@link REMEMBERED_IDS} items seen, repeats included: a
 * ring of sightings and each id's latest one. Seeing an id again makes it
 * recent again, so an item that keeps being pushed onto the next page is never
 * forgotten. (A `Set` evicting its oldest entry through `values().next()`
 * slows down as deleted entries pile up at its front: a million-item walk
 * would take minutes.)
 */
class RecentIds {
  readonly #ring: string[] = [];
  readonly #lastSeen = new Map<string, number>();
  #sightings = 0;
  #forgotAny = false;

  has(id: string): boolean {
    return this.#lastSeen.has(id);
  }

  /** Whether an id has left the window: until then, an id not remembered was never seen. */
  get forgotAny(): boolean {
    return this.#forgotAny;
  }

  see(id: string): void {
    const slot = this.#sightings % REMEMBERED_IDS;
    const oldest = this.#ring[slot];
    // Forget the id leaving the ring unless it was seen again since.
    if (oldest !== undefined && this.#lastSeen.get(oldest) === this.#sightings - REMEMBERED_IDS) {
      this.#lastSeen.delete(oldest);
      this.#forgotAny = true;
    }
    this.#ring[slot] = id;
    this.#lastSeen.set(id, this.#sightings++);
  }
}

/** One walk's state: what it decides for each item and page (see the comment above {@link REMEMBERED_IDS}). */
class ItemWalk {
  readonly #source: WalkContext;
  readonly #recent = new RecentIds();
  /** Newest-first lists: the newest `created_at` on the walk's first page with timestamps, once read. */
  #horizon: number | undefined;
  /** Newest-first lists: the oldest `created_at` yielded so far, and its text. */
  #oldest: number | undefined;
  #oldestText = '';
  #orderWarnings = 0;
  /** Whether the current page brought an item not among those remembered. */
  #fresh = false;
  /** The places the walk advanced by, on full pages in a row that brought nothing new. */
  #stale = 0;

  constructor(source: WalkContext) {
    this.#source = source;
  }

  /**
   * Whether to yield `item`: false only for an item whose `id` the walk has
   * seen among its last {@link REMEMBERED_IDS} items. Never false for an item
   * without a string `id`, nor for one the walk has not seen.
   */
  accepts(item: unknown): boolean {
    const id = stringField(item, 'id');
    if (!this.#note(id ?? fingerprint(item)) && id !== undefined) return false;
    if (this.#source.order === 'newest-first') this.#checkOrder(item, id);
    return true;
  }

  /** For a walk over pages rather than items: notes a page's items, then {@link endPage}. */
  survey(page: WalkedPage): void {
    for (const item of page.data) this.#note(stringField(item, 'id') ?? fingerprint(item));
    this.endPage(page);
  }

  /**
   * Call after the page's items. Throws `LunasError` once full pages in a row
   * that held nothing new span more than {@link REMEMBERED_IDS} places.
   */
  endPage(page: WalkedPage): void {
    // Set after the first page, so that page's own items are all checked.
    if (this.#source.order === 'newest-first' && this.#horizon === undefined) this.#horizon = newestTime(page.data);
    const stale = this.#fresh || !page.hasNextPage() ? 0 : this.#stale + page.page_size;
    this.#fresh = false;
    this.#stale = stale;
    if (stale <= REMEMBERED_IDS) return;
    throw new LunasError(
      `${this.#source.label}: the pages up to ${page.page} held nothing new for ${stale} places in a row, more ` +
        `than the ${REMEMBERED_IDS} items a walk remembers. Either the service is sending pages already read ` +
        `instead of those asked for, or new items push the list down as fast as the walk reads it. The walk ` +
        `stopped rather than loop; walk again later (pagesize 100 outruns a busy list), and report it to the ` +
        `service if it persists.`,
    );
  }

  /** Call when the walk ends, however it ends. */
  finish(): void {
    const unreported = this.#orderWarnings - ORDER_WARNINGS_PER_WALK;
    if (unreported > 0) {
      this.#source.warn(
        `${this.#source.label}: ${unreported} more items came after older ones in this walk; ` +
          `they were yielded, without a line each`,
      );
    }
  }

  /** Remembers `key`; true when it was not remembered already (the page brings something new). */
  #note(key: string): boolean {
    const known = this.#recent.has(key);
    this.#recent.see(key);
    if (!known) this.#fresh = true;
    return !known;
  }

  /**
   * A newest-first walk moves back in time. An item newer than one already
   * yielded, yet not among the items seen, is yielded all the same, with a
   * warning that says whether it can be a repeat: only once the walk has
   * forgotten an id. Until then it is new, brought back either by clocks out
   * of step or by churn (a deletion moves an unread item onto a page already
   * read, and later creations push it back behind items the walk has
   * yielded). On later pages, items newer than everything on the first page
   * are not suspect: they were created during the walk, and pushed down by
   * still newer ones.
   */
  #checkOrder(item: unknown, id: string | undefined): void {
    const text = stringField(item, 'created_at');
    const time = text === undefined ? Number.NaN : Date.parse(text);
    if (Number.isNaN(time)) return;
    const oldest = this.#oldest;
    if (oldest === undefined || time < oldest) {
      this.#oldest = time;
      this.#oldestText = text!;
      return;
    }
    if (time === oldest || (this.#horizon !== undefined && time >= this.#horizon)) return;
    if (++this.#orderWarnings > ORDER_WARNINGS_PER_WALK) return;
    const causes = "the service's clocks are out of step, or items deleted and created between two pages moved it back";
    const verdict = this.#recent.forgotAny
      ? `It was yielded, and is a repeat if the list shifted by more than the ${REMEMBERED_IDS} items a walk ` +
        `remembers between two pages; if not, ${causes}.`
      : `It was yielded, and is not a repeat (the walk forgot no item it saw): ${causes}.`;
    const more = this.#orderWarnings === ORDER_WARNINGS_PER_WALK ? ' Further such items are counted at the end.' : '';
    this.#source.warn(
      `${this.#source.label}: item ${id ?? '(without an id)'} created_at ${text} came after an item ` +
        `created_at ${this.#oldestText}, but the list is newest first. ${verdict}${more}`,
    );
  }
}

/** The newest parseable `created_at` among `items`, or undefined when none has one. */
function newestTime(items: readonly unknown[]): number | undefined {
  let newest: number | undefined;
  for (const item of items) {
    const text = stringField(item, 'created_at');
    const time = text === undefined ? Number.NaN : Date.parse(text);
    if (!Number.isNaN(time) && (newest === undefined || time > newest)) newest = time;
  }
  return newest;
}

/**
 * What recognises an item without an id: its JSON, hashed (two 32-bit FNV-1a
 * lanes; the platform has no synchronous hash) so that memory stays bounded
 * whatever the items hold. The NUL prefix keeps it apart from any real id.
 * Items JSON cannot render (nested too deep) share one key, so that a service
 * repeating them still ends.
 */
function fingerprint(item: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(item);
  } catch {
    // A RangeError for depth; such items are told apart by nothing.
  }
  text ??= '';
  let a = 0x811c9dc5;
  let b = 0x2f0b3c1d;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  return `\0${a}:${b}:${text.length}`;
}

function stringField(item: unknown, name: 'id' | 'created_at'): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const value = (item as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
