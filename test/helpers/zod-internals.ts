/**
 * The zod internals looseObject (src/core/schemas.ts) calls, checked by name. They
 * are not public API, so a zod upgrade may remove one; its tests then fail
 * saying which, before anything reaches zod's own code, where the same
 * upgrade would only show as a TypeError on `undefined`.
 */
import * as z from 'zod/mini';
import * as core from 'zod/v4/core';

/** Each internal by the name the failure gives, read from the modules as they load now. */
const INTERNALS: Record<string, () => unknown> = {
  '$constructor (zod/v4/core)': () => core.$constructor,
  '$ZodObjectJIT.init (zod/v4/core)': () => (core.$ZodObjectJIT as { init?: unknown } | undefined)?.init,
  'ZodMiniType.init (zod/mini)': () => (z.ZodMiniType as { init?: unknown } | undefined)?.init,
};

/** The internals that are not functions any more (empty while zod has them all). */
export function missingZodInternals(): string[] {
  return Object.keys(INTERNALS).filter((name) => typeof INTERNALS[name]!() !== 'function');
}

/** Throws naming every internal that is gone, and where to look; returns while zod has them all. */
export function assertZodInternals(): void {
  const missing = missingZodInternals();
  if (missing.length === 0) return;
  throw new Error(
    `zod's internals changed: ${missing.join(', ')} is not a function any more. ` +
      'looseObject (src/core/schemas.ts) is built on them: rewrite it for this zod ' +
      'or go back to the pinned version; see CONTRIBUTING.md, "zod/mini" under Decisions.',
  );
}
