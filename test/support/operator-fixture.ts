/**
 * The shared setup of the end-to-end files that call the operator's (AWS IAM) routes: one events-API
 * fixture per file, its API client, the local operator's key, and `admin` for a signed call.
 */
import type { AwsKey } from '#cli/target';
import type { ApiClient, ApiResponse } from './e2e-http';
import { type EventsApiFixture, startEventsApiFixture } from './events-api-fixture';
import { useFixture } from './use-fixture';

/** What an operator test reads; filled in before the file's first test. */
export interface OperatorFixture {
  readonly fixture: EventsApiFixture;
  readonly api: ApiClient;
  /** The local operator's credentials, which the emulated API Gateway accepts on IAM routes. */
  readonly operator: AwsKey;
  /** A SigV4-signed call as the operator. */
  admin(method: string, path: string, body?: unknown): Promise<ApiResponse>;
}

/** Starts the file's fixture (no bulk events) before its tests and stops it after them. */
export function useOperatorFixture(): OperatorFixture {
  let started: EventsApiFixture | undefined;
  useFixture(
    () => startEventsApiFixture({ bulk: false }),
    (fixture) => {
      started = fixture;
    },
  );
  const ready = (): EventsApiFixture => {
    if (!started) throw new Error('useOperatorFixture: read before the fixture started');
    return started;
  };
  const context: OperatorFixture = {
    get fixture() {
      return ready();
    },
    get api() {
      return ready().api;
    },
    get operator() {
      return ready().runtime.credentials;
    },
    admin: (method, path, body) =>
      context.api.call(path, { method, sign: context.operator, ...(body === undefined ? {} : { body }) }),
  };
  return context;
}
