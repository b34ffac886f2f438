/**
 * The request of a test event (`POST /accounts/{iban}/test-events` and the operator's twin): which type,
 * and optionally which version and example, to send, and to which of the account's endpoints.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { MAX_EVENT_TYPE_VERSIONS } from '#config/catalog-limits';
import type { TestExampleChoice } from '#delivery/test-event-rule';
import { ENDPOINT_ID_PATTERN } from '#domain/ids';
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
    endpoint_id: optional(
      text(
        "The account's endpoint the test goes to (`GET /accounts/{iban}/endpoints`); absent: its default one.",
        {
          pattern: ENDPOINT_ID_PATTERN.source,
        },
      ),
    ),
  }),
);

/** A test event asked for: the example, and the endpoint it goes to (absent: the default one). */
export interface TestEventChoice extends TestExampleChoice {
  readonly endpointId?: string | undefined;
}

/**
 * The body of a test event by {@link TEST_EVENT_BODY}: `type`, and optionally `version`, `example` and
 * `endpoint_id`.
 *
 * @throws ValidationError naming the field
 */
export function parseTestEventRequest(event: APIGatewayProxyEvent): TestEventChoice {
  const { endpoint_id, ...choice } = readBody(event, TEST_EVENT_BODY);
  return endpoint_id === undefined ? choice : { ...choice, endpointId: endpoint_id };
}
