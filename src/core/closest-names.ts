/**
 * What an unknown name is answered with: the closest known names (a likely
 * typo: `maxRetry` for `maxRetries`), or the known names when none is close.
 * Shared by the options' check (options.ts) and the request parameters'
 * (schemas.ts). Names only: an option's value may be a secret.
 */
import { describeValue } from './describe-value.js';

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
