import { defineConfig } from 'vitest/config';

/**
 * Test files that need DynamoDB Local and fauxqs (directly, through the local runtime, or with a browser
 * on top): a folder (trailing `/`) or one file. Only their project runs the global setup that starts the
 * emulators, so `npm run test:unit` starts none.
 */
export const NEEDS_EMULATORS: readonly string[] = [
  'test/integration/',
  'test/e2e/',
  'test/local/emulators.test.ts',
  'test/local/loopback-listeners.test.ts',
  'test/local/queue-link.test.ts',
  'test/local/runtime-persistence.test.ts',
  'test/local/runtime.test.ts',
  'test/local/stream-link.test.ts',
];

/** Test files that synthesize the CDK app: no emulator, but seconds of synthesis each. */
export const NEEDS_SYNTH: readonly string[] = ['test/infra/'];

/**
 * The benchmark's simulation (`scripts/bench/simulate/`): nothing running, but each scenario runs
 * Herald's code on thousands of modelled messages, seconds of CPU apiece.
 */
export const SIMULATIONS: readonly string[] = ['test/bench/'];

const globs = (entries: readonly string[]): string[] =>
  entries.map((entry) => (entry.endsWith('/') ? `${entry}**/*.test.ts` : entry));

/**
 * Four projects, which `npm test` runs together: `unit` (every other test file: domain, http,
 * use-cases with in-memory fakes, adapters, the local runtime's parts, structure, portal; it needs
 * nothing running and is what `npm run test:unit` runs), `simulation`, `infra` and `emulators`. One
 * emulator pair serves the whole `emulators` project; its test files isolate themselves with their own
 * table and queue prefixes, so they may run in parallel.
 */
export default defineConfig({
  test: {
    // Generous: on two cores a JVM cold start and several test files compete for the CPU.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    pool: 'forks',
    fileParallelism: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: globs([...NEEDS_EMULATORS, ...NEEDS_SYNTH, ...SIMULATIONS]),
          setupFiles: ['test/support/unit-setup.ts'],
        },
      },
      { extends: true, test: { name: 'simulation', include: globs(SIMULATIONS) } },
      { extends: true, test: { name: 'infra', include: globs(NEEDS_SYNTH) } },
      {
        extends: true,
        test: {
          name: 'emulators',
          include: globs(NEEDS_EMULATORS),
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});
