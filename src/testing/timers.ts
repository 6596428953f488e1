/**
 * Timers for work nobody may be waiting for: a charge's expiry, a webhook's
 * retry and its attempt's time limit. A test that leaves a sandbox open must
 * not hold its process open for minutes, so these timers let the process exit
 * (`unref`), unless someone awaits what they lead to (`webhooksSettled()`):
 * then they keep it alive, or a script's `await` would end with its process.
 * Plain `setTimeout`, so fake timers move them.
 */

/** What `setTimeout` returns: an object on Node.js and Bun, a number on Deno, browsers and workerd. */
type TimerHandle = ReturnType<typeof setTimeout>;

/** Where a part of the sandbox takes its timers from: the global functions, or {@link BackgroundTimers}. */
export type TimerSource = Pick<BackgroundTimers, 'setTimeout' | 'clearTimeout'>;

/** The global `setTimeout` and `clearTimeout`, read when called (so fake timers installed later are used). */
export const GLOBAL_TIMERS: TimerSource = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer),
};

/** Deno's own calls for its numeric timer ids. */
interface DenoTimerCalls {
  refTimer?: (id: number) => void;
  unrefTimer?: (id: number) => void;
}

/**
 * Lets `timer` keep the process alive or not: `ref()`/`unref()` on Node.js and
 * Bun (fake timers' objects too), `Deno.refTimer`/`Deno.unrefTimer` on Deno.
 * Elsewhere (a browser, workerd) there is no process to keep, and nothing happens.
 */
export function setKeepsProcessAlive(timer: TimerHandle, keepsAlive: boolean): void {
  if (typeof timer === 'number') {
    const deno = (globalThis as { Deno?: DenoTimerCalls }).Deno;
    const call = keepsAlive ? deno?.refTimer : deno?.unrefTimer;
    call?.call(deno, timer);
    return;
  }
  const handle = timer as { ref?: () => unknown; unref?: () => unknown };
  const call = keepsAlive ? handle.ref : handle.unref;
  call?.call(handle);
}

/**
 * The background timers of one part of a sandbox: each lets the process exit,
 * except while {@link BackgroundTimers.keepProcessAlive} says someone waits
 * (the timers already set are switched too).
 */
export class BackgroundTimers {
  readonly #pending = new Set<TimerHandle>();
  #keepAlive = false;

  /** `setTimeout`, whose timer keeps the process alive only while wanted. */
  setTimeout(run: () => void, ms: number): TimerHandle {
    const timer = setTimeout(() => {
      this.#pending.delete(timer);
      run();
    }, ms);
    this.#pending.add(timer);
    if (!this.#keepAlive) setKeepsProcessAlive(timer, false);
    return timer;
  }

  /** `clearTimeout` for a timer set here. */
  clearTimeout(timer: TimerHandle): void {
    clearTimeout(timer);
    this.#pending.delete(timer);
  }

  /** `true` while someone waits for what these timers lead to: then they keep the process alive. */
  keepProcessAlive(keep: boolean): void {
    if (keep === this.#keepAlive) return;
    this.#keepAlive = keep;
    for (const timer of this.#pending) setKeepsProcessAlive(timer, keep);
  }
}
