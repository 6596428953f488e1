/**
 * The walk rules: what a walk over a list decides for each item and page
 * ({@link ItemWalk}, explained above {@link REMEMBERED_IDS}), the page fields
 * it looks at ({@link WalkedPage}), and what it is told of its list
 * ({@link WalkContext}).
 */
import { LunasError } from '../report/errors.js';
import type { ListOrder } from './list-spec.js';

/** What a walk needs to know about its list, besides its pages. */
export interface WalkContext {
  /** `GET /v1/payouts`, for messages. */
  readonly label: string;
  readonly order: ListOrder;
  /** Writes a warn-level line through the client's log. */
  readonly warn: (message: string) => void;
}

/** The page fields a walk looks at (never `total_items`): a `Page`'s, whatever its items. */
export interface WalkedPage {
  readonly data: readonly unknown[];
  readonly page: number;
  readonly page_size: number;
  hasNextPage(): boolean;
}

/** Whether to fetch the page after `page` while the caller works on it. */
export type LookAhead = (page: WalkedPage) => boolean;

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
export class ItemWalk {
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
