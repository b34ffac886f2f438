/**
 * The event type catalog as its users see it: the built-in types and the operators' as one. Publishing
 * resolves a type's version to check a payload, a test event takes a type's example, the catalog's routes
 * show it. `use-cases/event-types/catalog.ts` implements it over the operators' store (`store-port.ts`).
 */
import type { CatalogEntry } from './model';
import type { PayloadCheck } from './payload-validation';

/** What {@link EventTypeCatalog.resolve} found. */
export type Resolution =
  | {
      readonly kind: 'found';
      readonly type: string;
      /** The version a payload is checked against: the one named, or the latest. */
      readonly version: number;
      readonly latest: number;
      /** The type or this version is deprecated: publishing it still works. */
      readonly deprecated: boolean;
      /** Checks a payload (parsed JSON) against this version's schema. */
      check(payload: unknown): PayloadCheck;
    }
  | {
      readonly kind: 'unknown-type';
      readonly type: string;
      /** Every type of the catalog, sorted: the built-in ones and at most `MAX_OPERATOR_EVENT_TYPES` more. */
      readonly known: readonly string[];
    }
  | {
      /** A notice's type: Herald's own, refused to a publish. */
      readonly kind: 'reserved';
      readonly type: string;
    }
  | {
      readonly kind: 'unknown-version';
      readonly type: string;
      readonly version: number;
      readonly latest: number;
    };

/** The catalog of one container. */
export interface EventTypeCatalog {
  /**
   * The type's version `version` (the latest when absent) ready to check payloads, or why there is
   * none. Reads the store only for an operator's type whose head or version this container does not
   * hold: nothing for a built-in type, nothing within the head's time to live.
   */
  resolve(type: string, version?: number): Promise<Resolution>;
  /** One type with all its versions; undefined when the catalog has no such type. */
  get(type: string): Promise<CatalogEntry | undefined>;
  /** Every type's name a publish may use, sorted: what a refusal of an unknown type names. */
  names(): Promise<readonly string[]>;
  /**
   * Every type named after `after` (all when absent), by name, each read when the caller takes it; the
   * notices' types among them.
   */
  list(after?: string): AsyncIterable<CatalogEntry>;
}
