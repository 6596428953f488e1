/**
 * Waiting in tests under real timers: a fixed pause, and polling until a
 * condition holds.
 */

/** Resolves after `ms` (lets pending network work, msw handlers and body reads run). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` every 10 ms until it returns true; fails after `ms`. */
export async function eventually(check: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}
