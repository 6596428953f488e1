/**
 * What a `for await` walk over a list decides for each item and each page:
 * skip an item it has already yielded (and nothing else), say so when a list
 * contradicts its documented order, and stop with an error when the service
 * makes no progress. Memory is bounded whatever the length of the walk.
 */
import { LunasError } from './errors.js';

/**
 * How a list is documented to be ordered, which decides what a walk may check:
 * - `newest-first`: newest first by `created_at`, a field its items document
 *   (charges, transfers);
 * - `unspecified`: no field the order could be checked against (payouts and
 *   payment methods, whose fields are not documented).
 */
export type ListOrder = 'newest-first' | 'unspecified';

/** What a walk needs to know about its list, besides its pages. */
export interface WalkContext {
  /** `GET /v1/payouts`, for messages. */
  readonly label: string;
  readonly order: ListOrder;
  /** Writes a warn-level line through the client's log. */
  readonly warn: (message: string) => void;
}

/** The page fields a walk looks at. */
export interface WalkedPage {
  readonly data: readonly unknown[];
  readonly page: number;
  readonly total_items: number;
  hasNextPage(): boolean;
}

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

  has(id: string): boolean {
    return this.#lastSeen.has(id);
  }

  see(id: string): void {
    const slot = this.#sightings % REMEMBERED_IDS;
    const oldest = this.#ring[slot];
    // Forget the id leaving the ring unless it was seen again since.
    if (oldest !== undefined && this.#lastSeen.get(oldest) === this.#sightings - REMEMBERED_IDS) {
      this.#lastSeen.delete(oldest);
    }
    this.#ring[slot] = id;
    this.#lastSeen.set(id, this.#sightings++);
  }
}

/** One `for await` walk's state. */
export class ItemWalk {
  readonly #context: WalkContext;
  readonly #recent = new RecentIds();
  /** Newest-first lists: the newest `created_at` on the walk's first page with timestamps, once read. */
  #horizon: number | undefined;
  /** Newest-first lists: the oldest `created_at` yielded so far, and its text. */
  #oldest: number | undefined;
  #oldestText = '';
  #orderWarnings = 0;
  #firstTotal: number | undefined;
  #previousTotal: number | undefined;
  #repeatsOnPage = 0;
  /** Repeats skipped in the whole walk. */
  #repeats = 0;
  /** Items on consecutive pages that held nothing but repeats. */
  #repeatRun = 0;

  constructor(context: WalkContext) {
    this.#context = context;
  }

  /** Call before the page's items. */
  startPage(page: WalkedPage): void {
    this.#repeatsOnPage = 0;
    this.#firstTotal ??= page.total_items;
    const previous = this.#previousTotal;
    if (previous !== undefined && page.total_items - previous > REMEMBERED_IDS) {
      this.#context.warn(
        `${this.#context.label}: total_items grew by ${page.total_items - previous} before page ${page.page}, ` +
          `more than the ${REMEMBERED_IDS} ids a walk remembers; an item pushed that far down may be yielded twice`,
      );
    }
  }

  /**
   * Whether to yield `item`: false only for an item whose `id` the walk has
   * seen among its last {@link REMEMBERED_IDS} items. Never false for an item
   * without a string `id`, nor for one the walk has not seen.
   */
  accepts(item: unknown): boolean {
    const id = stringField(item, 'id');
    if (id !== undefined) {
      const seen = this.#recent.has(id);
      this.#recent.see(id);
      if (seen) {
        this.#repeatsOnPage++;
        this.#repeats++;
        return false;
      }
    }
    if (this.#context.order === 'newest-first') this.#checkOrder(item, id);
    return true;
  }

  /**
   * Call after the page's items. Throws `LunasError` when the walk would go
   * on without progress, after a full page of nothing but repeats:
   * - when the walk has met more repeats than `total_items` grew since its
   *   first page. Each item created at the head pushes the rest down by one
   *   place, which can bring back at most one item already read; repeats
   *   beyond that growth mean the service is sending pages already read;
   * - when more items in a row were repeats than the walk remembers ids: the
   *   list grows as fast as the walk reads it.
   */
  endPage(page: WalkedPage): void {
    // Set after the first page, so that page's own items are all checked.
    if (this.#context.order === 'newest-first' && this.#horizon === undefined) this.#horizon = newestTime(page.data);
    this.#previousTotal = page.total_items;
    const count = page.data.length;
    if (!page.hasNextPage() || this.#repeatsOnPage < count) {
      this.#repeatRun = 0;
      return;
    }
    const { label } = this.#context;
    const growth = page.total_items - this.#firstTotal!;
    if (this.#repeats > growth) {
      throw new LunasError(
        `${label}: page ${page.page} held only items this walk had already yielded (${count} of ${count}), ` +
          `and the walk has met ${this.#repeats} such repeats while total_items grew by ${Math.max(growth, 0)} ` +
          `(now ${page.total_items}): more than new items could have pushed down. The service is sending pages ` +
          `already read instead of page ${page.page}; the walk stopped rather than loop.`,
      );
    }
    this.#repeatRun += count;
    if (this.#repeatRun > REMEMBERED_IDS) {
      throw new LunasError(
        `${label}: ${this.#repeatRun} items in a row, up to page ${page.page}, were ones this walk had already ` +
          `yielded, while total_items kept growing (now ${page.total_items}): new items push the list down as ` +
          `fast as the walk reads it. The walk stopped rather than loop; walk again later.`,
      );
    }
  }

  /** Call when the walk ends, however it ends. */
  finish(): void {
    const unreported = this.#orderWarnings - ORDER_WARNINGS_PER_WALK;
    if (unreported > 0) {
      this.#context.warn(
        `${this.#context.label}: ${unreported} more items came after older ones in this walk; ` +
          `they were yielded, without a line each`,
      );
    }
  }

  /**
   * A newest-first walk moves back in time. An item newer than one already
   * yielded, yet not among the items seen, is yielded all the same (it was
   * never yielded, or was seen too long ago to be remembered), with a warning.
   * On later pages, items newer than everything on the first page are not
   * suspect: they were created during the walk, and pushed down by still
   * newer ones.
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
    const more = this.#orderWarnings === ORDER_WARNINGS_PER_WALK ? ' Further such items are counted at the end.' : '';
    this.#context.warn(
      `${this.#context.label}: item ${id ?? '(without an id)'} created_at ${text} came after an item ` +
        `created_at ${this.#oldestText}, but the list is newest first. It was yielded. Either the list ` +
        `contradicts its order (clocks out of step?) or it shifted by more than ${REMEMBERED_IDS} items ` +
        `between two pages, in which case this item may be a repeat.${more}`,
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

function stringField(item: unknown, name: 'id' | 'created_at'): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const value = (item as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
