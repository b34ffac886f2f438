/**
 * One webhook per type of the built-in catalog in the OpenAPI document: the webhook body the API
 * documents with `type` fixed to the type's name and `payload` its payload schema (every version's, the
 * latest last), so a client generated from `GET /openapi.json` has a typed payload per type. The
 * document is static and public: the operators' types are not in it (they are shown, with their
 * schemas, by `GET /event-types`, behind an API key).
 */
import type { EventTypeDefinition, JsonSchemaObject } from '#domain/event-types/model';
import { isSchemaObject, subschemas } from '#domain/event-types/schema-walk';
import { closed, constant, type JsonSchema, ref, type Schema } from '#http/schema';
import type { PathItemObject } from './objects';
import { json } from './objects';
import { WEBHOOK_FIELDS, WEBHOOKS } from './webhooks';

/** The webhooks of a catalog and the components they refer to. */
export interface CatalogWebhooks {
  readonly webhooks: Readonly<Record<string, PathItemObject>>;
  readonly schemas: Readonly<Record<string, JsonSchema>>;
}

/** `credit_received` → `CreditReceived`, `acme.card_settled` → `AcmeCardSettled`. */
export function componentName(type: string): string {
  return type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/**
 * The webhook of each type, keyed by the type's name, with the components `<Name>Payload` (a version's
 * schema, or a `oneOf` of `<Name>PayloadV<n>` when the type has several) and `<Name>Webhook` (the body).
 */
export function catalogWebhooks(definitions: readonly EventTypeDefinition[]): CatalogWebhooks {
  const webhooks: Record<string, PathItemObject> = {};
  const schemas: Record<string, JsonSchema> = {};
  const generic = WEBHOOKS.event?.post;
  if (generic === undefined) throw new Error('the document has no generic event webhook');
  for (const definition of definitions) {
    const name = componentName(definition.type);
    const payload = payloadSchema(definition, name, schemas);
    schemas[`${name}Payload`] = payload;
    const body = closed(
      { ...WEBHOOK_FIELDS, type: constant(definition.type), payload: ref(`${name}Payload`, payload) },
      `The body of a \`${definition.type}\` webhook.`,
    );
    schemas[`${name}Webhook`] = body;
    const versions = definition.versions.map((version) => version.version).join(', ');
    webhooks[definition.type] = {
      post: {
        ...generic,
        operationId: `receive${name}`,
        summary: `A \`${definition.type}\` event`,
        description:
          `${definition.description}\n\nVersions: ${versions} (the latest is the default of a publish); ` +
          `examples in \`GET /event-types/${definition.type}\`. Headers, signatures and retries as for the ` +
          '`event` webhook.',
        ...(definition.deprecated ? { deprecated: true } : {}),
        requestBody: { required: true, content: json(ref(`${name}Webhook`, body)) },
      },
    };
  }
  return { webhooks, schemas };
}

/** The payload's schema: the one version's, or a `oneOf` of each version's (added to `schemas`). */
function payloadSchema(
  definition: EventTypeDefinition,
  name: string,
  schemas: Record<string, JsonSchema>,
): Schema<Readonly<Record<string, unknown>>> {
  const [only, ...more] = definition.versions;
  if (only !== undefined && more.length === 0) return embedded(only.schema, `${name}Payload`);
  return {
    description: `The payload of \`${definition.type}\`: one of its versions' (by the event's version).`,
    oneOf: definition.versions.map((version) => {
      const component = `${name}PayloadV${version.version}`;
      schemas[component] = embedded(version.schema, component);
      return { $ref: `#/components/schemas/${component}` };
    }),
  };
}

/**
 * A payload schema as a component of the document: `$schema` left out (the document's dialect applies)
 * and every `$ref` inside it pointing where the component is. Its whole-payload examples stay with
 * `GET /event-types`: OpenAPI linters check an object's examples as if no subschema (a condition's
 * `then`) could leave fields to its parent, and would refuse valid ones.
 */
function embedded(schema: JsonSchemaObject, component: string): Schema<Readonly<Record<string, unknown>>> {
  const { $schema: _dialect, ...rest } = structuredClone(schema) as Record<string, unknown>;
  relocateRefs(rest, `#/components/schemas/${component}`);
  return rest;
}

function relocateRefs(node: unknown, base: string): void {
  if (!isSchemaObject(node)) return;
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#'))
    (node as Record<string, unknown>).$ref = base + ref.slice(1);
  for (const [, child] of subschemas(node)) relocateRefs(child, base);
}
