/**
 * A sandbox's time: the `now` option (or the real clock) plus what
 * `advanceClock` added, and the one timer that wakes the sandbox when the
 * earliest pending charge falls due. Plain `setTimeout` and `Date`, so fake
 * timers move both together.
 */
import { setKeepsProcessAlive } from '../timers.js';

import { shown } from '../describe-value.js';

/**
 * The latest time the sandbox's clock reaches, `9999-01-01T00:00:00.000Z`
 * (in ms since the epoch). It leaves room for every time computed from it (a
 * default expiry is at most a day later, a caller's `expires_at` at most
 * {@link LATEST_EXPIRES_AT}), so every timestamp served keeps a four-digit
 * year: past year 9999 `toISOString()` writes `+010000-…`, which ISO 8601
 * readers refuse, and past the last `Date` (year 275760) it throws.
 */
const LATEST_SANDBOX_TIME = Date.parse('9999-01-01T00:00:00.000Z');

/** The earliest, `0000-01-01T00:00:00.000Z`: before it `toISOString()` writes `-000001-…`. */
const EARLIEST_SANDBOX_TIME = Date.parse('0000-01-01T00:00:00.000Z');

/** The latest `expires_at` a charge may ask for: the last moment of year 9999. */
export const LATEST_EXPIRES_AT = Date.parse('9999-12-31T23:59:59.999Z');

/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days): a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

const iso = (ms: number): string => new Date(ms).toISOString();

/** The clock every timestamp and every expiry of one sandbox reads. */
export class SandboxClock {
  readonly #base: () => Date;
  #offsetMs = 0;
  /** Whether the base is the real clock (no `now` option): only then does time move by itself. */
  readonly moves: boolean;

  /** Reads `now` once: a clock out of the sandbox's range is refused when the sandbox starts, not at its first request. */
  constructor(now: (() => Date) | undefined) {
    this.moves = now === undefined;
    this.#base = now ?? (() => new Date());
    this.now();
  }

  /** How far `advance` has moved the clock so far, in milliseconds. */
  get advancedMs(): number {
    return this.#offsetMs;
  }

  /**
   * The sandbox's time: the base clock plus every `advance` so far. A
   * `TypeError` when the `now` option returns anything but a valid `Date`, or
   * a time outside the years 0000 to {@link LATEST_SANDBOX_TIME}.
   */
  readonly now = (): Date => {
    const base: unknown = this.#base();
    const baseMs = base instanceof Date ? base.getTime() : Number.NaN;
    if (Number.isNaN(baseMs)) throw new TypeError(`The now option must return a valid Date (got ${shown(base)})`);
    const ms = baseMs + this.#offsetMs;
    if (ms < EARLIEST_SANDBOX_TIME || ms > LATEST_SANDBOX_TIME) {
      const advanced = this.#offsetMs === 0 ? '' : ` plus the ${this.#offsetMs} ms advanced`;
      throw new TypeError(
        `The sandbox's time (the now option's ${shown(base)}${advanced}) must fall between ` +
          `${iso(EARLIEST_SANDBOX_TIME)} and ${iso(LATEST_SANDBOX_TIME)}`,
      );
    }
    return this.#offsetMs === 0 ? (base as Date) : new Date(ms);
  };

  /**
   * Moves the clock forward by `ms`; a `TypeError` for anything but a whole,
   * positive number of milliseconds, or for one that would pass {@link LATEST_SANDBOX_TIME}.
   */
  advance(ms: unknown): void {
    if (!(typeof ms === 'number' && Number.isSafeInteger(ms) && ms > 0)) {
      throw new TypeError(`ms must be a positive whole number of milliseconds (got ${shown(ms)})`);
    }
    const now = this.now().getTime();
    const room = LATEST_SANDBOX_TIME - now;
    if (ms > room) {
      throw new TypeError(
        `ms would move the sandbox's clock past its latest time, ${iso(LATEST_SANDBOX_TIME)}: ` +
          `from ${iso(now)} it can move at most ${room} ms`,
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
