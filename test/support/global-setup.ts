/**
 * Global setup of the `emulators` project (`vitest.config.ts`; the others have none): starts DynamoDB
 * Local (in-memory) and fauxqs once per run, or reuses emulators named by
 * `HERALD_TEST_DYNAMODB_ENDPOINT` / `HERALD_TEST_SQS_ENDPOINT`, and hands their endpoints to the
 * project's test files through `provide`/`inject`.
 */
import type { TestProject } from 'vitest/node';
import {
  type EmulatorHandle,
  type LocalEndpoints,
  startDynamoDbLocal,
  startFauxqs,
} from '../../scripts/local/emulators';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Endpoints of the emulators every test file shares. */
    heraldEndpoints: LocalEndpoints;
  }
}

/** Starts what is not given and returns the teardown, which vitest runs even when tests fail. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const givenDynamodb = process.env.HERALD_TEST_DYNAMODB_ENDPOINT;
  const givenSqs = process.env.HERALD_TEST_SQS_ENDPOINT;
  // allSettled, not all: when one emulator fails, the other must have finished starting to be stopped.
  const [dynamodb, sqs] = await Promise.allSettled([
    // Detached, so a Ctrl+C reaches vitest only and the teardown stops the emulators after the tests.
    givenDynamodb ? Promise.resolve(undefined) : startDynamoDbLocal(),
    givenSqs ? Promise.resolve(undefined) : startFauxqs(),
  ]);
  const started = [dynamodb, sqs].flatMap((result) =>
    result.status === 'fulfilled' && result.value ? [result.value] : [],
  );
  const teardown = async (): Promise<void> => {
    await Promise.all(started.map((handle) => handle.stop()));
  };
  if (dynamodb.status === 'rejected' || sqs.status === 'rejected') {
    await teardown();
    throw [dynamodb, sqs].find((result): result is PromiseRejectedResult => result.status === 'rejected')
      ?.reason;
  }
  project.provide('heraldEndpoints', {
    dynamodb: givenDynamodb ?? endpointOf(dynamodb.value),
    sqs: givenSqs ?? endpointOf(sqs.value),
  });
  return teardown;
}

function endpointOf(handle: EmulatorHandle | undefined): string {
  if (!handle) throw new Error('An emulator that was not given did not start');
  return handle.endpoint;
}
