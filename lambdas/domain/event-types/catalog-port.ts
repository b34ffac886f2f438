/**
 * The catalog as publishing sees it: what it knows of a type name. The built-in catalog implements it
 * (`built-in-catalog.ts`); a catalog that also holds operators' types implements the same port, so
 * publishing does not change with where types come from.
 */
import type { CompiledEventType } from './payload-validation';

/** What the catalog knows of a type name: the type with every version compiled, or the names it has. */
export type CatalogLookup =
  | { readonly known: true; readonly type: CompiledEventType }
  | {
      readonly known: false;
      /** Every type name the catalog holds, sorted (the refusal names a bounded few of them). */
      readonly types: readonly string[];
    };

/**
 * The event types publishes are checked against. Validators are compiled once per container, not per
 * publish: an implementation answers from memory (refreshing from its store at most as often as it
 * documents), so resolving adds no read to a healthy publish.
 */
export interface EventTypeCatalog {
  /** The type named `type`, or the names of every type there is. */
  resolve(type: string): Promise<CatalogLookup>;
}
