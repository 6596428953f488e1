/**
 * The sandbox's options checked by name, as the SDK checks its own, with the
 * same suggestions (src/shared/closest-names.ts, which both import): a misspelt
 * option (`webhookURL`, `api_key`) would otherwise be ignored and its default
 * used. Only own enumerable string keys are checked and read, so a
 * `null`-prototype object works and inherited properties are ignored.
 */
import { closestNames } from '../shared/closest-names.js';
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
