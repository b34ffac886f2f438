/**
 * A schema prepared for `@cfworker/json-schema`: a private copy (the validator marks the objects it
 * resolves, and the catalog's declarations must stay plain JSON), its references resolved, and every
 * `false` subschema replaced by `{ "not": {} }`, which refuses the same values. The validator reports a
 * failed `false` at the payload's location instead of the schema's, so a refusal could not say which
 * keyword refused (an unknown field, an extra item, a field a condition forbids); a `not` is reported
 * where it is, and the replaced nodes are remembered to word its reason as the `false` it was.
 */
import { dereference, type Schema } from '@cfworker/json-schema';
import type { JsonSchemaObject } from './model';
import { isSchemaObject, type SchemaLookup, subschemas } from './schema-walk';

/** A schema ready to validate with. */
export interface CompiledSchema {
  readonly root: Schema;
  readonly lookup: SchemaLookup;
  /** The `{ "not": {} }` nodes that stand for a `false` of the declaration. */
  readonly falseSchemas: ReadonlySet<object>;
}

/**
 * Prepares a schema.
 *
 * @throws Error when the schema's identifiers clash or cannot be resolved (an operator's schema is
 *   checked for this before it is accepted: `eventTypeDraftProblems`)
 */
export function compileSchema(schema: JsonSchemaObject): CompiledSchema {
  const root = structuredClone(schema) as Schema;
  const falseSchemas = new Set<object>();
  replaceFalse(root, falseSchemas);
  return { root, lookup: dereference(root), falseSchemas };
}

function replaceFalse(node: unknown, replaced: Set<object>): void {
  if (!isSchemaObject(node)) return;
  for (const [segments, child] of subschemas(node)) {
    if (child === false) {
      const container = (segments.length === 1 ? node : node[segments[0] as string]) as Record<
        string,
        unknown
      >;
      const stand = { not: {} };
      replaced.add(stand);
      container[segments.at(-1) as string] = stand;
    } else replaceFalse(child, replaced);
  }
}
