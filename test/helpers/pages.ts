/**
 * Helpers for list endpoints in unit tests: a msw handler that builds each
 * page lazily from `page`/`pagesize` (the service's rules), recording every
 * request it sees.
 */
import { http, HttpResponse } from 'msw';
import { BASE_URL, listPage } from './fixtures.js';
import { server } from './msw.js';
import { seeRequest, type SeenRequest } from './seen-request.js';

/** One request a list handler saw, with the page and page size it served (after the service's rules). */
export interface SeenListRequest extends SeenRequest {
  page: number;
  pagesize: number;
}

/** How {@link serveList} builds each page. */
export interface ListHandlerOptions {
  /** Items newest first; a function is called on every request (the list may change). */
  items: unknown[] | (() => unknown[]);
  /** Called with the request before the page is built; may wait. */
  before?: (seen: SeenListRequest) => void | Promise<void>;
  /** Called after the page is built, before it is sent. */
  after?: (seen: SeenListRequest) => void;
  /** Rewrites the envelope before it is sent (e.g. to echo another page number). */
  envelope?: (body: Record<string, unknown>, seen: SeenListRequest) => Record<string, unknown>;
}

/**
 * Serves `GET {BASE_URL}{path}` with the list envelope, applying the service's
 * rules: page defaults to 1 (0 or negative gives 1), pagesize defaults to 10
 * and is capped at 100. Returns the requests seen, in order.
 */
export function serveList(path: string, options: ListHandlerOptions): SeenListRequest[] {
  const seen: SeenListRequest[] = [];
  server.use(
    http.get(`${BASE_URL}${path}`, async ({ request }) => {
      const url = new URL(request.url);
      const rawPage = Number(url.searchParams.get('page') ?? '1');
      const rawSize = Number(url.searchParams.get('pagesize') ?? '10');
      const page = Number.isInteger(rawPage) && rawPage >= 1 ? rawPage : 1;
      const pagesize = Number.isInteger(rawSize) && rawSize >= 1 ? Math.min(rawSize, 100) : 10;
      const entry: SeenListRequest = { ...(await seeRequest(request)), page, pagesize };
      seen.push(entry);
      await options.before?.(entry);
      const all = typeof options.items === 'function' ? options.items() : options.items;
      let body = listPage(all.slice((page - 1) * pagesize, page * pagesize), page, pagesize, all.length);
      if (options.envelope) body = options.envelope(body, entry);
      options.after?.(entry);
      return HttpResponse.json(body);
    }),
  );
  return seen;
}

/** `n` simple items with ids `${prefix}${i}`, newest first. */
export function makeItems(n: number, prefix = 'it_'): { id: string; n: number }[] {
  return Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, n: i }));
}

/** Collects everything an async iterable yields. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}
