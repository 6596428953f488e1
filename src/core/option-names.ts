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
import { describeKind, describeValue } from './describe-value.js';
import { addFieldMessages, type FieldErrors } from './errors.js';

/** An options object's values: every known name as an own key, `undefined` when not given. */
type OptionValues<K extends string> = { [P in K]: unknown };

/**
 * The names of an options interface as a list, for {@link readOptions}: the
 * compiler refuses a name missing from `names` or not in `T`, so a new option
 * is one new key beside its interface.
 *
 * @example
 * ```ts
 * const NAMES = optionNames<RequestOptions>({ idempotencyKey: 0, timeout: 0, maxRetries: 0, signal: 0, headers: 0 });
 * ```
 */
export function optionNames<T>(names: { [K in keyof Required<T>]: 0 }): (keyof T & string)[] {
  return Object.keys(names) as (keyof T & string)[];
}

/**
 * An options argument read by name, as {@link readOptions} does. `undefined`
 * and `null` (JavaScript's "nothing") are no options; anything but an object
 * is a problem under `options`, named by its kind only: a misplaced argument
 * may be an API key. `label` starts that message (`Options`, `The client options`).
 */
export function readOptionsObject<K extends string>(
  given: unknown,
  known: readonly K[],
  label: string,
): { values: OptionValues<K>; problems: FieldErrors } {
  const options = given ?? {};
  const isObject = typeof options === 'object' && !Array.isArray(options);
  const read = readOptions(isObject ? options : {}, known);
  if (!isObject) read.problems.options = [`${label} must be an object (got ${describeKind(given)})`];
  return read;
}

/**
 * The known options' values, each read once, and a problem per unknown name
 * (keyed as {@link optionField} says). The values object holds every known
 * name as an own key, so neither spreading it nor reading it can reach a
 * polluted `Object.prototype`.
 */
export function readOptions<K extends string>(
  given: object,
  known: readonly K[],
): { values: OptionValues<K>; problems: FieldErrors } {
  const values = {} as OptionValues<K>;
  for (const name of known) values[name] = undefined;
  const problems: FieldErrors = {};
  for (const [name, value] of Object.entries(given)) {
    if (known.includes(name as K)) values[name as K] = value;
    else addFieldMessages(problems, optionField(name), [unknownOptionMessage(name, known)]);
  }
  return { values, problems };
}

/**
 * `Unknown option "maxRetry": did you mean "maxRetries"?`, or the known names
 * when none is close. Names only: an option's value may be a secret.
 */
export function unknownOptionMessage(name: string, known: readonly string[]): string {
  return `Unknown option ${describeValue(name)}${nearestHint(name, known, 'options')}`;
}

/**
 * `Unknown field: did you mean "pagesize"?` for a request field, as options
 * get: the fields map already names the field, so the message does not.
 */
export function unknownFieldMessage(name: string, known: readonly string[]): string {
  return `Unknown field${nearestHint(name, known, 'fields')}`;
}

/** `: did you mean "x"?`, or the known names when none is close. */
function nearestHint(name: string, known: readonly string[], kind: string): string {
  const closest = closestNames(name, known);
  return closest.length > 0 ? `: did you mean "${closest.join('" or "')}"?` : `; known ${kind}: ${known.join(', ')}`;
}

/**
 * The key an unknown name gets in `RequestValidationError.fields`: the name
 * itself, or, for a long one or one holding control characters, its JSON
 * escaped and shortened form, so the error's message stays one short line.
 */
function optionField(name: string): string {
  return describeValue(name).slice(1, -1);
}

/**
 * Case, `_` and `-` are how names are mistyped most often across languages:
 * `idempotency_key`, `baseUrl`, and `page_size` for `pagesize` (the service's
 * list answer spells it with the `_` its request does not).
 */
const normalised = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

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
  // No known name is near 40 characters: a longer one is no typo, and needs no table.
  for (const option of typed.length < 40 ? known : []) {
    const distance = editDistance(typed, normalised(option));
    if (distance > Math.max(1, option.length / 3) || distance > best) continue;
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
