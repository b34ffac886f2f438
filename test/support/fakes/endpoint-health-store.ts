/** The in-memory endpoint health store lives with the adapters (the simulation runs on it too). */
export { InMemoryEndpointHealthStore as FakeEndpointHealthStore } from '#adapters/memory/endpoint-health-store';
