/**
 * Where the subschemas of a JSON Schema 2020-12 document are, and following a schema location (a JSON
 * pointer through keywords, field names and `$ref`s) to the schema it names. Pure data walking: nothing
 * here evaluates a schema.
 */

/** A schema node as the validator holds it: an object, or `true`/`false`. */
export type SchemaNode = { readonly [keyword: string]: unknown } | boolean;

/** Schemas by their absolute URI, as `@cfworker/json-schema`'s `dereference` collects them. */
export type SchemaLookup = Readonly<Record<string, SchemaNode>>;

/** Keywords whose value is one subschema. */
const SINGLE = new Set([
  'items',
  'contains',
  'additionalProperties',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
  'additionalItems',
]);

/** Keywords whose value is an array of subschemas. */
const ARRAY = new Set(['prefixItems', 'allOf', 'anyOf', 'oneOf']);

/** Keywords whose value maps names to subschemas. */
const MAP = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/** Whether the value is a schema object (not `true`/`false`, not an array). */
export function isSchemaObject(value: unknown): value is { readonly [keyword: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The direct subschemas of a schema object, each with the pointer segments from the node to it
 * (`['properties', 'amount']`). `$ref` targets are not followed: they are where they are declared.
 */
export function* subschemas(node: SchemaNode): Generator<readonly [readonly string[], unknown]> {
  if (!isSchemaObject(node)) return;
  for (const [keyword, value] of Object.entries(node)) {
    if (SINGLE.has(keyword)) yield [[keyword], value];
    else if (ARRAY.has(keyword) && Array.isArray(value)) {
      for (const [index, item] of value.entries()) yield [[keyword, String(index)], item];
    } else if (MAP.has(keyword) && isSchemaObject(value)) {
      for (const [name, item] of Object.entries(value)) yield [[keyword, name], item];
    }
  }
}

/** One step of a schema location: the segment, and the schema reached when the segment ends at one. */
export interface LocationStep {
  readonly segment: string;
  /** The schema the location reaches after this segment, or undefined when the segment is a keyword's inner name or index. */
  readonly schema: SchemaNode | undefined;
  /** Whether the segment is a keyword of the schema before it (not a field name or an index). */
  readonly keyword: boolean;
}

/**
 * Follows a validator's keyword location (`#/properties/creditor/$ref/required`, segments URI-encoded
 * and `~`-escaped) from `root`, through `$ref`s by `lookup`. The first step is the root (segment `''`);
 * each next one says whether its segment was a keyword and which schema it reached. A location that
 * leaves the schema ends the walk early.
 */
export function walkLocation(root: SchemaNode, lookup: SchemaLookup, location: string): LocationStep[] {
  const steps: LocationStep[] = [{ segment: '', schema: root, keyword: false }];
  let current: unknown = root;
  let pending: 'name' | 'index' | undefined;
  for (const segment of decodeLocation(location)) {
    if (pending !== undefined) {
      const container = current as Record<string, unknown> | readonly unknown[];
      current =
        pending === 'index'
          ? (container as readonly unknown[])[Number(segment)]
          : (container as Record<string, unknown>)[segment];
      pending = undefined;
      steps.push({ segment, schema: asSchema(current), keyword: false });
      continue;
    }
    if (!isSchemaObject(current)) break;
    const value =
      segment === '$ref' ? lookup[String(current.__absolute_ref__ ?? current.$ref)] : current[segment];
    if (ARRAY.has(segment)) pending = 'index';
    else if (MAP.has(segment)) pending = 'name';
    current = value;
    steps.push({ segment, schema: pending === undefined ? asSchema(value) : undefined, keyword: true });
  }
  return steps;
}

/** A keyword location's segments, decoded: `#/a~1b/c%20d` → `['a/b', 'c d']`. */
export function decodeLocation(location: string): string[] {
  const path = location.startsWith('#') ? location.slice(1) : location;
  if (path === '') return [];
  return path
    .split('/')
    .slice(1)
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A JSON pointer (RFC 6901) from a validator's instance location (`#/creditor/iban` → `/creditor/iban`). */
export function instancePointer(location: string): string {
  return decodeURIComponent(location.startsWith('#') ? location.slice(1) : location);
}

/** The JSON pointer of a field `name` inside the object at `pointer`. */
export function childPointer(pointer: string, name: string): string {
  return `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** The value at a JSON pointer of `document`, or undefined. */
export function valueAt(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let current = document;
  for (const raw of pointer.split('/').slice(1)) {
    const name = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, name)) return undefined;
    current = (current as Record<string, unknown>)[name];
  }
  return current;
}

function asSchema(value: unknown): SchemaNode | undefined {
  return typeof value === 'boolean' || isSchemaObject(value) ? value : undefined;
}
