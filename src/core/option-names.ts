/**
 * Options checked by name. Plain JavaScript gets no compiler, so a misspelt
 * option (`maxRetry`, `idempotency_key`) would otherwise be ignored in silence
 * and its default used instead: a generated idempotency key, two retries.
 *
 * Only an options object's own enumerable string keys are checked and read,
 * as `Object.entries` and object spread see them: a `null`-prototype object
 * works, and properties inherited from a prototype (or added to
 * `Object.prototype` by another library) neither trip the check nor get read.
 * Symbol keys and non-enumerable properties are metadata, not options: they
 * are neither checked nor read either.
 */
import { describeValue } from './describe-value.js';

/** An options object's values: every known name as an own key, `undefined` when not given. */
export type OptionValues<K extends string> = { [P in K]: unknown };

/**
 * The known options' values, each read once, and the unknown names given. The
 * values object holds every known name as an own key, so neither spreading it
 * nor reading it can reach a polluted `Object.prototype`.
 */
export function readOptions<K extends string>(
  given: object,
  known: readonly K[],
): { values: OptionValues<K>; unknown: string[] } {
  const values = Object.fromEntries(known.map((name) => [name, undefined])) as OptionValues<K>;
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(given)) {
    if ((known as readonly string[]).includes(name)) values[name as K] = value;
    else unknown.push(name);
  }
  return { values, unknown };
}

/**
 * `Unknown option "maxRetry": did you mean "maxRetries"?`, or the known names
 * when none is close. Names only: an option's value may be a secret.
 */
export function unknownOptionMessage(name: string, known: readonly string[], kind = 'option'): string {
  const closest = closestNames(name, known);
  const hint =
    closest.length > 0
      ? `: did you mean ${closest.map((option) => `"${option}"`).join(' or ')}?`
      : `; known ${kind}s: ${known.join(', ')}`;
  return `Unknown ${kind} ${describeValue(name)}${hint}`;
}

/**
 * The key an unknown name gets in `RequestValidationError.fields`: the name
 * itself, or, for a long one or one holding control characters, its JSON
 * escaped and shortened form, so the error's message stays one short line.
 */
export function optionField(name: string): string {
  return describeValue(name).slice(1, -1);
}

/** Case, `_` and `-` are how names are mistyped most often across languages: `idempotency_key`, `baseUrl`. */
function normalised(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/**
 * The known names nearest to `name` by Damerau-Levenshtein distance (optimal
 * string alignment) after normalising, when near enough to be a plausible
 * typo: at most a third of the known name's length, and at least one edit.
 * Several when tied.
 */
export function closestNames(name: string, known: readonly string[]): string[] {
  const typed = normalised(name);
  let best = Infinity;
  let closest: string[] = [];
  for (const option of known) {
    const target = normalised(option);
    const limit = Math.max(1, Math.floor(target.length / 3));
    // A long name is no typo of a short one: skip the table for it.
    const distance = Math.abs(typed.length - target.length) > limit ? Infinity : editDistance(typed, target);
    if (distance > limit || distance > best) continue;
    if (distance < best) closest = [];
    best = distance;
    closest.push(option);
  }
  return closest;
}

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
