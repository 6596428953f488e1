/**
 * `toArray({ limit })` for every walk over a list: the limit checked by name
 * and value before anything is sent, then items collected until it is reached,
 * with no page requested (not even ahead) once the pages in hand can fill it.
 */
import { describeGiven } from './describe-value.js';
import { RequestValidationError } from './errors.js';
import { readOptions } from './options.js';
import { maskRefusal, type Secret } from './secrets.js';

/** The most items `toArray` collects: more belongs in a `for await` loop. */
const MAX_TO_ARRAY = 10_000;

/** The page fields the look-ahead rule reads. */
interface CollectedPage {
  readonly data: readonly unknown[];
}

/**
 * Checks `options` (a refusal masks `secret`), then collects at most `limit` items of the walk `open`
 * starts. `open` is called only once the options are known to be good, with
 * the rule telling the walk whether to fetch the next page ahead.
 */
export async function collect<T>(
  options: unknown,
  open: (lookAhead: (page: CollectedPage) => boolean) => AsyncIterable<T>,
  secret: Secret,
): Promise<T[]> {
  const { values, problems } = readOptions(typeof options === 'object' && options !== null ? options : {}, ['limit']);
  const { limit } = values;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_TO_ARRAY) {
    problems.limit = [
      `Limit must be an integer from 1 to ${MAX_TO_ARRAY} (${describeGiven(limit)}); use for await for longer walks`,
    ];
  }
  // A name is quoted to point at a typo: masked, should the key have been put there.
  if (Object.keys(problems).length > 0) throw maskRefusal(new RequestValidationError(problems), secret);
  const items: T[] = [];
  // Look ahead only when this page cannot fill what is still missing.
  const lookAhead = (page: CollectedPage) => items.length + page.data.length < (limit as number);
  for await (const item of open(lookAhead)) {
    items.push(item);
    if (items.length === limit) break;
  }
  return items;
}
