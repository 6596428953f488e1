/**
 * A client's turns on the wire: at most `limit` requests sent at once, the
 * rest waiting in the order they came. A batch of thousands of calls then
 * holds that many connections and that many requests' worth of memory,
 * rather than one of each per call. The wait for a turn is lunas's, not the
 * service's: an attempt takes its turn before its events, its tracing and its
 * deadline start (transport.ts).
 */
import { onAbort } from './signal-fan-in.js';

/**
 * A place in the queue, a ring linked both ways through the queue's own
 * link: a request that gives up leaves at once, wherever it stands, so the
 * queue holds only requests still waiting and a turn given back goes to the
 * first of them. A link out of the ring points to itself, so taking it out
 * again changes nothing.
 */
interface Link {
  prev: Link;
  next: Link;
}

/** A request waiting for a turn. */
interface Waiter extends Link {
  /** Settles its wait: true when it is handed the turn, false when its signal aborted first. */
  readonly resolve: (granted: boolean) => void;
  /** Stops listening to the caller's signal. */
  stop?: (() => void) | undefined;
}

/** Takes `link` out of the ring it is in, if any. */
function unlink(link: Link): void {
  link.prev.next = link.next;
  link.next.prev = link.prev;
  link.prev = link.next = link;
}

/** Turns on the wire for one client. */
export class SendSlots {
  #free: number;
  /** The queue's own link: its `next` is the longest waiting request, its `prev` the latest; itself when none waits. */
  readonly #queue = {} as Link;

  constructor(limit: number) {
    this.#free = limit;
    this.#queue.prev = this.#queue.next = this.#queue;
  }

  /**
   * Takes a turn: `true` when one is free now (nothing to await), else a
   * promise of `true` once an earlier request gives its turn back, or of
   * `false` as soon as `signal` aborts (the turn is then never taken; so too,
   * at once, when it had aborted already). Every turn taken is given back by
   * {@link release}.
   */
  take(signal: AbortSignal | undefined): boolean | Promise<boolean> {
    // An aborted signal fires no further event: it would wait for a turn it never uses.
    if (signal?.aborted) return false;
    if (this.#free > 0) {
      this.#free--;
      return true;
    }
    return new Promise<boolean>((resolve) => {
      const queue = this.#queue;
      const last = queue.prev;
      const waiter: Waiter = { prev: last, next: queue, resolve };
      last.next = waiter;
      queue.prev = waiter;
      if (signal) {
        waiter.stop = onAbort(signal, () => {
          unlink(waiter);
          resolve(false);
        });
      }
    });
  }

  /** Gives a turn back: to the longest waiting request, or to the free ones when none waits. */
  release(): void {
    const first = this.#queue.next as Waiter;
    if (first === this.#queue) {
      this.#free++;
      return;
    }
    unlink(first);
    first.stop?.();
    first.resolve(true);
  }
}
