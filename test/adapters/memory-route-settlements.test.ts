/** The in-memory aggregate over routed endpoints keeps the adapter's contract (see the contract's notes). */
import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { InMemoryEventStore } from '#adapters/memory/event-store';
import { routeSettlementsContract } from '../support/route-settlements-contract';

describe("an event's aggregate over its routed endpoints, in memory", () => {
  const store = new InMemoryEventStore();
  routeSettlementsContract(() => ({
    ledger: store,
    event: async () => store.seed({ id: randomUUID() }),
    read: async (ref) => {
      const event = await store.readEvent(ref);
      if (!event) throw new Error(`no event ${ref.id}`);
      return event;
    },
  }));
});
