/**
 * What the runtime says about itself, asked in one place: whether it is a
 * browser, and its environment variables. Read
 * defensively: every runtime lunas supports answers differently, and some
 * refuse to answer.
 */

/** An environment variable, or `undefined` when unset, empty or unreadable. */
export function readEnv(name: string): string | undefined {
  try {
    // Deno without --allow-env throws here; browsers have no process at all.
    const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
    return value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}

/**
 * A browser page (a window with a document), or a browser's dedicated, shared
 * or service worker. Server runtimes have worker scopes too (Cloudflare Workers,
 * Deno's workers) but name themselves in `navigator.userAgent`
 * (`Cloudflare-Workers`, `Deno/…`, `Bun/…`, `Node.js/…`), while every browser's
 * starts with `Mozilla/`.
 */
export function isBrowserLike(): boolean {
  const scope = globalThis as {
    window?: unknown;
    document?: unknown;
    navigator?: { userAgent?: unknown };
    importScripts?: unknown;
    WorkerGlobalScope?: unknown;
  };
  if (typeof scope.window === 'object' && typeof scope.document === 'object' && typeof scope.navigator === 'object') {
    return true;
  }
  const inWorker = typeof scope.importScripts === 'function' || typeof scope.WorkerGlobalScope === 'function';
  const userAgent = scope.navigator?.userAgent;
  return inWorker && typeof userAgent === 'string' && userAgent.startsWith('Mozilla/');
}
