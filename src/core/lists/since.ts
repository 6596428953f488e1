/**
 * `since(time)` on a newest-first list: {@link SinceWalk}, the walk back to a
 * time, given the means to open the list's item walk. It ends at the first
 * item created before the time, and an item it cannot place in time ends it
 * with an error.
 */
import { describeGiven, describeValue } from '../report/describe-value.js';
import { LunasError, RequestValidationError } from '../report/errors.js';
import { describeListing, type ListSpec } from './list-spec.js';
import { datetimeParam, validate, z } from '../checks/schemas.js';
import { collect } from './to-array.js';
import type { LookAhead, WalkedPage } from './walk-rules.js';

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
   *   [the table](../../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
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
   *   [the table](../../../docs/errors-and-retries.md#every-error-a-call-can-raise)).
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
