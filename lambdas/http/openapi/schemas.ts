/**
 * The JSON Schema vocabulary of Herald's OpenAPI document (draft 2020-12, the dialect of OpenAPI 3.1):
 * the builders every part's schemas use and the atoms they share. Patterns come from the domain's own
 * regular expressions where one exists, so the document cannot drift from what the code accepts and
 * renders.
 */
import { EVENT_ID_PATTERN } from '#domain/ids';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** How every timestamp is rendered (see `renderTimestamp`): UTC, whole seconds, no zone suffix. */
export const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';

/** A `$ref` to a component schema. */
export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A closed object whose properties are all required: every view Herald renders has a fixed shape. */
export const closed = (properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({
  type: 'object',
  ...(description === undefined ? {} : { description }),
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
export const text = (description: string, more: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  ...more,
  description,
});
export const int = (description: string, minimum: number, more: JsonSchema = {}): JsonSchema => ({
  type: 'integer',
  minimum,
  ...more,
  description,
});
/** A URI string. */
export const uri = (description: string): JsonSchema => text(description, { format: 'uri' });
export const timestamp = (what: string): JsonSchema => ({
  ...schemaRef('Timestamp'),
  description: `${what}, UTC.`,
});
/** The schema, or null. */
export const nullable = (schema: JsonSchema): JsonSchema => ({ oneOf: [schema, { type: 'null' }] });
export const EVENT_ID: JsonSchema = { type: 'string', format: 'uuid', pattern: EVENT_ID_PATTERN.source };
/** A normalised IBAN: upper case, no blanks, 15 to 34 characters (see `iban.ts`). */
export const IBAN = text('IBAN, upper case, no blanks.', { pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' });
