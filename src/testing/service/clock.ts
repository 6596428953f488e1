/**
 * A sandbox's time: the `now` option (or the real clock) plus what
 * `advanceClock` added, and the one timer that wakes the sandbox when the
 * earliest pending charge falls due. Plain `setTimeout` and `Date`, so fake
 * timers move both together.
 */
import { setKeepsProcessAlive } from '../timers.js';

/** The latest time a `Date` can hold, in milliseconds since the epoch. */
const MAX_DATE_MS = 8.64e15;

/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days): a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** The clock every timestamp and every expiry of one sandbox reads. */
export class SandboxClock {
  readonly #base: () => Date;
  #offsetMs = 0;
  /** Whether the base is the real clock (no `now` option): only then does time move by itself. */
  readonly moves: boolean;

  constructor(now: (() => Date) | undefined) {
    this.moves = now === undefined;
    this.#base = now ?? (() => new Date());
  }

  /** The sandbox's time: the base clock plus every `advance` so far. */
  readonly now = (): Date => {
    const base = this.#base();
    return this.#offsetMs === 0 ? base : new Date(base.getTime() + this.#offsetMs);
  };

  /** Moves the clock forward by `ms`; a `TypeError` for anything but a whole, non-negative number of milliseconds. */
  advance(ms: unknown): void {
    if (!(typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= 0)) {
      throw new TypeError('ms must be a non-negative integer number of milliseconds');
    }
    if (this.now().getTime() + ms > MAX_DATE_MS) {
      throw new TypeError(
        `ms would move the clock past the last date JavaScript can hold (${new Date(MAX_DATE_MS).toISOString()})`,
      );
    }
    this.#offsetMs += ms;
  }
}

/**
 * One timer for the earliest due expiry of a sandbox on the real clock. On a
 * caller's clock (the `now` option) it never arms: that time moves only when
 * the caller moves it (`advanceClock`, or a read that sweeps).
 */
export class ExpiryTimer {
  readonly #clock: SandboxClock;
  readonly #fire: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  /** `fire` runs when the time armed for comes (or setTimeout's longest wait ends first). */
  constructor(clock: SandboxClock, fire: () => void) {
    this.#clock = clock;
    this.#fire = fire;
  }

  /** Replaces the pending wake-up with one at `at`, or none when `at` is `undefined`. */
  arm(at: Date | undefined): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (at === undefined || this.#stopped || !this.#clock.moves) return;
    const delay = Math.min(Math.max(0, at.getTime() - this.#clock.now().getTime()), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      this.#timer = undefined;
      this.#fire();
    }, delay);
    // A charge waiting to expire must not keep a test run's process alive (Node.js, Bun, Deno).
    setKeepsProcessAlive(timer, false);
    this.#timer = timer;
  }

  /** Clears the pending wake-up for good: `close()`. */
  stop(): void {
    this.#stopped = true;
    this.arm(undefined);
  }
}
