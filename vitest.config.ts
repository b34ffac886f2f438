import { defineConfig } from 'vitest/config';

/**
 * One emulator pair (DynamoDB Local, fauxqs) serves the whole run; test files isolate themselves with
 * their own table and queue prefixes, so they may run in parallel.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Generous: on two cores a JVM cold start and several test files compete for the CPU.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    pool: 'forks',
    fileParallelism: true,
  },
});
