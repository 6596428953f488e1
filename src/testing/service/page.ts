/** Pagination (spec 4.6): reading `page` / `pagesize` and cutting one page out of a list. */

export interface PageRequest {
  page: number;
  pageSize: number;
}

const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 100;

/** Positive integer from a query value, or `fallback` for anything else (spec 4.6). */
function positiveInt(raw: string | undefined, fallback: number): number {
  if (raw === undefined || !/^[+-]?\d+$/.test(raw)) return fallback;
  const n = Number(raw);
  if (n <= 0) return fallback;
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}

/** Applies every pagination rule of spec 4.6 to the `page` and `pagesize` query values. */
export function pageRequest(query: Record<string, string>): PageRequest {
  return {
    page: positiveInt(query.page, 1),
    pageSize: Math.min(positiveInt(query.pagesize, DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE),
  };
}

export interface Page<T> {
  data: T[];
  total: number;
}

/**
 * One page of `items` (kept oldest first, in creation order) served newest
 * first. Only the page's own items are touched, so a large store costs
 * nothing per request.
 */
export function newestFirstPage<T, R>(items: readonly T[], request: PageRequest, map: (item: T) => R): Page<R> {
  const total = items.length;
  const start = (request.page - 1) * request.pageSize;
  const end = Math.min(start + request.pageSize, total);
  const data: R[] = [];
  for (let i = start; i < end; i++) data.push(map(items[total - 1 - i] as T));
  return { data, total };
}

/**
 * Adds `item` to `items`, kept in ascending creation time as the spec orders
 * lists "by creation date". Appending is the usual case; a clock set back
 * (the `now` option) inserts it where its timestamp belongs, after any equal.
 */
export function insertByCreation<T>(items: T[], item: T, createdAt: (item: T) => number): void {
  const time = createdAt(item);
  let low = 0;
  let high = items.length;
  if (high === 0 || createdAt(items[high - 1] as T) <= time) {
    items.push(item);
    return;
  }
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (createdAt(items[middle] as T) <= time) low = middle + 1;
    else high = middle;
  }
  items.splice(low, 0, item);
}

/** One page of `items` in the order given. */
export function givenOrderPage<T>(items: readonly T[], request: PageRequest): Page<T> {
  const start = (request.page - 1) * request.pageSize;
  return { data: start >= items.length ? [] : items.slice(start, start + request.pageSize), total: items.length };
}
