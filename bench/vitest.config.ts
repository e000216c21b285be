import { defineConfig } from 'vitest/config';

/**
 * The benchmark's own unit tests (corpus, query set, statistics, profile summary, report), kept apart from the
 * service's suite: they build nothing and start no server. `npx vitest run --config bench/vitest.config.ts`
 */
export default defineConfig({
  test: {
    include: ['bench/test/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
