/**
 * The event type catalog as the publish function builds it (`createEventTypeCatalog` with the head's
 * time to live), over an in-memory store of operators' types that a test fills directly.
 */
import type { EventTypeCatalog } from '#domain/event-types/catalog-port';
import type { EventTypeDefinition } from '#domain/event-types/model';
import { CATALOG_HEAD_TTL_MS, createEventTypeCatalog } from '#use-cases/event-types/catalog';
import { InMemoryEventTypeStore } from './fakes/event-type-store';

/** A publish path's catalog with `operatorTypes` registered, all their versions stored. */
export function publishCatalog(
  operatorTypes: readonly EventTypeDefinition[] = [],
  now: () => number = Date.now,
): { readonly catalog: EventTypeCatalog; readonly store: InMemoryEventTypeStore } {
  const store = new InMemoryEventTypeStore();
  for (const definition of operatorTypes) storeType(store, definition);
  return { catalog: createEventTypeCatalog({ store, now, headTtlMs: CATALOG_HEAD_TTL_MS }), store };
}

/** Stores `definition` as an operator's type (its head and every version), replacing what was there. */
export function storeType(store: InMemoryEventTypeStore, definition: EventTypeDefinition): void {
  const { type, description, deprecated, versions } = definition;
  store.heads.set(type, { type, description, deprecated, latest: versions.length });
  for (const version of versions) store.versions.set(`${type}#${version.version}`, structuredClone(version));
}
