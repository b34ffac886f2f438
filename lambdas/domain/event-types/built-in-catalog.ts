/**
 * The catalog of the built-in types alone: every version of each compiled once, when the catalog is made
 * (a function's module scope: once per container).
 */
import { BUILT_IN_EVENT_TYPES } from './catalog';
import type { CatalogLookup, EventTypeCatalog } from './catalog-port';
import type { EventTypeDefinition } from './model';
import { compileEventType } from './payload-validation';

/** A catalog of `definitions` (the built-in types unless a test passes others), compiled now. */
export function builtInCatalog(
  definitions: readonly EventTypeDefinition[] = BUILT_IN_EVENT_TYPES,
): EventTypeCatalog {
  const compiled = new Map(definitions.map((definition) => [definition.type, compileEventType(definition)]));
  const unknown: CatalogLookup = { known: false, types: [...compiled.keys()].sort() };
  return {
    resolve: async (type) => {
      const found = compiled.get(type);
      return found === undefined ? unknown : { known: true, type: found };
    },
  };
}
