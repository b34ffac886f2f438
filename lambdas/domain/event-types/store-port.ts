/**
 * The port of the event types operators register (the built-in ones live in code, `catalog.ts`). A type
 * is its head (description, deprecation, latest version) and its versions, each stored once and never
 * changed, so a reader may keep a version as long as it likes and only the head can go stale.
 * Re-exported by `ports.ts`.
 */
import type { EventTypeVersion } from './model';

/** What is kept of an operator's type beside its versions. */
export interface EventTypeHead {
  readonly type: string;
  readonly description: string;
  readonly deprecated: boolean;
  /** The latest version's number: versions 1 to this exist. */
  readonly latest: number;
}

/** How a new type's creation ended: stored, refused because the type exists, or because the catalog is full. */
export type TypeCreation = 'created' | 'exists' | 'full';

/**
 * A change of a type, applied only while its head is still `expected`, the head the writer read and built
 * the change on: its description, deprecation and latest version. A condition on the latest version alone
 * would let two writers that each keep a field they left out undo each other's change of it.
 */
export interface TypeChange {
  readonly expected: EventTypeHead;
  readonly description: string;
  readonly deprecated: boolean;
  /** A new latest version, numbered `expected.latest + 1`; absent when the versions stay as they are. */
  readonly added?: EventTypeVersion | undefined;
}

/**
 * The operators' event types. The store keeps their number within `MAX_OPERATOR_EVENT_TYPES` atomically:
 * a type's name enters the catalog in the same write as its head and first version.
 */
export interface EventTypeStore {
  /** The names of the operators' types, sorted (at most `MAX_OPERATOR_EVENT_TYPES`). */
  typeNames(): Promise<readonly string[]>;
  /** A type's head; undefined when no operator registered it. */
  head(type: string): Promise<EventTypeHead | undefined>;
  /** One version of a type; undefined when it does not exist. */
  version(type: string, version: number): Promise<EventTypeVersion | undefined>;
  /**
   * Stores a new type (its head, `first` as version 1, its name in the catalog), all or nothing:
   * `exists` when the type is there already, `full` when the catalog holds `MAX_OPERATOR_EVENT_TYPES`
   * types; nothing is written then.
   */
  createType(head: EventTypeHead, first: EventTypeVersion): Promise<TypeCreation>;
  /**
   * Applies `change` (the head's description and deprecation, and the version it adds), all or nothing;
   * false, with nothing written, when the type's head is no longer `change.expected` (another write came
   * first) or the type does not exist.
   */
  updateType(change: TypeChange): Promise<boolean>;
}
