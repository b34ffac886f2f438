/** The answer of a test event: what was sent, and what the receiver answered, as an attempt shows it. */
import type { SentTestEvent } from '#delivery/test-event-rule';
import { toDeliveryView } from '#http/events/event-view';
import type { TEST_EVENT } from '#http/openapi/test-events';
import type { Static } from '#http/schema';

/** The answer of `POST /accounts/{iban}/test-events`. */
export type TestEventView = Static<typeof TEST_EVENT>;

/** A test event as answered: its id, type, version and example, and the receiver's answer. */
export function toTestEventView(sent: SentTestEvent): TestEventView {
  return {
    id: sent.id,
    type: sent.type,
    version: sent.version,
    example: sent.example,
    delivery: toDeliveryView(sent.attempt),
  };
}
