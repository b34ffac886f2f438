/** The aggregate over routed endpoints against DynamoDB Local keeps the contract the in-memory store keeps. */
import { describe } from 'vitest';
import type { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { type EventStoreFixture, newEvent, startEventStoreFixture } from '../support/event-store-fixture';
import { routeSettlementsContract } from '../support/route-settlements-contract';
import { useFixture } from '../support/use-fixture';

let store: DynamoEventStore;
let stored: EventStoreFixture['stored'];

useFixture(
  () => startEventStoreFixture('route-settlements'),
  (fixture) => {
    ({ store, stored } = fixture);
  },
);

describe("an event's aggregate over its routed endpoints in DynamoDB", () => {
  routeSettlementsContract(() => ({
    ledger: store,
    event: () => stored(newEvent()),
    // The event item's own attempts stay empty: each endpoint's are on its delivery item, so the
    // fixture's check of retries against the item's attempts does not apply.
    read: async (ref) => {
      const event = await store.readEvent(ref, { consistent: true });
      if (!event) throw new Error(`no event ${ref.id}`);
      return event;
    },
  }));
});
