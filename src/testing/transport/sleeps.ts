/**
 * Waits a sandbox can cut short when it closes: a `delay` fault, the wait
 * before a webhook retry. Plain `setTimeout` (or a sandbox's background
 * timers), so fake timers move them.
 */
import { GLOBAL_TIMERS, type TimerSource } from '../timers.js';

/** The pending waits of one part of a sandbox, all ended by {@link Sleeps.stop}. */
export class Sleeps {
  readonly #wakers = new Set<() => void>();
  readonly #timers: TimerSource;
  #stopped = false;

  /**
   * `timers` set each wait's timer: the globals by default (a `delay` fault
   * holds a caller's request, which must keep its process alive), a
   * sandbox's background timers for webhook retries.
   */
  constructor(timers: TimerSource = GLOBAL_TIMERS) {
    this.#timers = timers;
  }

  /** Resolves `true` after `ms`, or `false` at once when {@link Sleeps.stop} comes first (or came before). */
  sleep(ms: number): Promise<boolean> {
    if (this.#stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = (): void => {
        this.#timers.clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve(false);
      };
      const timer = this.#timers.setTimeout(() => {
        this.#wakers.delete(wake);
        resolve(true);
      }, ms);
      this.#wakers.add(wake);
    });
  }

  /** Ends every pending sleep with `false`, and every later one at once. */
  stop(): void {
    this.#stopped = true;
    for (const wake of this.#wakers) wake();
  }
}
