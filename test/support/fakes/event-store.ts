/** The in-memory event store lives with the adapters (the simulation runs on it too). */
export { InMemoryEventStore } from '#adapters/memory/event-store';
