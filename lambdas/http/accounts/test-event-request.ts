/**
 * The request of a test event (`POST /accounts/{iban}/test-events` and the operator's twin): which type,
 * and optionally which version and example, to send.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { MAX_EVENT_TYPE_VERSIONS } from '#config/limits';
import type { TestExampleChoice } from '#delivery/test-event-rule';
import { readBody } from '#http/read-request';
import { body, closed, described, EVENT_TYPE, int, optional, text } from '#http/schema';

/** The body of a test event. */
export const TEST_EVENT_BODY = body(
  closed({
    type: described(EVENT_TYPE, 'The event type whose example is sent.'),
    version: optional(
      int('The version of the type whose example is sent; absent: the latest.', 1, {
        maximum: MAX_EVENT_TYPE_VERSIONS,
      }),
    ),
    example: optional(
      text("The name of one of the version's examples (e.g. `rejected_closed_account`); absent: its first.", {
        minLength: 1,
        maxLength: 64,
      }),
    ),
  }),
);

/**
 * The body of a test event by {@link TEST_EVENT_BODY}: `type`, and optionally `version` and `example`.
 *
 * @throws ValidationError naming the field
 */
export function parseTestEventRequest(event: APIGatewayProxyEvent): TestExampleChoice {
  return readBody(event, TEST_EVENT_BODY);
}
