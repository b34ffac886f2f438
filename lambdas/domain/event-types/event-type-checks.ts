/**
 * What an operator-registered type (or new version) must be before it is accepted: a valid type name and
 * description; a payload schema that is JSON Schema 2020-12 (checked against the meta-schema), bounded in
 * bytes, depth and expanded size, referring only inside itself and never to itself, with patterns that
 * cannot backtrack for long; and examples that each pass it. The built-in types meet the same rules.
 */
import {
  MAX_EVENT_TYPE_DESCRIPTION_LENGTH,
  MAX_EVENT_TYPE_EXAMPLE_BYTES,
  MAX_EVENT_TYPE_EXAMPLE_SUMMARY_LENGTH,
  MAX_EVENT_TYPE_EXAMPLES,
  MAX_EVENT_TYPE_SCHEMA_BYTES,
  MAX_EVENT_TYPE_SCHEMA_DEPTH,
  MAX_EVENT_TYPE_SCHEMA_EXPANDED_NODES,
  MAX_EVENT_TYPE_UNIQUE_ITEMS,
  MAX_VIOLATIONS_REPORTED,
} from '#config/catalog-limits';
import type { InvalidParam } from '#domain/errors';
import { isEventType, MAX_EVENT_TYPE_LENGTH } from '#domain/event-input';
import { type CompiledSchema, compileSchema } from './compiled-schema';
import { JSON_SCHEMA_DIALECT } from './conventions';
import { META_SCHEMA_2020_12 } from './meta-schema';
import type { EventTypeExample } from './model';
import { patternProblem } from './pattern-checks';
import { schemaViolations } from './payload-validation';
import { childPointer, decodeLocation, isSchemaObject, subschemas } from './schema-walk';

/** What an operator registers: a new type, or a new version of an existing one. */
export interface EventTypeDraft {
  readonly type: string;
  readonly description: string;
  /** The payload's JSON Schema, as received. */
  readonly schema: unknown;
  readonly examples: readonly EventTypeExample[];
}

/**
 * What an operator's `PUT` of a type asks for: a field left undefined keeps what is stored (a new type needs
 * `description`, `schema` and `examples`).
 */
export interface EventTypeWrite {
  readonly type: string;
  readonly description?: string | undefined;
  /** The payload's JSON Schema, as received (checked by {@link eventTypeDraftProblems}). */
  readonly schema?: unknown;
  readonly examples?: readonly EventTypeExample[] | undefined;
  readonly deprecated?: boolean | undefined;
}

/** Example names: keys of the OpenAPI document's examples too. */
const EXAMPLE_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** Keywords the validator does not implement, or implements in an older draft's sense. */
export const REFUSED_KEYWORDS: Readonly<Record<string, string>> = {
  $dynamicRef: 'is not supported: use $ref',
  $dynamicAnchor: 'is not supported: use $anchor and $ref',
  $recursiveRef: 'belongs to draft 2019-09: use $ref',
  $recursiveAnchor: 'belongs to draft 2019-09: use $anchor',
  dependencies: 'belongs to draft 7: use dependentRequired or dependentSchemas',
  $vocabulary: 'is for meta-schemas, not payload schemas',
};

const META = compileSchema(META_SCHEMA_2020_12);

/**
 * What is wrong with a draft, each problem named by where it is (`type`, `description`,
 * `schema/properties/amount/pattern`, `examples/0/payload/amount`): at most
 * {@link MAX_VIOLATIONS_REPORTED}, none when it may be registered.
 */
export function eventTypeDraftProblems(draft: EventTypeDraft): InvalidParam[] {
  const problems: InvalidParam[] = [];
  if (!isEventType(draft.type)) {
    problems.push({
      name: 'type',
      reason: `must be lower-case snake_case segments separated by dots, at most ${MAX_EVENT_TYPE_LENGTH} characters`,
    });
  }
  const description = draft.description.trim();
  if (description === '' || description.length > MAX_EVENT_TYPE_DESCRIPTION_LENGTH) {
    problems.push({
      name: 'description',
      reason: `must have 1 to ${MAX_EVENT_TYPE_DESCRIPTION_LENGTH} characters: what happened, and what a receiver does with it`,
    });
  }
  const compiled = checkSchema(draft.schema, problems);
  checkExamples(draft.examples, compiled, problems);
  return problems.slice(0, MAX_VIOLATIONS_REPORTED);
}

