/**
 * A page of a list and its promise: {@link Page} and its walks with
 * look-ahead, and the {@link PagePromise} that `list()` returns (the first
 * page fetched lazily, once; `toArray`; what inspection prints), with
 * {@link NewestFirstPagePromise} for lists that can be walked `since` a time.
 * The first page's request checks the caller's options and paging parameters
 * before anything is sent; every page after it is fetched through the same
 * {@link PageSource}.
 */
import type { PageEnvelope } from '../wire/envelope.js';
import { LunasError } from '../report/errors.js';
import { describeListing, type ListSpec, listParams } from './list-spec.js';
import type { RequestOptions } from '../checks/options.js';
import { validate } from '../checks/schemas.js';
import { SinceWalk } from './since.js';
import { collect } from './to-array.js';
import { ItemWalk, type LookAhead, type WalkContext } from './walk-rules.js';

/** What every page of one list shares: how to fetch another, and what a walk needs to know. */
interface PageSource<T> extends WalkContext {
  /** Fetches one page by number; the signal cancels a look-ahead fetch. */
  readonly fetch: (page: number, signal?: AbortSignal) => Promise<Page<T>>;
}

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

/**
 * One page of a list, with the means to walk on ([Pagination](../../../docs/pagination.md), the guide).
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
   *   [the table](../../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
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
   *   (see [the table](../../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
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
   *   (see [the table](../../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
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
   *   (see [the table](../../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
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
   *   [the table](../../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
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
   *   [the table](../../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
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
   *   [the table](../../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
   * @throws {@link LunasError} when an item's `created_at` does not parse as a time, or the pages held
   *   nothing new for more than the 10,000 items a walk remembers.
   */
  override since(time: Date | string): SinceWalk<T> {
    return super.since(time);
  }
}
