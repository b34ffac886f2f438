/** The in-memory event type store lives with the adapters (the simulation runs on it too). */
export { InMemoryEventTypeStore } from '#adapters/memory/event-type-store';