/** Checks a payload schema; answers it compiled when it is acceptable. */
function checkSchema(schema: unknown, problems: InvalidParam[]): CompiledSchema | undefined {
  if (!isSchemaObject(schema)) {
    problems.push({ name: 'schema', reason: 'must be a JSON Schema object' });
    return undefined;
  }
  if (depthOf(schema) > MAX_EVENT_TYPE_SCHEMA_DEPTH) {
    problems.push({ name: 'schema', reason: `must nest at most ${MAX_EVENT_TYPE_SCHEMA_DEPTH} levels deep` });
    return undefined;
  }
  const bytes = utf8Length(JSON.stringify(schema));
  if (bytes > MAX_EVENT_TYPE_SCHEMA_BYTES) {
    problems.push({
      name: 'schema',
      reason: `has ${bytes} bytes as JSON, at most ${MAX_EVENT_TYPE_SCHEMA_BYTES} are allowed`,
    });
    return undefined;
  }
  const before = problems.length;
  for (const { pointer, reason } of schemaViolations(META, schema)) {
    problems.push({ name: `schema${pointer}`, reason: `${reason} (JSON Schema 2020-12)` });
  }
  if (problems.length > before) return undefined;
  checkRoot(schema, problems);
  checkNode(schema, '', { problems, anchors: new Set() });
  if (problems.length > before) return undefined;
  let compiled: CompiledSchema;
  try {
    compiled = compileSchema(schema);
  } catch {
    problems.push({
      name: 'schema',
      reason: 'has an $id or $anchor that is used twice or is not a valid URI',
    });
    return undefined;
  }
  checkReferences(compiled, problems);
  return problems.length > before ? undefined : compiled;
}

function checkRoot(schema: Readonly<Record<string, unknown>>, problems: InvalidParam[]): void {
  if (schema.type !== 'object') {
    problems.push({ name: 'schema/type', reason: 'must be "object": a payload is a JSON object' });
  }
  if (schema.$schema !== undefined && schema.$schema !== JSON_SCHEMA_DIALECT) {
    problems.push({ name: 'schema/$schema', reason: `must be ${JSON_SCHEMA_DIALECT} or absent` });
  }
}

/** Herald's rules on one schema node and, recursively, its subschemas. */
function checkNode(
  node: unknown,
  pointer: string,
  context: { readonly problems: InvalidParam[]; readonly anchors: Set<string> },
): void {
  if (!isSchemaObject(node)) return;
  const { problems, anchors } = context;
  const root = pointer === '';
  const at = (keyword: string) => `schema${childPointer(pointer, keyword)}`;
  if (typeof node.$anchor === 'string') {
    if (anchors.has(node.$anchor))
      problems.push({ name: at('$anchor'), reason: 'names a second schema: anchors are unique' });
    anchors.add(node.$anchor);
  }
  for (const [keyword, reason] of Object.entries(REFUSED_KEYWORDS)) {
    if (keyword in node) problems.push({ name: at(keyword), reason });
  }
  if (!root && '$schema' in node)
    problems.push({ name: at('$schema'), reason: 'is allowed only at the root' });
  if (!root && '$id' in node) problems.push({ name: at('$id'), reason: 'is allowed only at the root' });
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) {
    problems.push({
      name: at('$ref'),
      reason: 'must point inside this schema (start with #): nothing is fetched',
    });
  }
  if (typeof node.pattern === 'string') {
    const problem = patternProblem(node.pattern);
    if (problem !== undefined) problems.push({ name: at('pattern'), reason: problem });
  }
  if (isSchemaObject(node.patternProperties)) {
    for (const name of Object.keys(node.patternProperties)) {
      const problem = patternProblem(name);
      const where = `schema${childPointer(childPointer(pointer, 'patternProperties'), name)}`;
      if (problem !== undefined) problems.push({ name: where, reason: problem });
    }
  }
  if (
    node.uniqueItems === true &&
    !(typeof node.maxItems === 'number' && node.maxItems <= MAX_EVENT_TYPE_UNIQUE_ITEMS)
  ) {
    problems.push({
      name: at('uniqueItems'),
      reason: `needs maxItems of at most ${MAX_EVENT_TYPE_UNIQUE_ITEMS} beside it: checking that items differ compares every pair`,
    });
  }
  for (const [segments, child] of subschemas(node)) {
    checkNode(child, segments.reduce(childPointer, pointer), context);
  }
}

