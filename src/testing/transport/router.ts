/**
 * Routing by pattern: a table of `'METHOD /path/:param'` patterns to handlers.
 * `URLPattern` would match these, but Node 20, in the runtime matrix, lacks
 * it; exact segments and `:param` segments are all the service needs.
 */

/** The `:param` segments of a matched path, as sent (not percent-decoded). */
export type PathParams = Readonly<Record<string, string | undefined>>;

/** A path segment percent-decoded exactly once, or `undefined` when it is malformed (`%zz`). */
export function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A route's key: a method, one space, and a path whose `:name` segments match any non-empty segment. */
type RoutePattern = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /${string}`;

/** What a request's method and path resolve to. */
type RouteMatch<H> =
  { kind: 'found'; handler: H; params: PathParams } | { kind: 'wrong-method'; allow: string[] } | { kind: 'not-found' };

interface Route<H> {
  method: string;
  segments: readonly string[];
  handler: H;
}

/** A route table, matched in the order written. */
export class Router<H> {
  readonly #routes: readonly Route<H>[];

  constructor(table: Readonly<Partial<Record<RoutePattern, H>>>) {
    this.#routes = Object.entries(table).map(([pattern, handler]) => {
      const [method = '', path = ''] = pattern.split(' ');
      return { method, segments: path.split('/'), handler: handler as H };
    });
  }

  /**
   * The handler for `method` and the raw `path`; else the methods the path
   * allows (for a 405 and its `Allow` header), or none (a 404). Paths match
   * exactly: a trailing slash is another, unknown path.
   */
  match(method: string, path: string): RouteMatch<H> {
    const segments = path.split('/');
    const allow: string[] = [];
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', handler: route.handler, params };
      allow.push(route.method);
    }
    return allow.length > 0 ? { kind: 'wrong-method', allow } : { kind: 'not-found' };
  }
}

function matchSegments(pattern: readonly string[], segments: readonly string[]): PathParams | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index] ?? '';
    if (!part.startsWith(':')) {
      if (part !== segment) return undefined;
    } else if (segment === '') {
      return undefined;
    } else {
      params[part.slice(1)] = segment;
    }
  }
  return params;
}
