/**
 * The known names nearest to a mistyped one (`maxRetry` for `maxRetries`,
 * `webhookURL` for `webhookUrl`, `--jsn` for `--json`): one rule for the SDK's
 * options and request fields and for the sandbox's options and command line,
 * so both suggest alike. Part of src/shared, which imports nothing.
 */

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
 * Several when tied; none when nothing is close.
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
