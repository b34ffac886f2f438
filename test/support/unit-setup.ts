/**
 * Setup of the `unit` project (`vitest.config.ts`): its test files need nothing running, so it has no
 * global setup, and a file that would start an emulator (itself, or through the local runtime) fails
 * here, naming the list it belongs in, instead of slowing every `npm run test:unit` down.
 */
import { inject, vi } from 'vitest';

if (inject('heraldEndpoints') !== undefined) {
  throw new Error('The unit project was given emulator endpoints: its config must have no global setup');
}

vi.mock(import('../../scripts/local/emulators'), async (importOriginal) => {
  const refuse = (): never => {
    throw new Error(
      'A test of the unit project started an emulator: list its file in NEEDS_EMULATORS (vitest.config.ts)',
    );
  };
  return {
    ...(await importOriginal()),
    startDynamoDbLocal: vi.fn(refuse),
    startFauxqs: vi.fn(refuse),
    startEmulators: vi.fn(refuse),
  };
});
