/**
 * An operator's type is accepted only when its schema is JSON Schema 2020-12 that Herald can validate
 * within bounds, and its examples pass it; each refusal names where the problem is and why. The one-document
 * meta-schema is checked against Ajv's reading of the published 2020-12 meta-schema on generated schemas.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_EVENT_TYPE_DESCRIPTION_LENGTH,
  MAX_EVENT_TYPE_EXAMPLE_BYTES,
  MAX_EVENT_TYPE_EXAMPLES,
  MAX_EVENT_TYPE_SCHEMA_BYTES,
  MAX_EVENT_TYPE_SCHEMA_DEPTH,
  MAX_EVENT_TYPE_SCHEMA_EXPANDED_NODES,
  MAX_VIOLATIONS_REPORTED,
} from '#config/catalog-limits';
import { compileSchema } from '#domain/event-types/compiled-schema';
import { type EventTypeDraft, eventTypeDraftProblems } from '#domain/event-types/event-type-checks';
import { META_SCHEMA_2020_12 } from '#domain/event-types/meta-schema';
import type { EventTypeExample } from '#domain/event-types/model';
import { schemaViolations } from '#domain/event-types/payload-validation';

const example: EventTypeExample = { name: 'paid', summary: 'An order was paid.', payload: { order: 'o-1' } };
const schema = { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] };
const draft: EventTypeDraft = {
  type: 'order.paid',
  description: 'An order was paid.',
  schema,
  examples: [example],
};

function problems(changes: Partial<EventTypeDraft>) {
  return eventTypeDraftProblems({ ...draft, ...changes });
}

/** The draft with `extra` merged into the properties of its schema. */
function withProperty(property: unknown) {
  return problems({ schema: { ...schema, properties: { order: { type: 'string' }, extra: property } } });
}

