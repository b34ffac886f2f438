/**
 * The served document's `webhooks` agree with the catalog: one webhook per built-in type, named as the
 * type, whose body schema is the documented webhook body with `type` fixed and `payload` the type's
 * schema. Every example, in the body the service builds, passes it (Ajv, strict); a mutated one, or the
 * body of another type, does not. A type with several versions documents each, references relocated.
 */
import { describe, expect, it } from 'vitest';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import type { EventTypeDefinition } from '#domain/event-types/model';
import { webhookBody } from '#domain/webhook-body';
import { buildOpenApiDocument } from '#http/openapi/document';
import { catalogWebhooks, componentName } from '#http/openapi/event-type-webhooks';
import { base, iban, id } from '../support/event-samples';
import { createOpenApiValidator } from '../support/openapi-validator';

const doc = buildOpenApiDocument(base);

/** Validates a value against one component schema, through a document with one route answering it. */
function validatorFor(schema: string): (value: unknown) => string[] {
  const content = { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } };
  const get = { operationId: 'probe', summary: 'probe', responses: { '200': { description: 'x', content } } };
  const probe = createOpenApiValidator({ ...doc, paths: { '/probe': { get } } });
  const headers = { 'content-type': 'application/json' };
  return (value) =>
    probe.validateResponse({ method: 'GET', path: '/probe', status: 200, headers, body: value });
}

/** The webhook body the service sends for a payload of `type`. */
const sent = (type: string, payload: unknown): unknown =>
  JSON.parse(
    webhookBody({
      id,
      type,
      account: iban,
      sequence: 3,
      triggeredAt: '2026-11-21T12:34:56.789Z',
      payloadJson: JSON.stringify(payload),
      baseUrl: base,
    }),
  );

describe('the webhooks of the built-in types', () => {
  it('are one per type, named as the type, next to the generic one', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(
      ['event', ...BUILT_IN_EVENT_TYPES.map((definition) => definition.type)].sort(),
    );
    for (const definition of BUILT_IN_EVENT_TYPES) {
      const name = componentName(definition.type);
      const operation = doc.webhooks[definition.type]?.post;
      expect(operation?.operationId).toBe(`receive${name}`);
      expect(operation?.requestBody?.content['application/json']?.schema).toEqual({
        $ref: `#/components/schemas/${name}Webhook`,
      });
      expect(operation?.security).toEqual(doc.webhooks.event?.post?.security);
      const { $schema: _dialect, ...schema } = definition.versions[0]?.schema ?? {};
      expect(doc.components.schemas[`${name}Payload`]).toEqual(schema);
    }
  });

  it.each(BUILT_IN_EVENT_TYPES.map((definition) => [definition.type, definition] as const))(
    '%s: every example passes in the body the service sends; a mutated one and another type do not',
    (type, definition) => {
      const validate = validatorFor(`${componentName(type)}Webhook`);
      for (const example of definition.versions.flatMap((version) => version.examples)) {
        expect(validate(sent(type, example.payload)), example.name).toEqual([]);
        expect(validate(sent(type, { ...example.payload, amount: 12.5 })), example.name).not.toEqual([]);
        expect(validate(sent(type, { ...example.payload, unknown_field: 'x' })), example.name).not.toEqual(
          [],
        );
        expect(validate(sent('another_type', example.payload)), example.name).not.toEqual([]);
      }
    },
  );
});

describe('the built-in payload schemas in the document', () => {
  it('name each field a condition requires in that condition’s properties, as linters read `required`', () => {
    const conditions = BUILT_IN_EVENT_TYPES.flatMap((definition) =>
      definition.versions.flatMap(
        (version) => (version.schema.allOf ?? []) as { then?: Record<string, unknown> }[],
      ),
    );
    const thens = conditions.flatMap((condition) => (condition.then === undefined ? [] : [condition.then]));
    expect(thens.some((then) => Array.isArray(then.required))).toBe(true);
    for (const then of thens) {
      const declared = Object.keys((then.properties ?? {}) as object);
      for (const name of (then.required ?? []) as string[])
        expect(declared, String(then.description)).toContain(name);
    }
  });
});

describe('the webhook of a type with several versions', () => {
  const definition: EventTypeDefinition = {
    type: 'acme.card_settled',
    description: 'A card payment settled.',
    deprecated: true,
    versions: [1, 2].map((version) => ({
      version,
      deprecated: false,
      examples: [{ name: 'one', summary: 'One.', payload: { amount: '1.00' } }],
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { amount: { type: 'string' } },
        properties: { amount: { $ref: '#/$defs/amount' } },
      },
    })),
  };

  it('documents each version, its references pointing into its own component, and the deprecation', () => {
    const { webhooks, schemas } = catalogWebhooks([definition]);
    expect(schemas.AcmeCardSettledPayload).toMatchObject({
      oneOf: [
        { $ref: '#/components/schemas/AcmeCardSettledPayloadV1' },
        { $ref: '#/components/schemas/AcmeCardSettledPayloadV2' },
      ],
    });
    expect(schemas.AcmeCardSettledPayloadV2).toEqual({
      type: 'object',
      $defs: { amount: { type: 'string' } },
      properties: { amount: { $ref: '#/components/schemas/AcmeCardSettledPayloadV2/$defs/amount' } },
    });
    // The catalog's own declaration is left as it was.
    expect(definition.versions[1]?.schema.properties).toEqual({ amount: { $ref: '#/$defs/amount' } });
    expect(webhooks['acme.card_settled']?.post).toMatchObject({
      deprecated: true,
      operationId: 'receiveAcmeCardSettled',
    });
  });
});
