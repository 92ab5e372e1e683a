import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/rules/**/*.test.ts',
      'test/api/**/*.test.ts',
      'test/e2e/**/*.test.ts',
      'test/heldout/**/*.test.ts',
      'test/heldout-blind/**/*.test.ts',
      'test/faults/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
