/**
 * The sandbox's time as the root page shows it: the time, and how far
 * `advanceClock` moved it, in words, so a developer who advanced the clock
 * sees why a charge made a minute ago already expired.
 */
import type { SandboxClock } from '../service/clock.js';

/** One reading of a sandbox's clock. */
export interface SandboxTime {
  /** ISO 8601 UTC. */
  now: string;
  /** What the advances added so far, in milliseconds. */
  advancedMs: number;
  /** Whether the base is the real clock (no `now` option). */
  realClock: boolean;
}

/** Reads `clock` once. */
export const sandboxTimeOf = (clock: SandboxClock): SandboxTime => ({
  now: clock.now().toISOString(),
  advancedMs: clock.advancedMs,
  realClock: clock.moves,
});

/** Units for people, largest first. */
const UNITS: readonly [string, number][] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1_000],
  ['ms', 1],
];

/** `ms` for people, in its largest unit and the next one down when that is not zero: `1 d 2 h`, `15 min`, `1 min 30 s`. */
function durationText(ms: number): string {
  let rest = ms;
  const parts = UNITS.map(([unit, size]) => {
    const count = Math.floor(rest / size);
    rest -= count * size;
    return [count, unit] as const;
  });
  // advanceClock moves by at least 1 ms, so some part is above zero.
  const first = parts.findIndex(([count]) => count > 0);
  return parts
    .slice(first, first + 2)
    .filter(([count]) => count > 0)
    .map(([count, unit]) => `${count} ${unit}`)
    .join(' ');
}

/** What follows the time on the page: whose clock it is and how far it was moved, or nothing on an unmoved real clock. */
export function clockNote({ advancedMs, realClock }: SandboxTime): string {
  if (realClock) return advancedMs === 0 ? '' : ` (${durationText(advancedMs)} ahead of real time)`;
  return advancedMs === 0 ? " (the now option's clock)" : ` (the now option's clock plus ${durationText(advancedMs)})`;
}
