/** The in-memory directory lives with the adapters (the simulation runs on it too). */
export { InMemoryDirectoryStore } from '#adapters/memory/directory-store';
