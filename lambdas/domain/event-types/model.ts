/**
 * What an event type is: a name, what it means for a receiver, and its versions, each a JSON Schema
 * (2020-12) of the payload with examples. Built-in types and operator-registered ones share this shape, so
 * one declaration feeds publish validation, the API, the OpenAPI document, the portal, the CLI and the
 * generated `docs/event-types.md`.
 */

/** A JSON Schema object (2020-12) as plain JSON data. */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };

/** A JSON object payload as receivers get it. */
export type JsonObject = { readonly [field: string]: unknown };

/** One example payload of a version; it always passes the version's schema (a test checks built-ins). */
export interface EventTypeExample {
  /** Lower-case snake_case key, unique within the version (`settled`, `rejected_closed_account`). */
  readonly name: string;
  /** One line: what the example shows. */
  readonly summary: string;
  readonly payload: JsonObject;
}

/**
 * One version of a type's payload contract. A version never changes once published; a changed schema is a
 * new version, numbered one above the latest.
 */
export interface EventTypeVersion {
  /** 1, 2, 3, …: the catalog lists them in this order, the last being the latest. */
  readonly version: number;
  /** The payload's JSON Schema 2020-12; its root is `"type": "object"`. */
  readonly schema: JsonSchemaObject;
  /** At least one. */
  readonly examples: readonly EventTypeExample[];
  /** Publishing this version still works; receivers should expect its end. */
  readonly deprecated: boolean;
}

/** An event type of the catalog. */
export interface EventTypeDefinition {
  /** The event's `type`: lower-case snake_case segments, e.g. `credit_transfer_status_change`. */
  readonly type: string;
  /** What happened and what a receiver typically does with it. */
  readonly description: string;
  /** Publishing it still works; receivers should expect its end. */
  readonly deprecated: boolean;
  /** Ascending from 1 without a gap; at least one. */
  readonly versions: readonly EventTypeVersion[];
}

/** A type of the catalog, and whether Herald ships it (built-in) or an operator registered it. */
export interface CatalogEntry {
  readonly definition: EventTypeDefinition;
  readonly builtIn: boolean;
  /**
   * One of Herald's operational notices (built in, reserved: no gateway publishes it, Herald sends it to
   * the organization's operational webhook); absent: false.
   */
  readonly operational?: boolean;
}

/**
 * How one of the receivers' uses is reported: the type to subscribe to, and the condition on its payload
 * when the use is a case of a broader type (a closed recipient account is a rejected or returned transfer
 * with reason code `AC04`, as banks report it).
 */
export interface ReceiverUse {
  /** The use in a receiver's words, e.g. "a recipient's bank account was found closed". */
  readonly use: string;
  readonly type: string;
  /** The payload condition, in prose with field names in backticks; absent when every event of the type is one. */
  readonly when?: string;
}

/**
 * A type as Herald ships it: at its first version, neither deprecated. A later change of a built-in
 * payload is a new version written out here, never an edit of this one.
 */
export function builtInType(
  declaration: Pick<EventTypeDefinition, 'type' | 'description'> &
    Pick<EventTypeVersion, 'schema' | 'examples'>,
): EventTypeDefinition {
  const { type, description, schema, examples } = declaration;
  return {
    type,
    description,
    deprecated: false,
    versions: [{ version: 1, schema, deprecated: false, examples }],
  };
}

/** The latest version of a type (its last). */
export function latestVersion(definition: EventTypeDefinition): EventTypeVersion {
  const latest = definition.versions.at(-1);
  if (latest === undefined) throw new RangeError(`event type ${definition.type} has no version`);
  return latest;
}