describe('eventTypeDraftProblems', () => {
  it('accepts a valid draft', () => {
    expect(problems({})).toEqual([]);
  });

  it('refuses a schema that is not JSON Schema, naming the keyword and why', () => {
    expect(withProperty({ type: 'strin' })).toEqual([
      {
        name: 'schema/properties/extra/type',
        reason:
          'must be a type name (array, boolean, integer, null, number, object or string) or a list of them (JSON Schema 2020-12)',
      },
    ]);
    expect(withProperty({ minLength: '3' })).toEqual([
      {
        name: 'schema/properties/extra/minLength',
        reason: 'must be an integer, not a string (JSON Schema 2020-12)',
      },
    ]);
    expect(withProperty({ pattern: '(' })).toEqual([
      { name: 'schema/properties/extra/pattern', reason: 'must be a valid regex (JSON Schema 2020-12)' },
    ]);
    expect(problems({ schema: { ...schema, required: 'order' } })).toEqual([
      { name: 'schema/required', reason: 'must be an array, not a string (JSON Schema 2020-12)' },
    ]);
    expect(problems({ schema: { ...schema, allOf: [] } })).toEqual([
      { name: 'schema/allOf', reason: 'must have at least 1 item (JSON Schema 2020-12)' },
    ]);
    expect(problems({ schema: 'object' })).toEqual([
      { name: 'schema', reason: 'must be a JSON Schema object' },
    ]);
  });

  it('refuses a schema whose root is not an object, or of another dialect', () => {
    expect(problems({ schema: { type: 'array' } })).toEqual([
      { name: 'schema/type', reason: 'must be "object": a payload is a JSON object' },
    ]);
    expect(problems({ schema: { ...schema, $schema: 'http://json-schema.org/draft-07/schema#' } })).toEqual([
      { name: 'schema/$schema', reason: 'must be https://json-schema.org/draft/2020-12/schema or absent' },
    ]);
  });

  it('refuses references that leave the schema, point at nothing, or lead back (recursion)', () => {
    expect(withProperty({ $ref: 'https://example.com/money.json' })).toEqual([
      {
        name: 'schema/properties/extra/$ref',
        reason: 'must point inside this schema (start with #): nothing is fetched',
      },
    ]);
    expect(withProperty({ $ref: '#/$defs/missing' })).toEqual([
      { name: 'schema/properties/extra/$ref', reason: 'points at nothing in this schema' },
    ]);
    const tree = {
      ...schema,
      $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
    };
    expect(
      problems({ schema: { ...tree, properties: { ...tree.properties, root: { $ref: '#/$defs/node' } } } }),
    ).toEqual([
      {
        name: 'schema/$defs/node/properties/child/$ref',
        reason: 'leads back to a schema containing it: recursive schemas are not accepted',
      },
    ]);
    expect(problems({ schema: { ...schema, allOf: [{ $ref: '#' }] } })).toEqual([
      {
        name: 'schema/allOf/0/$ref',
        reason: 'leads back to a schema containing it: recursive schemas are not accepted',
      },
    ]);
    expect(withProperty({ $ref: '#/$defs/money' }).length).toBe(1);
    const anchored = { ...schema, $defs: { money: { $anchor: 'money', type: 'string' } } };
    expect(problems({ schema: { ...anchored, properties: { order: { $ref: '#money' } } } })).toEqual([]);
  });

  it('refuses keywords the validator does not implement, identifiers below the root, and duplicate anchors', () => {
    expect(withProperty({ $dynamicRef: '#meta' })).toEqual([
      { name: 'schema/properties/extra/$dynamicRef', reason: 'is not supported: use $ref' },
    ]);
    expect(withProperty({ dependencies: { a: ['b'] } })).toEqual([
      {
        name: 'schema/properties/extra/dependencies',
        reason: 'belongs to draft 7: use dependentRequired or dependentSchemas',
      },
    ]);
    expect(withProperty({ $id: 'https://example.com/extra' })).toEqual([
      { name: 'schema/properties/extra/$id', reason: 'is allowed only at the root' },
    ]);
    expect(problems({ schema: { ...schema, $defs: { a: { $anchor: 'x' }, b: { $anchor: 'x' } } } })).toEqual([
      { name: 'schema/$defs/b/$anchor', reason: 'names a second schema: anchors are unique' },
    ]);
    expect(problems({ schema: { ...schema, $id: 'https://example.com/order-paid' } })).toEqual([]);
  });

  it('refuses a backtracking pattern and uniqueItems without a small maxItems', () => {
    expect(withProperty({ type: 'string', pattern: '^(a+)+$' })).toEqual([
      {
        name: 'schema/properties/extra/pattern',
        reason: expect.stringMatching(/^repeats a group whose content varies/),
      },
    ]);
    expect(problems({ schema: { ...schema, patternProperties: { '^(x*)*$': true } } })[0]?.name).toBe(
      'schema/patternProperties/^(x*)*$',
    );
    expect(withProperty({ type: 'array', uniqueItems: true })).toEqual([
      {
        name: 'schema/properties/extra/uniqueItems',
        reason: 'needs maxItems of at most 1000 beside it: checking that items differ compares every pair',
      },
    ]);
    expect(withProperty({ type: 'array', uniqueItems: true, maxItems: 1000 })).toEqual([]);
  });

  it('bounds the schema in bytes, depth and expanded size', () => {
    const big = { ...schema, description: 'x'.repeat(MAX_EVENT_TYPE_SCHEMA_BYTES) };
    expect(problems({ schema: big })).toEqual([
      {
        name: 'schema',
        reason: expect.stringMatching(`at most ${MAX_EVENT_TYPE_SCHEMA_BYTES} are allowed$`),
      },
    ]);
    const nested = (depth: number): unknown =>
      depth === 0 ? {} : { type: 'object', properties: { order: nested(depth - 1) } };
    expect(problems({ schema: nested(MAX_EVENT_TYPE_SCHEMA_DEPTH / 2 - 1), examples: [] })).toEqual([
      { name: 'examples', reason: `must have 1 to ${MAX_EVENT_TYPE_EXAMPLES} examples` },
    ]);
    expect(problems({ schema: nested(MAX_EVENT_TYPE_SCHEMA_DEPTH) })).toEqual([
      { name: 'schema', reason: `must nest at most ${MAX_EVENT_TYPE_SCHEMA_DEPTH} levels deep` },
    ]);
    // Each level refers twice to the next: 2^20 schemas from a document of a few hundred bytes.
    const defs = Object.fromEntries(
      Array.from({ length: 20 }, (_, index) => [
        `d${index}`,
        { allOf: [{ $ref: `#/$defs/d${index + 1}` }, { $ref: `#/$defs/d${index + 1}` }] },
      ]),
    );
    const doubling = {
      ...schema,
      $defs: { ...defs, d20: { type: 'string' } },
      properties: { order: { $ref: '#/$defs/d0' } },
    };
    expect(problems({ schema: doubling })).toEqual([
      {
        name: 'schema',
        reason: `has more than ${MAX_EVENT_TYPE_SCHEMA_EXPANDED_NODES} schemas once each $ref is replaced by its target`,
      },
    ]);
  });

  it('checks the type name, the description and every example, naming the example and the field', () => {
    expect(problems({ type: 'Order Paid', description: ' ' })).toEqual([
      {
        name: 'type',
        reason: 'must be lower-case snake_case segments separated by dots, at most 64 characters',
      },
      {
        name: 'description',
        reason: `must have 1 to ${MAX_EVENT_TYPE_DESCRIPTION_LENGTH} characters: what happened, and what a receiver does with it`,
      },
    ]);
    const examples = [
      example,
      { name: 'paid', summary: '', payload: { order: 5, extra: true } },
      { name: 'big', summary: 'Big.', payload: { order: 'x'.repeat(MAX_EVENT_TYPE_EXAMPLE_BYTES) } },
    ];
    expect(problems({ schema: { ...schema, additionalProperties: false }, examples })).toEqual([
      { name: 'examples/1/name', reason: 'must be unique lower-case snake_case, at most 64 characters' },
      { name: 'examples/1/summary', reason: 'must have 1 to 200 characters' },
      { name: 'examples/1/payload/order', reason: 'must be a string, not an integer' },
      { name: 'examples/1/payload/extra', reason: 'is not a field of this object (its fields: order)' },
      {
        name: 'examples/2/payload',
        reason: expect.stringMatching(`at most ${MAX_EVENT_TYPE_EXAMPLE_BYTES}$`),
      },
    ]);
    expect(
      problems({ examples: Array.from({ length: MAX_EVENT_TYPE_EXAMPLES + 1 }, () => example) }),
    ).toEqual([{ name: 'examples', reason: `must have 1 to ${MAX_EVENT_TYPE_EXAMPLES} examples` }]);
  });

  it(`lists at most ${MAX_VIOLATIONS_REPORTED} problems`, () => {
    const examples = Array.from({ length: MAX_EVENT_TYPE_EXAMPLES }, (_, index) => ({
      name: `e${index}`,
      summary: 'Wrong.',
      payload: { order: index },
    }));
    expect(problems({ type: 'X', examples })).toHaveLength(MAX_VIOLATIONS_REPORTED);
  });
});

