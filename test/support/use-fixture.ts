import { afterAll, beforeAll } from 'vitest';

/**
 * Starts a test file's fixture before its tests and stops it after them (also when setup failed
 * halfway through a later hook). `ready` hands the started fixture to the file's variables.
 */
export function useFixture<F extends { stop(): Promise<void> }>(
  start: () => Promise<F>,
  ready: (fixture: F) => void,
): void {
  let fixture: F | undefined;
  beforeAll(async () => {
    fixture = await start();
    ready(fixture);
  });
  afterAll(async () => {
    await fixture?.stop();
  });
}