/**
 * Every `$ref` must resolve inside the schema and none may lead back to a schema containing it (the
 * validator would loop, or recurse as deep as the payload); the schema with every `$ref` replaced by its
 * target stays within {@link MAX_EVENT_TYPE_SCHEMA_EXPANDED_NODES} nodes.
 */
function checkReferences(compiled: CompiledSchema, problems: InvalidParam[]): void {
  const { lookup } = compiled;
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const expand = (node: unknown): number => {
    if (!isSchemaObject(node)) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    open.add(node);
    let size = 1;
    const ref = node.__absolute_ref__;
    if (typeof ref === 'string') {
      const target = lookup[ref];
      const where = `schema${locationOf(node)}/$ref`;
      if (target === undefined) problems.push({ name: where, reason: 'points at nothing in this schema' });
      else if (isSchemaObject(target) && open.has(target)) {
        problems.push({
          name: where,
          reason: 'leads back to a schema containing it: recursive schemas are not accepted',
        });
      } else size += expand(target);
    }
    for (const [, child] of subschemas(node)) {
      if (size > MAX_EVENT_TYPE_SCHEMA_EXPANDED_NODES) break;
      size += expand(child);
    }
    open.delete(node);
    sizes.set(node, size);
    return size;
  };
  if (expand(compiled.root) > MAX_EVENT_TYPE_SCHEMA_EXPANDED_NODES) {
    problems.push({
      name: 'schema',
      reason: `has more than ${MAX_EVENT_TYPE_SCHEMA_EXPANDED_NODES} schemas once each $ref is replaced by its target`,
    });
  }
}

function checkExamples(
  examples: readonly EventTypeExample[],
  compiled: CompiledSchema | undefined,
  problems: InvalidParam[],
): void {
  if (examples.length === 0 || examples.length > MAX_EVENT_TYPE_EXAMPLES) {
    problems.push({ name: 'examples', reason: `must have 1 to ${MAX_EVENT_TYPE_EXAMPLES} examples` });
    return;
  }
  const names = new Set<string>();
  for (const [index, example] of examples.entries()) {
    const at = `examples/${index}`;
    if (!EXAMPLE_NAME.test(example.name) || names.has(example.name)) {
      problems.push({
        name: `${at}/name`,
        reason: 'must be unique lower-case snake_case, at most 64 characters',
      });
    }
    names.add(example.name);
    const summary = example.summary.trim();
    if (summary === '' || summary.length > MAX_EVENT_TYPE_EXAMPLE_SUMMARY_LENGTH) {
      problems.push({
        name: `${at}/summary`,
        reason: `must have 1 to ${MAX_EVENT_TYPE_EXAMPLE_SUMMARY_LENGTH} characters`,
      });
    }
    const bytes = utf8Length(JSON.stringify(example.payload) ?? '');
    if (bytes > MAX_EVENT_TYPE_EXAMPLE_BYTES) {
      problems.push({
        name: `${at}/payload`,
        reason: `has ${bytes} bytes as JSON, at most ${MAX_EVENT_TYPE_EXAMPLE_BYTES}`,
      });
    } else if (compiled !== undefined) {
      for (const { pointer, reason } of schemaViolations(compiled, example.payload)) {
        problems.push({ name: `${at}/payload${pointer}`, reason });
      }
    }
  }
}

/** A node's JSON pointer in its document, from the absolute URI the validator gave it. */
function locationOf(node: Readonly<Record<string, unknown>>): string {
  const uri = String(node.__absolute_uri__ ?? '');
  const hash = uri.indexOf('#');
  return hash < 0 ? '' : decodeLocation(uri.slice(hash)).reduce(childPointer, '');
}

/** Deepest nesting of objects and arrays, measured without recursion (the input is not yet bounded). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_EVENT_TYPE_SCHEMA_DEPTH) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