describe('the one-document 2020-12 meta-schema', () => {
  const meta = compileSchema(META_SCHEMA_2020_12);
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);

  /** A value mostly valid for its keyword (weight 4), sometimes not (weight 1). */
  const either = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) =>
    fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: invalid, weight: 1 });

  /** Schema-like documents: up to three keywords a level, with valid and invalid values, a few levels deep. */
  const documents = fc.letrec<{ schema: unknown }>((tie) => {
    const schemas = fc.array(tie('schema'), { minLength: 1, maxLength: 2 });
    const map = fc.dictionary(fc.constantFrom('a', 'b'), tie('schema'), { maxKeys: 2 });
    const count = either(fc.nat(5), fc.constantFrom(-1, 1.5, '3'));
    const values: Record<string, fc.Arbitrary<unknown>> = {
      type: either(
        fc.constantFrom('string', 'object', 'integer', ['string', 'null']),
        fc.constantFrom('strin', [], ['a', 'a']),
      ),
      minLength: count,
      maxLength: count,
      maxItems: count,
      minContains: count,
      maxProperties: count,
      minimum: either(fc.constantFrom(0, -2.5), fc.constant('0')),
      exclusiveMinimum: either(fc.constant(1), fc.constant(true)),
      additionalProperties: either(tie('schema'), fc.constant(1)),
      if: tie('schema'),
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword, in plain data that is never awaited
      then: tie('schema'),
      else: either(tie('schema'), fc.constant([])),
      prefixItems: either(schemas, fc.constant(true)),
      contains: tie('schema'),
      propertyNames: either(tie('schema'), fc.constant('a')),
      dependentSchemas: either(map, fc.constant({ a: 1 })),
      unevaluatedProperties: either(tie('schema'), fc.constant(null)),
      readOnly: either(fc.boolean(), fc.constant(1)),
      contentMediaType: either(fc.constant('application/json'), fc.constant(1)),
      $comment: either(fc.string(), fc.constant(1)),
      // Not '(': Ajv's meta-schema check ignores formats, Herald's asserts them (`format: regex`, above).
      pattern: either(fc.constantFrom('^a+$', '[0-9]{2}', '\\d'), fc.constant(5)),
      required: either(fc.constantFrom([], ['a'], ['a', 'b']), fc.constantFrom(['a', 'a'], 'a', [1])),
      enum: either(fc.array(fc.jsonValue(), { maxLength: 3 }), fc.constant('x')),
      properties: either(map, fc.constant(5)),
      items: either(tie('schema'), fc.constant('x')),
      not: either(tie('schema'), fc.constant(3)),
      allOf: either(schemas, fc.constant([])),
      anyOf: either(schemas, fc.constant({})),
      multipleOf: either(fc.constantFrom(2, 0.5), fc.constantFrom(0, -1)),
      const: fc.jsonValue(),
      title: either(fc.string(), fc.constant(5)),
      deprecated: either(fc.boolean(), fc.constant('yes')),
      $ref: either(fc.constantFrom('#', '#/$defs/a', 'other.json'), fc.constant(5)),
      $defs: either(map, fc.constant([])),
      dependentRequired: either(fc.constant({ a: ['b'] }), fc.constantFrom({ a: 'b' }, { a: ['b', 'b'] })),
      format: either(fc.constantFrom('date', 'email'), fc.constant(3)),
      'x-note': fc.jsonValue(),
      uniqueItems: either(fc.boolean(), fc.constant('no')),
      examples: either(fc.array(fc.jsonValue(), { maxLength: 2 }), fc.constant({})),
      $anchor: either(fc.constant('ok_anchor'), fc.constantFrom('1bad', 5)),
    };
    const object = fc
      .uniqueArray(fc.constantFrom(...Object.keys(values)), { maxLength: 3 })
      .chain((keys) =>
        fc
          .tuple(...keys.map((key) => values[key] as fc.Arbitrary<unknown>))
          .map((picked) => Object.fromEntries(keys.map((key, index) => [key, picked[index]]))),
      );
    return {
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        { arbitrary: fc.boolean(), weight: 1 },
        { arbitrary: object, weight: 3 },
      ),
    };
  }).schema;

  it('judges generated schemas as Ajv judges them against the published meta-schema', () => {
    fc.assert(
      fc.property(documents, (document) => {
        const ours = schemaViolations(meta, document).length === 0;
        expect(ours).toBe(ajv.validateSchema(document as object) as boolean);
      }),
      { numRuns: 500 },
    );
  });
});
