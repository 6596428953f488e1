/**
 * A client's turns on the wire: at most `limit` requests sent at once, the
 * rest waiting in the order they came. A batch of thousands of calls then
 * holds that many connections and that many requests' worth of memory,
 * rather than one of each per call; the wait for a turn is lunas's, not the
 * service's, so it runs before an attempt's deadline starts.
 */
import { onAbort } from './signal-fan-in.js';

interface Waiter {
  /** Hands the turn over; false when the waiter had given up. */
  grant(): boolean;
}

/** Turns on the wire for one client. */
export class SendSlots {
  #free: number;
  #waiting: Waiter[] = [];
  /** Where the next waiter to serve is in `#waiting`: served ones are dropped in bulk, not shifted one by one. */
  #head = 0;

  constructor(limit: number) {
    this.#free = limit;
  }

  /**
   * Takes a turn: `undefined` when one is free now (nothing to await), else a
   * promise that resolves when an earlier request gives its turn back, or
   * rejects with `aborted()` when `signal` aborts first (the turn is then
   * never taken). Every turn taken is given back by {@link release}.
   */
  take(signal: AbortSignal | undefined, aborted: () => Error): Promise<void> | undefined {
    if (this.#free > 0) {
      this.#free--;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      let waiting = true;
      const stopListening = signal
        ? onAbort(signal, () => {
            waiting = false;
            reject(aborted());
          })
        : undefined;
      this.#waiting.push({
        grant: () => {
          if (!waiting) return false;
          waiting = false;
          stopListening?.();
          resolve();
          return true;
        },
      });
    });
  }

  /** Gives a turn back: to the longest waiting request still waiting, or to the free ones. */
  release(): void {
    const waiting = this.#waiting;
    while (this.#head < waiting.length) {
      const next = waiting[this.#head]!;
      this.#head++;
      if (this.#head > 1024 && this.#head * 2 > waiting.length) {
        this.#waiting = waiting.slice(this.#head);
        this.#head = 0;
      }
      if (next.grant()) return;
    }
    this.#waiting = [];
    this.#head = 0;
    this.#free++;
  }
}
