// npm run test:slow: what is too long for `npm test`, run by CI right after it
// (docs/decisions/0034-slow-suites.md): the files named
// *.slow.test.ts, and two suites `npm test` runs smaller, again at full size.
import { configDefaults, defineConfig } from 'vitest/config';
import base, { SLOW_TESTS } from './vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // The memory suite by name, wherever under test/unit it lives.
    include: [SLOW_TESTS, 'test/chaos/transfers.chaos.test.ts', 'test/unit/**/memory.test.ts'],
    exclude: configDefaults.exclude,
    // A size set by hand wins.
    env: {
      LUNAS_CHAOS_OPS: process.env.LUNAS_CHAOS_OPS || '2000',
      LUNAS_MEMORY_WALK_ITEMS: process.env.LUNAS_MEMORY_WALK_ITEMS || '1000000',
    },
  },
});
