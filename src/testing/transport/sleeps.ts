/**
 * Waits a sandbox can cut short when it closes: a `delay` fault, the wait
 * before a webhook retry. Plain `setTimeout`, so fake timers move them.
 */
export class Sleeps {
  readonly #wakers = new Set<() => void>();
  #stopped = false;

  /** Resolves `true` after `ms`, or `false` at once when {@link Sleeps.stop} comes first (or came before). */
  sleep(ms: number): Promise<boolean> {
    if (this.#stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve(false);
      };
      const timer = setTimeout(() => {
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
