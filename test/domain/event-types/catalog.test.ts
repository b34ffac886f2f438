/**
 * The built-in catalog is a contract receivers code against: every example passes its schema (in Herald's
 * validator and in Ajv, an independent one, against the published 2020-12 meta-schema), every type meets
 * the rules an operator's type must meet, and the documented mappings name real types and real examples.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { isEventType } from '#domain/event-input';
import { BUILT_IN_EVENT_TYPES, builtInEventType, RECEIVER_USES } from '#domain/event-types/catalog';
import { eventTypeDraftProblems } from '#domain/event-types/event-type-checks';
import { codesOf, REASON_CODES, TRANSACTION_STATUS_CODES } from '#domain/event-types/iso20022';
import { latestVersion } from '#domain/event-types/model';
import { compileEventType } from '#domain/event-types/payload-validation';
import { isSchemaObject, subschemas } from '#domain/event-types/schema-walk';
import { checkVersion } from '../../support/payload-check';

const versions = BUILT_IN_EVENT_TYPES.flatMap((definition) =>
  definition.versions.map((version) => ({
    definition,
    version,
    label: `${definition.type} v${version.version}`,
  })),
);
const examples = versions.flatMap(({ definition, version, label }) =>
  version.examples.map((example) => ({ definition, version, example, label: `${label} ${example.name}` })),
);

/** Every object schema of a document, with its pointer. */
function objectSchemas(node: unknown, pointer = ''): [string, Record<string, unknown>][] {
  if (!isSchemaObject(node)) return [];
  const own: [string, Record<string, unknown>][] = node.type === 'object' ? [[pointer, node]] : [];
  return [
    ...own,
    ...[...subschemas(node)].flatMap(([path, child]) => objectSchemas(child, `${pointer}/${path.join('/')}`)),
  ];
}

describe('the built-in catalog', () => {
  it('has the seed type, money received and direct debit outcomes, in version 1, none deprecated', () => {
    expect(BUILT_IN_EVENT_TYPES.map((definition) => definition.type)).toEqual([
      'credit_transfer_status_change',
      'credit_received',
      'direct_debit_status_change',
    ]);
    for (const definition of BUILT_IN_EVENT_TYPES) {
      expect(isEventType(definition.type)).toBe(true);
      expect(definition.deprecated).toBe(false);
      expect(definition.versions.map((version) => version.version)).toEqual([1]);
      expect(latestVersion(definition).version).toBe(1);
      expect(definition.description.length).toBeGreaterThan(100);
    }
    expect(builtInEventType('credit_received')?.type).toBe('credit_received');
    expect(builtInEventType('order.paid')).toBeUndefined();
  });

  it.each(examples)('$label passes its schema', ({ definition, version, example }) => {
    expect(checkVersion(compileEventType(definition), version.version, example.payload)).toEqual({
      ok: true,
      version: version.version,
    });
  });

  it.each(versions)(
    '$label meets every rule an operator-registered type must meet',
    ({ definition, version }) => {
      expect(
        eventTypeDraftProblems({
          type: definition.type,
          description: definition.description,
          schema: version.schema,
          examples: version.examples,
        }),
      ).toEqual([]);
    },
  );

  it.each(versions)(
    '$label is valid for Ajv too, against the published 2020-12 meta-schema, with every example',
    ({ version }) => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      expect(ajv.validateSchema(version.schema), JSON.stringify(ajv.errors)).toBe(true);
      const validate = ajv.compile(version.schema);
      for (const example of version.examples) expect(validate(example.payload), example.name).toBe(true);
    },
  );

  it.each(versions)(
    '$label declares every object closed, with its required fields among its properties',
    ({ version }) => {
      const objects = objectSchemas(version.schema);
      expect(objects.length).toBeGreaterThan(1);
      for (const [pointer, object] of objects) {
        expect(object.additionalProperties, pointer).toBe(false);
        const properties = Object.keys(object.properties as object);
        expect(properties, pointer).toEqual(expect.arrayContaining(object.required as string[]));
      }
    },
  );

  it('uses only ISO status codes, and documents every reason code its examples carry', () => {
    const statusCodes = codesOf(TRANSACTION_STATUS_CODES);
    const reasonCodes = codesOf(REASON_CODES);
    for (const { example, label } of examples) {
      const { status_code: statusCode, reason_code: reasonCode } = example.payload;
      if (statusCode !== undefined) expect(statusCodes, label).toContain(statusCode);
      if (reasonCode !== undefined) expect(reasonCodes, label).toContain(reasonCode);
    }
    expect(() => codesOf(TRANSACTION_STATUS_CODES, ['ACSC', 'XXXX'])).toThrow(/XXXX/);
  });

  it('shows each outcome a receiver must tell apart with an example of its own', () => {
    const shown = (type: string) =>
      builtInEventType(type)?.versions[0]?.examples.map(({ payload }) =>
        [payload.status, payload.reason_code, payload.sequence_type].filter(Boolean).join(' '),
      );
    expect(shown('credit_transfer_status_change')).toEqual(
      expect.arrayContaining(['accepted', 'settled', 'rejected AC04', 'returned AC04', 'rejected AM04']),
    );
    expect(shown('direct_debit_status_change')).toEqual(
      expect.arrayContaining([
        'collected RCUR',
        'returned AM04 RCUR',
        'refunded MD06 RCUR',
        'rejected AC04 FRST',
      ]),
    );
  });

  it('maps every receiver use to a built-in type, the closed account to a rejected or returned AC04 transfer', () => {
    for (const use of RECEIVER_USES) expect(builtInEventType(use.type), use.use).toBeDefined();
    const closed = RECEIVER_USES.find((use) => use.use === "A recipient's bank account was found closed");
    expect(closed).toEqual({
      use: "A recipient's bank account was found closed",
      type: 'credit_transfer_status_change',
      when: '`status` is `rejected` or `returned` and `reason_code` is `AC04`',
    });
    const closedExamples = examples.filter(
      ({ definition, example }) =>
        definition.type === 'credit_transfer_status_change' && example.payload.reason_code === 'AC04',
    );
    expect(closedExamples.map(({ example }) => example.payload.status).sort()).toEqual([
      'rejected',
      'returned',
    ]);
  });

  it('leaves the declarations untouched when compiling them (they are served as plain JSON)', () => {
    const before = JSON.stringify(BUILT_IN_EVENT_TYPES);
    for (const definition of BUILT_IN_EVENT_TYPES) compileEventType(definition);
    expect(JSON.stringify(BUILT_IN_EVENT_TYPES)).toBe(before);
    const schema = BUILT_IN_EVENT_TYPES[0]?.versions[0]?.schema as object;
    expect(Object.getOwnPropertyNames(schema)).not.toContain('__absolute_uri__');
  });
});
