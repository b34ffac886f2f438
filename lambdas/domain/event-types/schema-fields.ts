/**
 * A payload schema read as a table of fields, the way receivers read a contract: each field's path, type,
 * whether it is required, what values it takes and what it means; and the conditions between fields (the
 * descriptions of `if`/`then` rules). The generated `docs/event-types.md` and the portal show these.
 */
import type { JsonSchemaObject } from './model';
import { isSchemaObject } from './schema-walk';

/** One field of a payload. */
export interface SchemaField {
  /** Dotted path from the payload's root (`creditor.iban`); array items as `lines[]`. */
  readonly path: string;
  /** `string`, `object`, `array`, `integer`… (several joined by ` or `); empty when the schema does not say. */
  readonly type: string;
  /** Required whenever its parent object is present (conditional requirements are in the conditions). */
  readonly required: boolean;
  /** The only values it takes (`enum`, `const`), when listed. */
  readonly values?: readonly string[];
  /** Its shape in words when not listed: the title, else the pattern or length bounds; empty when free. */
  readonly shape: string;
  readonly description: string;
}

/** Deepest nesting of objects a table follows; accepted schemas have no recursion, this is a guard. */
const MAX_NESTING = 16;

/** The payload's fields, depth first in declaration order. */
export function schemaFields(schema: JsonSchemaObject): SchemaField[] {
  const fields: SchemaField[] = [];
  collect(schema, schema, '', fields, 0);
  return fields;
}

/** The descriptions of the schema's conditions (`then`/`else` of its `allOf` entries and its own). */
export function schemaConditions(schema: JsonSchemaObject): string[] {
  const nodes = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])];
  return nodes.flatMap((node) =>
    isSchemaObject(node)
      ? [node.then, node.else].flatMap((branch) =>
          isSchemaObject(branch) && typeof branch.description === 'string' ? [branch.description] : [],
        )
      : [],
  );
}

function collect(
  root: JsonSchemaObject,
  node: unknown,
  prefix: string,
  fields: SchemaField[],
  depth: number,
): void {
  const object = resolve(root, node);
  if (object === undefined || depth > MAX_NESTING || !isSchemaObject(object.properties)) return;
  const required = Array.isArray(object.required) ? object.required : [];
  for (const [name, raw] of Object.entries(object.properties)) {
    const property = resolve(root, raw) ?? {};
    const path = prefix === '' ? name : `${prefix}.${name}`;
    fields.push({
      path,
      type: typeOf(property),
      required: required.includes(name),
      ...valuesOf(property),
      shape: shapeOf(property),
      description: typeof property.description === 'string' ? property.description : '',
    });
    collect(root, property, path, fields, depth + 1);
    const items = resolve(root, property.items);
    if (items !== undefined) collect(root, items, `${path}[]`, fields, depth + 1);
  }
}

/** The schema a node stands for, through a local `$ref` (`#/$defs/party`). */
function resolve(root: JsonSchemaObject, node: unknown, hops = 0): JsonSchemaObject | undefined {
  if (!isSchemaObject(node)) return undefined;
  if (typeof node.$ref !== 'string' || !node.$ref.startsWith('#/') || hops > MAX_NESTING) return node;
  let target: unknown = root;
  for (const raw of node.$ref.slice(2).split('/')) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    target =
      isSchemaObject(target) || Array.isArray(target)
        ? (target as Record<string, unknown>)[segment]
        : undefined;
  }
  return resolve(root, target, hops + 1) ?? node;
}

function typeOf(schema: JsonSchemaObject): string {
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  return types.map(String).join(' or ');
}

function valuesOf(schema: JsonSchemaObject): { values?: readonly string[] } {
  if (Array.isArray(schema.enum)) return { values: schema.enum.map(String) };
  return schema.const === undefined ? {} : { values: [String(schema.const)] };
}

function shapeOf(schema: JsonSchemaObject): string {
  if (typeof schema.title === 'string') return schema.title;
  if (typeof schema.pattern === 'string') return `pattern ${schema.pattern}`;
  if (typeof schema.maxLength === 'number') {
    return `${typeof schema.minLength === 'number' ? schema.minLength : 0} to ${schema.maxLength} characters`;
  }
  return '';
}
