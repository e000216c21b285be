import { defineConfig } from 'vitest/config';

/** Unit tests sit beside the code; test/ (and bench/test/) hold the tests that build the sample and start hosts. */
const UNIT_TESTS = ['src/**/*.test.ts', 'contract/**/*.test.ts', 'functions/**/*.test.ts', 'hosts/**/*.test.ts'];

export default defineConfig({
  test: {
    // UNIT=1: the unit tests alone, without building (test/global-setup.ts).
    include: process.env.UNIT === '1' ? UNIT_TESTS : ['test/**/*.test.ts', ...UNIT_TESTS, 'bench/test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
