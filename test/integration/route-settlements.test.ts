/** The aggregate over routed endpoints against DynamoDB Local keeps the contract the in-memory store keeps. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, vi } from 'vitest';
import type { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { type EventStoreFixture, newEvent, startEventStoreFixture } from '../support/event-store-fixture';
import { routeSettlementsContract } from '../support/route-settlements-contract';
import { useFixture } from '../support/use-fixture';

let store: DynamoEventStore;
let stored: EventStoreFixture['stored'];
let documents: EventStoreFixture['documents'];

useFixture(
  () => startEventStoreFixture('route-settlements'),
  (fixture) => {
    ({ store, stored, documents } = fixture);
  },
);

describe("an event's aggregate over its routed endpoints in DynamoDB", () => {
  routeSettlementsContract(
    () => ({
      ledger: store,
      event: () => stored(newEvent()),
      // The event item's own attempts stay empty: each endpoint's are on its delivery item, so the
      // fixture's check of retries against the item's attempts does not apply.
      read: async (ref) => {
        const event = await store.readEvent(ref, { consistent: true });
        if (!event) throw new Error(`no event ${ref.id}`);
        return event;
      },
    }),
    crashBetweenWrites,
  );
});

/** The settling write after the count (conditioned on the event pending) throws once, as a crash would. */
function crashBetweenWrites(): void {
  const send = documents.send.bind(documents);
  const spy = vi.spyOn(documents, 'send').mockImplementation(((command: unknown) => {
    if (
      command instanceof UpdateCommand &&
      command.input.UpdateExpression?.startsWith('SET webhook_status = :final')
    ) {
      spy.mockRestore();
      return Promise.reject(new Error('crash between the writes'));
    }
    return send(command as never);
  }) as never);
}
