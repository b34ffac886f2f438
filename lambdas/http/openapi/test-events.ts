/**
 * Test events in the OpenAPI document: sending a type's example to an account's webhook URL now
 * (`manage` keys, and the operator's `adminSendTestEvent`), and what the answer says.
 */

import { MAX_EVENT_TYPE_VERSIONS } from '#config/catalog-limits';
import { TEST_EVENT_WINDOW_SECONDS, TEST_EVENTS_PER_WINDOW } from '#config/limits';
import { TEST_EVENT_HEADER } from '#delivery/test-event-rule';
import { TEST_EVENT_BODY } from '#http/accounts/test-event-request';
import { closed, described, EVENT_ID, EVENT_TYPE, int, ref, text } from '#http/schema';
import { NO_ACCOUNT } from './accounts';
import { DELIVERY } from './attempts';
import { badRequest, ok, parameterRef, responseRef } from './objects';
import { operation, type RouteDoc, type SharedOperation } from './operation';

/** The answer of a test event. */
export const TEST_EVENT = closed(
  {
    id: described(EVENT_ID, 'The `webhook-id` and body `id` of the test: new for every test, never stored.'),
    type: EVENT_TYPE,
    version: int('The version of the type whose example was sent.', 1, { maximum: MAX_EVENT_TYPE_VERSIONS }),
    example: text('The name of the example sent.'),
    delivery: described(
      ref('Delivery', DELIVERY),
      'What the receiver answered, as an attempt shows it; `response_status` 0 and `response_body` say why ' +
        'when no answer came (the URL policy refused the URL, a timeout, a TLS failure, material that did ' +
        'not open). Not recorded anywhere.',
    ),
  },
  'A test event sent: what it was, and what the receiver answered.',
);

/** The schemas of test events, merged into `components.schemas`. */
export const TEST_EVENT_SCHEMAS = { TestEvent: TEST_EVENT };

/** Sending a test event, for an organization key and (the `adminSendTestEvent` route) operators. */
export const SEND_TEST_EVENT: SharedOperation = {
  summary: "Send a test event to the account's webhook URL now",
  description:
    "Sends an example of the catalog's `type` (the latest version's first example unless `version` or " +
    "`example` says otherwise) to the account's `webhook_url` at once, exactly as a webhook goes: the same " +
    "body fields, signed with the organization's current tokens and keys (`webhook-signature` `v1` and " +
    "`v1a`, `X-Signature`), encrypted to the endpoint's payload key, over its client certificate and " +
    'receiver CA, the URL policy checked as at delivery. It is marked as a test twice: the header ' +
    `\`${TEST_EVENT_HEADER}: true\` and, signed, the body's \`"test": true\`; its \`sequence\` is null. ` +
    'Nothing is stored: it is no event (its `_links.self` answers 404), takes no sequence, records no ' +
    "attempt and leaves the endpoint's health as it is, so it also goes to a `disabled` or `degraded` " +
    "endpoint (to check a fix before enabling it). The answer is the receiver's: its status (0 with the " +
    `reason when none came), body (cut to 4 KiB) and time. At most ${TEST_EVENTS_PER_WINDOW} per account ` +
    `and UTC minute (${TEST_EVENT_WINDOW_SECONDS} s): more answer 429 \`rate-limited\` with \`Retry-After\`.`,
  parameters: [parameterRef('Iban')],
  requestBody: TEST_EVENT_BODY,
  responses: {
    '200': ok('Sent (or refused before sending); the receiver answered this.', ref('TestEvent', TEST_EVENT)),
    '400': badRequest('The IBAN or the body is malformed.'),
    '404': NO_ACCOUNT,
    '409': responseRef('Conflict', 'The account has no `webhook_url`.'),
    '422': responseRef(
      'Unprocessable',
      'The catalog has no such `type`, `version` of it or `example` of that version; the reason lists those it has.',
    ),
    '429': responseRef('RateLimited'),
  },
};

/** The test-event route of an organization key. */
export const TEST_EVENT_ROUTES: readonly RouteDoc[] = [
  operation('POST', '/accounts/{iban}/test-events', {
    ...SEND_TEST_EVENT,
    operationId: 'sendTestEvent',
    tags: ['accounts'],
  }),
];
