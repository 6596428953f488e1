/**
 * `page`/`pagesize` pagination: a {@link Page} of results and what every page
 * of one list shares. The {@link PagePromise} that `list()` returns is in
 * `page-promise.ts`.
 */
import { LunasError } from './errors.js';
import { ItemWalk, type ListOrder, type WalkContext } from './item-walk.js';
import type { Secret } from './secrets.js';

export type { ListOrder } from './item-walk.js';

/** @internal What a {@link PagePromise} knows before its first request. */
export interface Listing {
  /** The list's documented order: only a newest-first list can be walked `since` a time. */
  readonly order: ListOrder;
  /** `GET /v1/payouts, page 1, pagesize 100`, for `util.inspect`; never throws. */
  readonly describe: () => string;
  /** The API key's matcher: `toArray` and `since` refusals quote the caller's input. */
  readonly secret: Secret;
}

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

/** Fetches one page by number; the signal cancels a look-ahead fetch. */
type PageFetcher<T> = (page: number, signal?: AbortSignal) => Promise<Page<T>>;

/** @internal What every page of one list shares: how to fetch another, and what a walk needs to know. */
export interface PageSource<T> extends WalkContext {
  readonly fetch: PageFetcher<T>;
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
    lookAhead?: (page: Page<T>) => boolean,
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
    lookAhead?: (page: Page<T>) => boolean,
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
