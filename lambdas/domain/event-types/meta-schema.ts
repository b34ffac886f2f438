/**
 * The JSON Schema 2020-12 meta-schema as one self-contained document, to check that an operator's payload
 * schema is a schema. The published meta-schema is eight documents joined by `$dynamicRef`, which
 * `@cfworker/json-schema` does not implement (it would skip every subschema); without extensions
 * `$dynamicRef: "#meta"` means the document's root, so here the vocabularies' keywords sit in one object and
 * each subschema position is `$ref: "#"`. Nothing is fetched: the document is complete. Herald's own,
 * stricter rules (local references only, bounded size) are in `event-type-checks.ts`.
 */
import type { JsonSchemaObject } from './model';

const SCHEMA = { $ref: '#' };
const SCHEMA_ARRAY = { type: 'array', minItems: 1, items: SCHEMA };
const SCHEMA_MAP = { type: 'object', additionalProperties: SCHEMA };
const NON_NEGATIVE_INTEGER = { type: 'integer', minimum: 0 };
const STRING_ARRAY = { type: 'array', items: { type: 'string' }, uniqueItems: true };
const SIMPLE_TYPES = { enum: ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] };
const ANCHOR = { type: 'string', pattern: '^[A-Za-z_][-A-Za-z0-9._]*$' };
const URI = { type: 'string', format: 'uri' };
const URI_REFERENCE = { type: 'string', format: 'uri-reference' };

/** Every keyword of the 2020-12 vocabularies (core, applicator, unevaluated, validation, meta-data, format, content). */
export const META_SCHEMA_2020_12: JsonSchemaObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'JSON Schema 2020-12, every vocabulary in one document',
  type: ['object', 'boolean'],
  properties: {
    // core
    $id: { ...URI_REFERENCE, pattern: '^[^#]*#?$' },
    $schema: URI,
    $ref: URI_REFERENCE,
    $anchor: ANCHOR,
    $dynamicRef: URI_REFERENCE,
    $dynamicAnchor: ANCHOR,
    $vocabulary: { type: 'object', propertyNames: URI, additionalProperties: { type: 'boolean' } },
    $comment: { type: 'string' },
    $defs: SCHEMA_MAP,
    // applicator
    prefixItems: SCHEMA_ARRAY,
    items: SCHEMA,
    contains: SCHEMA,
    additionalProperties: SCHEMA,
    properties: SCHEMA_MAP,
    patternProperties: { ...SCHEMA_MAP, propertyNames: { format: 'regex' } },
    dependentSchemas: SCHEMA_MAP,
    propertyNames: SCHEMA,
    if: SCHEMA,
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword, in plain data that is never awaited
    then: SCHEMA,
    else: SCHEMA,
    allOf: SCHEMA_ARRAY,
    anyOf: SCHEMA_ARRAY,
    oneOf: SCHEMA_ARRAY,
    not: SCHEMA,
    // unevaluated
    unevaluatedItems: SCHEMA,
    unevaluatedProperties: SCHEMA,
    // validation
    type: {
      title: 'a type name (array, boolean, integer, null, number, object or string) or a list of them',
      anyOf: [SIMPLE_TYPES, { type: 'array', items: SIMPLE_TYPES, minItems: 1, uniqueItems: true }],
    },
    enum: { type: 'array' },
    multipleOf: { type: 'number', exclusiveMinimum: 0 },
    maximum: { type: 'number' },
    exclusiveMaximum: { type: 'number' },
    minimum: { type: 'number' },
    exclusiveMinimum: { type: 'number' },
    maxLength: NON_NEGATIVE_INTEGER,
    minLength: NON_NEGATIVE_INTEGER,
    pattern: { type: 'string', format: 'regex' },
    maxItems: NON_NEGATIVE_INTEGER,
    minItems: NON_NEGATIVE_INTEGER,
    uniqueItems: { type: 'boolean' },
    maxContains: NON_NEGATIVE_INTEGER,
    minContains: NON_NEGATIVE_INTEGER,
    maxProperties: NON_NEGATIVE_INTEGER,
    minProperties: NON_NEGATIVE_INTEGER,
    required: STRING_ARRAY,
    dependentRequired: { type: 'object', additionalProperties: STRING_ARRAY },
    // meta-data
    title: { type: 'string' },
    description: { type: 'string' },
    deprecated: { type: 'boolean' },
    readOnly: { type: 'boolean' },
    writeOnly: { type: 'boolean' },
    examples: { type: 'array' },
    // format-annotation
    format: { type: 'string' },
    // content
    contentEncoding: { type: 'string' },
    contentMediaType: { type: 'string' },
    contentSchema: SCHEMA,
    // kept from earlier drafts by the 2020-12 meta-schema, so that no extension redefines them
    definitions: SCHEMA_MAP,
    dependencies: { type: 'object', additionalProperties: { anyOf: [SCHEMA, STRING_ARRAY] } },
    $recursiveAnchor: ANCHOR,
    $recursiveRef: URI_REFERENCE,
  },
};
