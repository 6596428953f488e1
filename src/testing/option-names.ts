/**
 * The sandbox's options checked by name, as the SDK checks its own (the
 * sandbox never imports the SDK, so this is its own small copy): a misspelt
 * option (`webhookURL`, `api_key`) would otherwise be ignored and its default
 * used. Only own enumerable string keys are checked and read, so a
 * `null`-prototype object works and inherited properties are ignored.
 */
import { isPlainObject } from './service/rules.js';

/**
 * The options' values, every known name an own key (`undefined` when not
 * given); throws a `TypeError` with `notAnObject` when `given` is not a plain
 * object (`null` and arrays included: the caller handles an absent value
 * first), and one naming each unknown option and the closest known one.
 * `what` names them in the message (the factories' fields too).
 */
export function checkOptionNames<K extends string>(
  given: unknown,
  known: readonly K[],
  notAnObject: string,
  what = 'sandbox option',
): { [P in K]?: unknown } {
  if (!isPlainObject(given)) throw new TypeError(notAnObject);
  const values = Object.fromEntries(known.map((name) => [name, undefined])) as { [P in K]?: unknown };
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(given)) {
    if ((known as readonly string[]).includes(name)) values[name as K] = value;
    else unknown.push(name);
  }
  if (unknown.length > 0) throw new TypeError(unknown.map((name) => unknownMessage(name, known, what)).join('; '));
  return values;
}

function unknownMessage(name: string, known: readonly string[], what: string): string {
  const shown = Array.from(name).length > 40 ? `${Array.from(name).slice(0, 40).join('')}…` : name;
  const closest = closestNames(name, known);
  const hint =
    closest.length > 0
      ? `: did you mean ${closest.map((option) => `"${option}"`).join(' or ')}?`
      : `; known ${what}s: ${known.join(', ')}`;
  return `Unknown ${what} ${JSON.stringify(shown)}${hint}`;
}

/**
 * The known names closest to `name`, for "did you mean": every one at the
 * least distance, case, `_` and `-` ignored, and within a third of the known
 * name's length in edits (at least one); none when nothing is that close. The
 * `lunas-sandbox` command names its subcommands, flags and fault kinds with it too.
 */
export function closestNames(name: string, known: readonly string[]): string[] {
  const fold = (text: string) => text.toLowerCase().replace(/[_-]/g, '');
  const typed = fold(name);
  let best = Infinity;
  let closest: string[] = [];
  // No known name is near 40 characters: a longer one is no typo, and needs no table.
  for (const option of typed.length < 40 ? known : []) {
    const distance = editDistance(typed, fold(option));
    if (distance > Math.max(1, option.length / 3) || distance > best) continue;
    if (distance < best) closest = [];
    best = distance;
    closest.push(option);
  }
  return closest;
}

/** Damerau-Levenshtein distance (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = (rows[i] = [i]);
    for (let j = 1; j <= b.length; j++) {
      const above = rows[i - 1];
      row[j] = above ? Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)) : j;
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}
