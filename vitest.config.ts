import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The long-running suites: `npm run test:slow` (vitest.slow.config.ts) runs them, not `npm test`. */
export const SLOW_TESTS = 'test/**/*.slow.test.ts';

export default defineConfig({
  resolve: {
    // Tests and examples import the package by name, as merchants do; here the
    // name resolves to the source so no build is needed first.
    alias: [
      { find: /^lunas-sdk\/testing$/, replacement: source('./src/testing/index.ts') },
      { find: /^lunas-sdk\/mcp$/, replacement: source('./src/mcp/index.ts') },
      { find: /^lunas-sdk\/otel$/, replacement: source('./src/otel/index.ts') },
      { find: /^lunas-sdk\/undici$/, replacement: source('./src/undici/index.ts') },
      { find: /^lunas-sdk$/, replacement: source('./src/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // test/settlement needs redis-server and the whole machine: `npm run test:settlement` (test/settlement/vitest.config.ts).
    exclude: [...configDefaults.exclude, SLOW_TESTS, 'test/settlement/**'],
    setupFiles: ['test/helpers/setup.ts'],
    globalSetup: ['test/helpers/build-commands.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // vitest's default in a run is one worker fewer than the cores: a single one on
    // two, where most files wait on sockets, child processes or a browser rather than
    // compute, so a second worker overlaps those waits (docs/decisions/0040-slow-suites.md).
    maxWorkers: '100%',
  },
});
