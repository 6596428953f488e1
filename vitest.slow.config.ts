// npm run test:slow: what is too long for `npm test`, run by CI right after it
// (docs/decisions/0040-slow-suites.md): the files named
// *.slow.test.ts, and two suites `npm test` runs smaller, again at full size.
import { configDefaults, defineConfig } from 'vitest/config';
import base, { SLOW_TESTS } from './vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // page.test.ts holds the memory walk (the rest of it runs again, in seconds).
    include: [SLOW_TESTS, 'test/chaos/transfers.chaos.test.ts', 'test/unit/core/lists/page.test.ts'],
    exclude: configDefaults.exclude,
    // A size set by hand wins.
    env: {
      LUNAS_CHAOS_OPS: process.env.LUNAS_CHAOS_OPS || '2000',
      LUNAS_MEMORY_WALK_ITEMS: process.env.LUNAS_MEMORY_WALK_ITEMS || '1000000',
    },
  },
});
