// `npm run test:settlement`: examples/settlement against real Redis (Debian's redis-server,
// which the example starts) and the sandbox, apart from `npm test` (the root config leaves
// this folder out), since it needs redis-server and about two minutes of the whole machine.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/settlement/**/*.test.ts'],
    testTimeout: 300_000,
    pool: 'forks',
  },
});
