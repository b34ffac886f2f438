/**
 * A test event (`POST /accounts/{iban}/test-events`): which example of the catalog it sends, how a
 * receiver recognises it, and the window an account's allowance (`config/limits.ts`) is counted in.
 * Pure; `test-event.ts` applies it.
 */
import { TEST_EVENT_WINDOW_SECONDS, TEST_EVENTS_PER_WINDOW } from '#config/limits';
import { UnprocessableError } from '#domain/errors';
import {
  type EventTypeDefinition,
  type EventTypeExample,
  type EventTypeVersion,
  latestVersion,
} from '#domain/event-types/model';
import { unknownTypeVersion } from '#domain/event-types/unknown-names';
import type { DeliveryAttempt } from '#domain/model';

/**
 * The header every test event carries (`Herald-Test: true`), for a receiver to route or log a test
 * before it verifies the signature. Only the body's `"test": true` is signed: a receiver decides on that.
 */
export const TEST_EVENT_HEADER = 'Herald-Test';

/** The rate limit's window around a moment: its start, when its counter may go, its limit. */
export interface TestEventWindow {
  /** Epoch seconds, a multiple of {@link TEST_EVENT_WINDOW_SECONDS}. */
  readonly start: number;
  /** Test events it takes. */
  readonly limit: number;
  /** Epoch seconds after which its counter is of no use (the table's TTL attribute, where enabled). */
  readonly expiresAt: number;
  /** Whole seconds from the moment to the window's end, at least 1: a refusal's `Retry-After`. */
  readonly retryAfterSeconds: number;
}

/** The fixed window `nowMs` falls in. */
export function testEventWindow(nowMs: number): TestEventWindow {
  const seconds = Math.floor(nowMs / 1000);
  const start = seconds - (seconds % TEST_EVENT_WINDOW_SECONDS);
  const end = start + TEST_EVENT_WINDOW_SECONDS;
  return {
    start,
    limit: TEST_EVENTS_PER_WINDOW,
    expiresAt: end + TEST_EVENT_WINDOW_SECONDS,
    retryAfterSeconds: Math.max(1, Math.ceil(end - nowMs / 1000)),
  };
}

/** What a test event sends: a type's version and one of its examples. */
export interface TestExample {
  readonly type: string;
  readonly version: EventTypeVersion;
  readonly example: EventTypeExample;
}

/** What a test event asks for: a type, and optionally its version and an example's name. */
export interface TestExampleChoice {
  readonly type: string;
  /** Absent: the latest version. */
  readonly version?: number | undefined;
  /** Absent: the version's first example. */
  readonly example?: string | undefined;
}

/**
 * The example a test event sends: of `definition` (the type the choice names, found in the catalog), the
 * version asked for (else the latest) and the example named (else its first). Deprecated types and
 * versions may be tested: a receiver may still get them.
 *
 * @throws UnprocessableError naming `version` or `example` when the type has no such one, with what it has
 */
export function chooseTestExample(definition: EventTypeDefinition, choice: TestExampleChoice): TestExample {
  const latest = latestVersion(definition);
  const version =
    choice.version === undefined
      ? latest
      : definition.versions.find((known) => known.version === choice.version);
  if (!version) throw unknownTypeVersion(definition.type, choice.version ?? latest.version, latest.version);
  const example =
    choice.example === undefined
      ? version.examples[0]
      : version.examples.find((known) => known.name === choice.example);
  if (!example) {
    const known = version.examples.map((known) => known.name).join(', ');
    throw new UnprocessableError(
      'example',
      `version ${version.version} of ${choice.type} has no example ${choice.example ?? ''}; it has ${known}`,
    );
  }
  return { type: definition.type, version, example };
}

/** A test event sent, and what its receiver answered. */
export interface SentTestEvent {
  /** Its `webhook-id` and body `id`: new for every test, never stored. */
  readonly id: string;
  /** The account's IBAN, normalised (what the logs may show, masked, never the caller's spelling). */
  readonly account: string;
  readonly type: string;
  readonly version: number;
  /** The name of the example sent. */
  readonly example: string;
  /** As an attempt would be recorded: status (0 and why when nothing was answered), body, time, URL, keys. */
  readonly attempt: DeliveryAttempt;
  /** What kept Herald from making the request, for the logs (the attempt says why, in short). */
  readonly error?: unknown;
}
