/**
 * A record log that keeps only its newest entries, so a sandbox left running
 * (a development loop, a load test) holds a bounded amount of them: the
 * requests received and the webhook deliveries.
 */

/**
 * Entries oldest first, at most `limit` of them: past it, the oldest entry that
 * may go is dropped. An entry still in use (a pending delivery) is skipped, so
 * the log can pass its limit by the entries in use, and shrinks back with
 * {@link BoundedLog.trim} once they may go.
 */
export class BoundedLog<T> {
  readonly #entries: T[] = [];
  readonly #limit: number;
  readonly #mayDrop: (entry: T) => boolean;

  /** `mayDrop` says whether an entry may be dropped now; by default any may. */
  constructor(limit: number, mayDrop: (entry: T) => boolean = () => true) {
    this.#limit = limit;
    this.#mayDrop = mayDrop;
  }

  /** How many entries are kept. */
  get size(): number {
    return this.#entries.length;
  }

  /** Adds `entry` as the newest, dropping the oldest that may go when past the limit. */
  push(entry: T): void {
    this.#entries.push(entry);
    this.trim();
  }

  /** Drops the oldest entries that may go while past the limit: after an entry in use has become one that may. */
  trim(): void {
    let index = 0;
    while (this.#entries.length > this.#limit) {
      while (index < this.#entries.length && !this.#mayDrop(this.#entries[index] as T)) index++;
      if (index === this.#entries.length) return;
      this.#entries.splice(index, 1);
    }
  }

  /** Every entry kept, oldest first (the entries themselves, in a new array). */
  all(): T[] {
    return this.#entries.slice();
  }

  /** The newest `count` entries, newest first: only those are touched, however long the log. */
  newest(count: number): T[] {
    const newest: T[] = [];
    for (let index = this.#entries.length - 1; index >= 0 && newest.length < count; index--) {
      newest.push(this.#entries[index] as T);
    }
    return newest;
  }
}
