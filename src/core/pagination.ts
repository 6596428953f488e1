/**
 * `page`/`pagesize` pagination: a {@link Page} of results, and the
 * {@link PagePromise} that `list()` returns, awaitable for the first page and
 * `for await`-able over every item from there on.
 */
import { LunasError } from './errors.js';
import { ItemWalk, type WalkContext } from './item-walk.js';
import { type Schema, z } from './schema.js';

export type { ListOrder } from './item-walk.js';

/** The list envelope's fields, as the service names them. */
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
export type PageFetcher<T> = (page: number, signal?: AbortSignal) => Promise<Page<T>>;

/** @internal What every page of one list shares: how to fetch another, and what a walk needs to know. */
export interface PageSource<T> extends WalkContext {
  readonly fetch: PageFetcher<T>;
}

/**
 * `envelope` for the answer to a request for page `requested`, checked
 * against the pagination rules a walk relies on to end: the page asked for,
 * a page size of at least 1, and no full page after the first that starts
 * beyond `total_items` (a service serving pages it does not count; this is
 * what ends a walk over items without ids that the service keeps repeating).
 * Each is a `ResponseValidationError` rather than a walk that stops early or
 * never stops.
 */
export function answerTo<T>(
  envelope: Schema<PageEnvelope<T>, unknown>,
  requested: number,
): Schema<PageEnvelope<T>, unknown> {
  const rules = z.custom<PageEnvelope<T>>().check(
    z.superRefine((answer, context) => {
      const issue = (path: keyof PageEnvelope<T>, message: string) =>
        context.issues.push({ code: 'custom', path: [path], message, input: answer[path] });
      const before = (requested - 1) * answer.page_size;
      if (answer.page !== requested) {
        issue('page', `expected ${requested}, the page requested, got ${answer.page}`);
      } else if (answer.page_size < 1) {
        issue('page_size', `expected at least 1, got ${answer.page_size}`);
      } else if (requested > 1 && answer.data.length >= answer.page_size && before >= answer.total_items) {
        issue(
          'data',
          `a full page of ${answer.data.length} items after the first ${before}, ` +
            `beyond total_items (${answer.total_items})`,
        );
      }
    }),
  );
  return z.pipe(envelope, rules);
}

// Lets the item walk, outside the class, read a page's source.
let sourceOf: <T>(page: Page<T>) => PageSource<T>;

/**
 * One page of a list, with the means to walk on.
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
 */
export class Page<T> implements AsyncIterable<T> {
  static {
    sourceOf = (page) => page.#source;
  }

  /** The items of this page, in the list's order. */
  readonly data: T[];
  /** The page number (1-based); always the one requested (another is a `ResponseValidationError`). */
  readonly page: number;
  /** The page size the service applied (it caps `pagesize` at 100). */
  readonly page_size: number;
  /** The number of items across all pages when this page was read. */
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

  /** Fetches the following page. Throws `LunasError` when {@link hasNextPage} is false. */
  getNextPage(): Promise<Page<T>> {
    if (!this.hasNextPage()) {
      return Promise.reject(new LunasError('There is no next page; check hasNextPage() before getNextPage()'));
    }
    return this.#source.fetch(this.page + 1);
  }

  /**
   * Yields this page and each following one. While the caller works on a
   * page, the next is already being fetched (one page ahead at most); leaving
   * the loop early cancels that request.
   */
  iterPages(): AsyncGenerator<Page<T>, void, undefined> {
    // A generator method would keep `this`, the first page, alive for the
    // whole walk; the static walker lets each page go once it is passed.
    return Page.#walk(this);
  }

  static async *#walk<T>(current: Page<T>): AsyncGenerator<Page<T>, void, undefined> {
    let ahead: AbortController | undefined;
    try {
      while (true) {
        let next: Promise<Page<T>> | undefined;
        if (current.hasNextPage()) {
          ahead = new AbortController();
          next = current.#source.fetch(current.page + 1, ahead.signal);
          // Handled when awaited below; without this an abandoned walk would
          // report the cancelled look-ahead as an unhandled rejection.
          next.catch(() => undefined);
        }
        yield current;
        if (next === undefined) return;
        current = await next;
        ahead = undefined;
      }
    } finally {
      ahead?.abort();
    }
  }

  /**
   * Yields every item from this page onward, never one twice: items created
   * during the walk push older ones onto later pages, and those the walk has
   * already yielded are skipped (recognised by `id`).
   */
  [Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    return itemsFrom(this);
  }
}

/**
 * Every item from the first page onward, each once. One generator for the
 * whole walk (a `yield*` into another would cost a hop per item), which lets
 * go of the first page once it has moved past it.
 */
async function* itemsFrom<T>(first: Page<T> | Promise<Page<T>> | undefined): AsyncGenerator<T, void, undefined> {
  let start: Page<T> | undefined = await first!;
  first = undefined;
  const walk = new ItemWalk(sourceOf(start));
  const pages = start.iterPages();
  start = undefined;
  try {
    for await (const page of pages) {
      walk.startPage(page);
      for (const item of page.data) if (walk.accepts(item)) yield item;
      walk.endPage(page);
    }
  } finally {
    walk.finish();
  }
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
 */
export class PagePromise<T> extends Promise<Page<T>> implements AsyncIterable<T> {
  /**
   * @internal `then` on a subclass would otherwise build PagePromises through
   * this constructor.
   */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  #load: (() => Promise<Page<T>>) | undefined;
  #first: Promise<Page<T>> | undefined;

  /** @internal Built by list methods. */
  constructor(load: () => Promise<Page<T>>) {
    super((resolve) => resolve(undefined as never));
    this.#load = load;
  }

  #firstPage(): Promise<Page<T>> {
    if (this.#first === undefined) {
      this.#first = this.#load!();
      this.#load = undefined;
    }
    return this.#first;
  }

  override then<R1 = Page<T>, R2 = never>(
    onfulfilled?: ((value: Page<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<T> | R> {
    return this.#firstPage().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<Page<T>> {
    return this.#firstPage().finally(onfinally);
  }

  /** Every item from the first page onward, across pages. */
  [Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    return itemsFrom(this.#firstPage());
  }
}
