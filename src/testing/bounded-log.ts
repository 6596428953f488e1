/**
 * A record log that keeps only its newest entries, so a sandbox left running
 * (a development loop, a load test) holds a bounded amount of them: the
 * requests received and the webhook deliveries. Each push and each release
 * costs the same however many entries are in use (pending deliveries): none
 * scans or copies the log.
 */

/** One entry in the log's order: a link of a doubly linked list, oldest to newest. */
interface Link<T> {
  readonly entry: T;
  /** The order it was pushed in: the oldest that may go is the one with the least. */
  readonly order: number;
  older: Link<T> | undefined;
  newer: Link<T> | undefined;
}

/** What {@link BoundedLog.push} hands back for an entry in use, to {@link BoundedLog.release} it later. */
export interface LogEntry {
  readonly order: number;
}

/**
 * Entries oldest first, at most `limit` of them: past it, the oldest entry
 * that may go is dropped. An entry pushed in use (a pending delivery) is
 * skipped until it is released, so the log can pass its limit by the entries
 * in use, and shrinks back as they are released.
 */
export class BoundedLog<T> {
  readonly #limit: number;
  #oldest: Link<T> | undefined;
  #newest: Link<T> | undefined;
  #size = 0;
  #pushed = 0;
  /** The entries that may go, a min-heap by push order: the root is the oldest. */
  readonly #mayGo: Link<T>[] = [];
  /** The entries in use, by push order, until released. */
  readonly #inUse = new Map<number, Link<T>>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** How many entries are kept. */
  get size(): number {
    return this.#size;
  }

  /**
   * Adds `entry` as the newest, dropping the oldest that may go when past the
   * limit. One pushed `inUse` is never dropped before {@link BoundedLog.release}.
   */
  push(entry: T, inUse = false): LogEntry {
    const link: Link<T> = { entry, order: this.#pushed++, older: this.#newest, newer: undefined };
    if (this.#newest) this.#newest.newer = link;
    else this.#oldest = link;
    this.#newest = link;
    this.#size += 1;
    if (inUse) this.#inUse.set(link.order, link);
    else this.#heapPush(link);
    this.#trim();
    return { order: link.order };
  }

  /** The entry pushed in use may go now: dropped at once if the log is past its limit and it is the oldest that may. */
  release(handle: LogEntry): void {
    const link = this.#inUse.get(handle.order);
    if (link === undefined) return;
    this.#inUse.delete(handle.order);
    this.#heapPush(link);
    this.#trim();
  }

  /** Every entry kept, oldest first (the entries themselves, in a new array). */
  all(): T[] {
    const entries: T[] = [];
    for (let link = this.#oldest; link; link = link.newer) entries.push(link.entry);
    return entries;
  }

  /** The newest `count` entries, newest first: only those are touched, however long the log. */
  newest(count: number): T[] {
    const newest: T[] = [];
    for (let link = this.#newest; link && newest.length < count; link = link.older) newest.push(link.entry);
    return newest;
  }

  /** Drops the oldest entries that may go while past the limit. */
  #trim(): void {
    while (this.#size > this.#limit && this.#mayGo.length > 0) this.#unlink(this.#heapPop());
  }

  #unlink(link: Link<T>): void {
    if (link.older) link.older.newer = link.newer;
    else this.#oldest = link.newer;
    if (link.newer) link.newer.older = link.older;
    else this.#newest = link.older;
    this.#size -= 1;
  }

  #heapPush(link: Link<T>): void {
    const heap = this.#mayGo;
    let index = heap.push(link) - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (heap[parent]!.order <= link.order) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = link;
  }

  #heapPop(): Link<T> {
    const heap = this.#mayGo;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      let index = 0;
      for (;;) {
        const left = 2 * index + 1;
        if (left >= heap.length) break;
        const right = left + 1;
        const child = right < heap.length && heap[right]!.order < heap[left]!.order ? right : left;
        if (heap[child]!.order >= last.order) break;
        heap[index] = heap[child]!;
        index = child;
      }
      heap[index] = last;
    }
    return top;
  }
}
