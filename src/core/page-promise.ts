/**
 * The {@link PagePromise} that `list()` returns: awaitable for the first
 * {@link Page}, `for await`-able over every item from there on, lazy until then.
 */
import { collect } from './collect.js';
import { type Listing, Page } from './pagination.js';
import { SinceWalk } from './since-walk.js';

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

  #load: (() => Promise<Page<T>>) | undefined;
  #first: Promise<Page<T>> | undefined;
  readonly #listing: Listing;

  /** @internal Built by list methods. */
  constructor(load: () => Promise<Page<T>>, listing: Listing) {
    super((resolve) => resolve(undefined as never));
    this.#load = load;
    this.#listing = listing;
  }

  /**
   * What `console.log` and `util.inspect` print: the request it stands for
   * and how to use it, never its (empty) promise state. Sends nothing.
   */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    const state = this.#first === undefined ? 'not requested yet' : 'first page requested';
    return (
      `${this.constructor.name} { ${this.#listing.describe()}, ${state} } ` +
      `(await it for the first Page, or for await it for every item)`
    );
  }

  #firstPage(): Promise<Page<T>> {
    if (this.#first === undefined) {
      this.#first = this.#load!();
      this.#load = undefined;
    }
    return this.#first;
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
    return collect(options, (lookAhead) => Page.items(this.#firstPage(), lookAhead), this.#listing.secret);
  }

  /**
   * Newest-first lists only: see {@link NewestFirstPagePromise.since}. Here,
   * on a list whose items document no `created_at`, the walk rejects with
   * `RequestValidationError` before sending (for JavaScript callers; the
   * types have no `since` on such lists).
   */
  protected since(time: Date | string): SinceWalk<T> {
    return new SinceWalk(
      time,
      this.#listing.order === 'newest-first' ? (lookAhead) => Page.items(this.#firstPage(), lookAhead) : undefined,
      this.#listing,
    );
  }
}
