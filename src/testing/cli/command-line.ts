/**
 * The `lunas-sandbox` command line read for a person: `node:util`'s
 * `parseArgs`, plus what it leaves to the caller. An unknown flag is named
 * with the closest known one (`--jsn`: did you mean `--json`?), a number
 * that starts with a minus (`advance -5`, `--balance -1`) is a value rather
 * than a flag, and durations read as people write them (`90s`, `15m`).
 */
import { parseArgs } from 'node:util';
import { closestNames } from '../../shared/closest-names.js';

/** A wrong command line: exit 2, with the one usage line that helps. */
export class UsageError extends Error {}

/** The flags a command takes, as `parseArgs` has them. */
export type FlagSpecs = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** The flags' values as read: text, a switch, or every value of a repeatable flag. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** A number written with a minus: a value (`-5`, `-1.5`), which `parseArgs` would take for a flag. */
const NEGATIVE_NUMBER = /^-\.?\d/;

/**
 * The flags and positional arguments of `argv`, or a {@link UsageError}.
 * `takes` says what the command takes, for the message about an unknown flag.
 */
export function readCommandLine(
  argv: readonly string[],
  flags: FlagSpecs,
  takes: string,
): { values: FlagValues; positionals: string[] } {
  const given: string[] = [];
  /** For each of `given`, its place in `argv`: where a negative number set aside goes back. */
  const places: number[] = [];
  const negatives: { place: number; value: string }[] = [];
  let ended = false;
  let valueNext = false;
  argv.forEach((arg, place) => {
    const isValue = valueNext;
    valueNext = false;
    if (isValue && NEGATIVE_NUMBER.test(arg)) {
      // parseArgs takes `--balance -5` for a flag without its value; `--balance=-5` it reads.
      given[given.length - 1] += `=${arg}`;
      return;
    }
    if (ended || isValue || arg === '-' || !arg.startsWith('-')) {
      given.push(arg);
      places.push(place);
      return;
    }
    if (arg === '--') {
      ended = true;
    } else if (NEGATIVE_NUMBER.test(arg)) {
      negatives.push({ place, value: arg });
      return;
    } else {
      valueNext = checkFlag(arg, flags, takes);
    }
    given.push(arg);
    places.push(place);
  });
  let parsed;
  try {
    parsed = parseArgs({ args: given, options: flags, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    // Its messages run over several lines, each a sentence.
    throw new UsageError((error as Error).message.replace(/\s*\n\s*/g, ' '));
  }
  const positionals = [
    ...parsed.tokens.flatMap((token) =>
      token.kind === 'positional' ? [{ place: places[token.index] ?? 0, value: token.value }] : [],
    ),
    ...negatives,
  ]
    .sort((a, b) => a.place - b.place)
    .map(({ value }) => value);
  return { values: parsed.values as FlagValues, positionals };
}

/**
 * Refuses a flag the command does not take, naming the closest one it does;
 * true when the flag takes the next word as its value. A negative number
 * right after such a flag is that value, so it never reaches here.
 */
function checkFlag(arg: string, flags: FlagSpecs, takes: string): boolean {
  if (arg.startsWith('--')) {
    const [name = '', inline] = arg.slice(2).split(/=(.*)/s);
    const spec = Object.hasOwn(flags, name) ? flags[name] : undefined;
    if (spec === undefined) {
      const closest = closestNames(name, Object.keys(flags));
      const hint = closest.length > 0 ? `did you mean ${closest.map((known) => `--${known}`).join(' or ')}?` : takes;
      throw new UsageError(`unknown option --${name}: ${hint}`);
    }
    return spec.type === 'string' && inline === undefined;
  }
  const shorts = Object.entries(flags).filter(([, spec]) => spec.short !== undefined);
  for (const letter of arg.slice(1)) {
    const flag = shorts.find(([, spec]) => spec.short === letter);
    if (flag === undefined) {
      throw new UsageError(
        `unknown option -${letter}${arg.length > 2 ? ` in ${arg}` : ''}: ${takes}; ` +
          `a value that starts with "-" goes after --, as in: -- ${arg}`,
      );
    }
    if (flag[1].type === 'string') return arg.endsWith(letter);
  }
  return false;
}

/** What a duration may be written as, for messages and help. */
export const DURATION_FORMS = '1500 (milliseconds), 1500ms, 90s, 15m, 2h or 3d';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A positive duration in milliseconds from `1500`, `90s`, `15m`, `2h`, `3d`; else a {@link UsageError} naming `name`. */
export function durationMs(name: string, text: string): number {
  const match = /^(-?)(\d+)(ms|s|m|h|d)?$/.exec(text);
  if (match === null) {
    throw new UsageError(`${name} must be a duration, ${DURATION_FORMS}; not ${JSON.stringify(text)}`);
  }
  const ms = Number(match[2]) * (UNIT_MS[match[3] ?? 'ms'] ?? 1);
  if (match[1] === '-' || ms === 0) {
    throw new UsageError(`${name} must be positive, not ${JSON.stringify(text)}: ${DURATION_FORMS}`);
  }
  if (!Number.isSafeInteger(ms)) throw new UsageError(`${name} is too long: ${JSON.stringify(text)}`);
  return ms;
}

/** A whole number from `min` to `max` written in decimal digits, or a {@link UsageError}. */
export function wholeNumber(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(text)}`);
  }
  return value;
}
