/**
 * What the runtime says about itself, asked in one place: which runtime this
 * is, whether it is a browser, and its environment variables. Read
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

/**
 * The version of Node.js itself (`'20.18.1'`), or `undefined` on any other
 * runtime: Bun and Deno set `process.release.name` to `node` for
 * compatibility, and so does a Worker in Cloudflare's `workerd` with
 * `nodejs_compat`, but each names itself elsewhere.
 */
export function nodeVersion(): string | undefined {
  try {
    const scope = globalThis as {
      Bun?: unknown;
      Deno?: unknown;
      navigator?: { userAgent?: unknown };
      process?: { release?: { name?: unknown }; versions?: { node?: unknown } };
    };
    if (scope.Bun !== undefined || scope.Deno !== undefined) return undefined;
    if (scope.navigator?.userAgent === 'Cloudflare-Workers') return undefined;
    const { process } = scope;
    if (process?.release?.name !== 'node') return undefined;
    const version = process.versions?.node;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `version` (`'20.18.1'`) is at least `floor` (`[20, 18, 1]`). */
export function versionAtLeast(version: string, floor: readonly [number, number, number]): boolean {
  const parts = version.split('.').map(Number);
  for (let index = 0; index < 3; index++) {
    const part = parts[index] ?? 0;
    if (part !== floor[index]) return part > floor[index]!;
  }
  return true;
}
