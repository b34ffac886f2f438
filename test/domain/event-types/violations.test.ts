/**
 * The reasons for the keywords an operator's schema may use, beyond what the built-in types exercise:
 * each violation sits at the pointer of the value at fault and says what is allowed, from the schema.
 */
import { describe, expect, it } from 'vitest';
import { compileSchema } from '#domain/event-types/compiled-schema';
import type { JsonSchemaObject } from '#domain/event-types/model';
import { schemaViolations } from '#domain/event-types/payload-validation';
import { violationsOf } from '#domain/event-types/violations';

function check(schema: JsonSchemaObject, payload: unknown) {
  return schemaViolations(compileSchema(schema), payload);
}

const object = (
  properties: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): JsonSchemaObject => ({
  type: 'object',
  properties,
  ...extra,
});

describe('violation reasons', () => {
  it.each([
    [{ type: 'string', minLength: 3 }, 'ab', 'must have at least 3 characters'],
    [{ type: 'string', maxLength: 1 }, 'ab', 'must have at most 1 character'],
    [{ type: 'number', minimum: 5 }, 4, 'must be at least 5'],
    [{ type: 'number', maximum: 5 }, 6, 'must be at most 5'],
    [{ type: 'number', exclusiveMinimum: 5 }, 5, 'must be greater than 5'],
    [{ type: 'number', exclusiveMaximum: 5 }, 5, 'must be less than 5'],
    [{ type: 'number', multipleOf: 0.01 }, 1.005, 'must be a multiple of 0.01'],
    [{ type: 'integer' }, 1.5, 'must be an integer, not a number with a fraction'],
    [{ type: ['string', 'null'] }, 3, 'must be a string or null, not an integer'],
    [{ const: 'EUR' }, 'USD', 'must be EUR'],
    [
      { enum: Array.from({ length: 13 }, (_, index) => `v${index}`) },
      'x',
      'must be one of the 13 values its schema lists',
    ],
    [{ type: 'array', minItems: 2 }, [1], 'must have at least 2 items'],
    [{ type: 'array', maxItems: 1 }, [1, 2], 'must have at most 1 item'],
    [{ type: 'array', uniqueItems: true, maxItems: 5 }, [1, 1], 'must not repeat an item'],
    [{ type: 'object', minProperties: 1 }, {}, 'must have at least 1 field'],
    [{ type: 'object', maxProperties: 1 }, { a: 1, b: 2 }, 'must have at most 1 field'],
    [{ not: { type: 'string' } }, 'x', 'must not have the shape its schema excludes'],
    [{ type: 'string', pattern: '^[a-z]+$' }, 'A', 'must match the pattern ^[a-z]+$'],
    [{ type: 'string', format: 'email' }, 'no', 'must be a valid email'],
    [
      { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      true,
      'must match at least one of the shapes its schema allows',
    ],
    [
      { title: 'a code or a number', anyOf: [{ type: 'string' }, { type: 'integer' }] },
      true,
      'must be a code or a number',
    ],
    [
      { oneOf: [{ type: 'number' }, { type: 'integer' }] },
      1,
      'must match exactly one of the shapes its schema allows',
    ],
  ])('%j refuses %j: %s', (schema, value, reason) => {
    expect(check(object({ v: schema }), { v: value })).toEqual([{ pointer: '/v', reason }]);
  });

  it('reports an anyOf once, not the contradicting errors of its branches', () => {
    const schema = object({
      v: {
        anyOf: [
          { type: 'string', minLength: 5 },
          { type: 'object', required: ['a'] },
        ],
      },
    });
    expect(check(schema, { v: 'ab' })).toEqual([
      { pointer: '/v', reason: 'must match at least one of the shapes its schema allows' },
    ]);
  });

  it('keeps a false schema inside an anyOf branch or as propertyNames to the reason of its keyword', () => {
    const branches = object({
      v: { anyOf: [{ type: 'object', properties: { a: false } }, false, { type: 'string' }] },
    });
    expect(check(branches, { v: { a: 1 } })).toEqual([
      { pointer: '/v', reason: 'must match at least one of the shapes its schema allows' },
    ]);
    expect(check(object({}, { propertyNames: false }), { a: 1 })).toEqual([
      { pointer: '/a', reason: 'is not an allowed field name' },
    ]);
  });

  it('follows a $ref to word the reason from the schema it points at', () => {
    const schema = object(
      { price: { $ref: '#/$defs/money' }, lines: { type: 'array', items: { $ref: '#/$defs/line' } } },
      {
        $defs: {
          money: {
            type: 'string',
            pattern: '^[0-9]+\\.[0-9]{2}$',
            title: 'a price with cents',
            examples: ['9.99'],
          },
          line: {
            type: 'object',
            properties: { sku: { type: 'string' } },
            required: ['sku'],
            additionalProperties: false,
          },
        },
      },
    );
    expect(check(schema, { price: '9.9', lines: [{ sku: 'a' }, { qty: 1 }] })).toEqual([
      { pointer: '/price', reason: 'must match the pattern of a price with cents like 9.99' },
      { pointer: '/lines/1/sku', reason: 'is required' },
      { pointer: '/lines/1/qty', reason: 'is not a field of this object (its fields: sku)' },
    ]);
  });

  it('escapes field names in pointers (RFC 6901) and refuses names propertyNames forbids', () => {
    const schema = object(
      {},
      { propertyNames: { pattern: '^[a-z/~% #]+$' }, additionalProperties: { type: 'integer' } },
    );
    expect(check(schema, { 'a/b~c% #': 'x', B: 1 })).toEqual([
      { pointer: '/B', reason: 'is not an allowed field name' },
      { pointer: '/a~1b~0c% #', reason: 'must be an integer, not a string' },
    ]);
  });

  it('names each field a dependentRequired rule misses', () => {
    const schema = object({}, { dependentRequired: { iban: ['bic', 'name'] } });
    expect(check(schema, { iban: 'x', name: 'n' })).toEqual([
      { pointer: '/bic', reason: 'is required when iban is present' },
    ]);
  });

  it('refuses an item beyond prefixItems, and an array without a matching item, without blaming the others', () => {
    const tuple = object({
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'string' }], items: false },
    });
    expect(check(tuple, { pair: ['a', 'b', 'c'] })).toEqual([
      { pointer: '/pair/2', reason: 'is an item this array does not allow' },
    ]);
    const contains = object({ tags: { type: 'array', contains: { const: 'vip' } } });
    expect(check(contains, { tags: ['a', 'b'] })).toEqual([
      { pointer: '/tags', reason: 'must contain an item its schema describes' },
    ]);
    const atLeast = object({ tags: { type: 'array', contains: { const: 'vip' }, minContains: 2 } });
    expect(check(atLeast, { tags: ['vip', 'b'] })).toEqual([
      { pointer: '/tags', reason: 'must contain at least 2 items its schema describes' },
    ]);
  });

  it('quotes the condition of an else branch, lower-cased and cut when long', () => {
    const long = `Business accounts give a VAT number${' and more'.repeat(40)}.`;
    const schema = object(
      { kind: { enum: ['private', 'business'] }, vat: { type: 'string' } },
      { if: { properties: { kind: { const: 'private' } } }, else: { description: long, required: ['vat'] } },
    );
    const [violation] = check(schema, { kind: 'business' });
    expect(violation?.pointer).toBe('/vat');
    expect(violation?.reason).toMatch(/^is required \(business accounts give a VAT number and more/);
    expect(violation?.reason.length).toBeLessThan(230);
    expect(violation?.reason.endsWith('…)')).toBe(true);
  });

  it('keeps the capitals of a condition that starts with an acronym', () => {
    const schema = object(
      { iban: { type: 'string' }, bic: { type: 'string' } },
      {
        if: { required: ['iban'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword, in plain data that is never awaited
        then: { description: 'IBAN payments name the BIC too.', required: ['bic'] },
      },
    );
    expect(check(schema, { iban: 'x' })).toEqual([
      { pointer: '/bic', reason: 'is required (IBAN payments name the BIC too)' },
    ]);
  });

  it('still refuses when no error can be worded, at the root', () => {
    const onlyWrapper = [{ keyword: 'allOf', keywordLocation: '#/allOf', instanceLocation: '#', error: '' }];
    expect(violationsOf(onlyWrapper, compileSchema({ allOf: [true] }), {})).toEqual([
      { pointer: '', reason: 'does not match its schema' },
    ]);
    expect(violationsOf([], compileSchema({ type: 'object' }), {})).toEqual([]);
  });
});
