/**
 * `toArray({ limit })`, which every walk over a list shares ({@link collect}):
 * the page walk's (PagePromise) and the walk back to a time (SinceWalk).
 */
import { describeGiven } from '../report/describe-value.js';
import { RequestValidationError } from '../report/errors.js';
import type { ListSpec } from './list-spec.js';
import { readOptions } from '../checks/options.js';
import type { LookAhead, WalkedPage } from './walk-rules.js';

/** The most items `toArray` collects: more belongs in a `for await` loop. */
const MAX_TO_ARRAY = 10_000;

/**
 * `toArray({ limit })` for every walk over a list: `options` checked by name
 * and value before anything is sent (a refusal masked by `list`, since it
 * quotes what was given), then at most `limit` items of the walk `open`
 * starts. `open` is called only once the options are known to be good, with
 * the rule telling the walk whether to fetch the next page ahead: only when
 * the pages in hand cannot fill the limit.
 */
export async function collect<T>(
  options: unknown,
  open: (lookAhead: LookAhead) => AsyncIterable<T>,
  list: ListSpec<unknown>,
): Promise<T[]> {
  const { values, problems } = readOptions(typeof options === 'object' && options !== null ? options : {}, ['limit']);
  const { limit } = values;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_TO_ARRAY) {
    problems.limit = [
      `Limit must be an integer from 1 to ${MAX_TO_ARRAY} (${describeGiven(limit)}); use for await for longer walks`,
    ];
  }
  if (Object.keys(problems).length > 0) throw list.refused(new RequestValidationError(problems));
  const items: T[] = [];
  // Look ahead only when this page cannot fill what is still missing.
  const lookAhead = (page: WalkedPage) => items.length + page.data.length < (limit as number);
  for await (const item of open(lookAhead)) {
    items.push(item);
    if (items.length === limit) break;
  }
  return items;
}
