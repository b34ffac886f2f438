/**
 * The event-type catalog's bounds: how much a publish's validation reports, and how large an operator's
 * type, its versions, schemas and examples may be. Each keeps a catalog request's work and answer bounded.
 */

/**
 * Most problems one refusal lists (`invalid_params`): a payload's violations of its type's schema, or what
 * is wrong with an event type an operator registers. Enough to fix most inputs in one round, and the
 * answer stays small whatever the input or the schema.
 */
export const MAX_VIOLATIONS_REPORTED = 10;

/**
 * Most type names the refusal of an unknown event type lists (sorted; it says how many more there are):
 * the answer stays small however many types operators register.
 */
export const MAX_KNOWN_TYPES_NAMED = 20;

/**
 * Most event types operators may register beside the built-in ones. The catalog is read whole by every
 * container that validates publishes, so its size is bounded like one answer.
 */
export const MAX_OPERATOR_EVENT_TYPES = 100;

/** Most versions one event type may have; a new version is a changed payload schema. */
export const MAX_EVENT_TYPE_VERSIONS = 20;

/**
 * Largest payload schema of one version, in UTF-8 bytes of its JSON: a type with dozens of documented
 * fields fits several times over, and one version with its examples stays far below DynamoDB's item size.
 */
export const MAX_EVENT_TYPE_SCHEMA_BYTES = 32_768;

/** Deepest nesting of objects and arrays in a payload schema's JSON. */
export const MAX_EVENT_TYPE_SCHEMA_DEPTH = 32;

/**
 * Most schema nodes a payload schema has once every `$ref` is replaced by what it points at: `$ref`s can
 * multiply a small document (each of two references pointing at a schema with two references…), and the
 * work of validating one payload grows with this count times the payload's size.
 */
export const MAX_EVENT_TYPE_SCHEMA_EXPANDED_NODES = 5_000;

/** Longest `pattern` (or `patternProperties` name) in a payload schema, in characters. */
export const MAX_EVENT_TYPE_SCHEMA_PATTERN_LENGTH = 512;

/**
 * Largest `maxItems` a schema may pair with `uniqueItems`: checking that items differ compares every pair,
 * so it needs a bound on the array far below what a payload's size allows.
 */
export const MAX_EVENT_TYPE_UNIQUE_ITEMS = 1_000;

/** Most examples one version may have; each must pass its version's schema. */
export const MAX_EVENT_TYPE_EXAMPLES = 10;

/** Largest example payload, in UTF-8 bytes of its JSON. */
export const MAX_EVENT_TYPE_EXAMPLE_BYTES = 8_192;

/** Longest description of an event type, in characters. */
export const MAX_EVENT_TYPE_DESCRIPTION_LENGTH = 2_000;

/** Longest one-line summary of an example, in characters. */
export const MAX_EVENT_TYPE_EXAMPLE_SUMMARY_LENGTH = 200;
