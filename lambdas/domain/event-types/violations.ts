/**
 * A validator's raw findings turned into what a publisher can act on: one violation per problem, at the
 * JSON pointer of the payload field, with a reason in words built from the schema itself (its `title` and
 * example, its enum, its bounds) and the condition that applied (a `then` schema's `description`). Reasons
 * never quote the payload's values: they may be personal data, and an answer may be logged.
 */
import type { OutputUnit } from '@cfworker/json-schema';
import { truncateText } from '#domain/truncate';
import type { CompiledSchema } from './compiled-schema';
import {
  childPointer,
  instancePointer,
  isSchemaObject,
  type LocationStep,
  type SchemaNode,
  valueAt,
  walkLocation,
} from './schema-walk';

/** One problem of a payload: where (RFC 6901 pointer into the payload, `''` for the whole) and why. */
export interface PayloadViolation {
  readonly pointer: string;
  readonly reason: string;
}

/** Errors that only say "a subschema failed": the failing subschema's own errors follow them. */
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  '$ref',
  '$recursiveRef',
  'allOf',
  'if',
  'dependentSchemas',
]);

/** Longest piece of a schema's own text (a title, a condition's description) quoted in a reason. */
const QUOTED_TEXT_MAX = 200;

/** Most enum values a reason lists. */
const LISTED_VALUES_MAX = 12;

/**
 * The violations of a payload, in the validator's order, duplicates dropped. `errors` is the complete
 * output (not short-circuited) of validating `payload` against `root`. Errors that yield no violation of
 * their own still make one at the root: an invalid payload is never let through for want of words.
 */
export function violationsOf(
  errors: readonly OutputUnit[],
  schema: CompiledSchema,
  payload: unknown,
): PayloadViolation[] {
  const found = new Map<string, PayloadViolation>();
  const add = (pointer: string, reason: string) =>
    found.set(`${pointer}\u0000${reason}`, { pointer, reason });
  // Inside a failed anyOf/oneOf the branches' errors would contradict each other; inside propertyNames
  // they are about a field's name, which the pointer cannot show.
  const scopes: { prefix: string; names: boolean }[] = [];
  for (const error of errors) {
    const scope = scopes.find((open) => error.keywordLocation.startsWith(`${open.prefix}/`));
    if (scope !== undefined) {
      if (scope.names) add(instancePointer(error.instanceLocation), 'is not an allowed field name');
      continue;
    }
    if (error.keyword === 'propertyNames') scopes.push({ prefix: error.keywordLocation, names: true });
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      scopes.push({ prefix: error.keywordLocation, names: false });
    }
    if (WRAPPERS.has(error.keyword) || error.keyword === 'propertyNames') continue;
    const steps = walkLocation(schema.root, schema.lookup, error.keywordLocation);
    // Items that did not match `contains` are not faults: the array's count of matches is.
    if (steps.slice(0, -1).some((step) => step.keyword && step.segment === 'contains')) continue;
    for (const { pointer, reason } of describe(error, steps, schema.falseSchemas, payload)) {
      add(pointer, withCondition(reason, steps));
    }
  }
  if (found.size === 0 && errors.length > 0) add('', 'does not match its schema');
  return [...found.values()];
}

/** The violations one leaf error stands for (a `required` error may stand for several missing fields). */
function describe(
  error: OutputUnit,
  steps: readonly LocationStep[],
  falseSchemas: ReadonlySet<object>,
  payload: unknown,
): PayloadViolation[] {
  const pointer = instancePointer(error.instanceLocation);
  const holder = schemaBefore(steps, 1);
  const schema = isSchemaObject(holder) ? holder : {};
  if (error.keyword === 'not' && falseSchemas.has(schema))
    return [{ pointer, reason: notAllowed(steps.slice(0, -1)) }];
  switch (error.keyword) {
    case 'required':
      return missing(payload, pointer, schema.required).map((name) => ({
        pointer: childPointer(pointer, name),
        reason: 'is required',
      }));
    case 'dependentRequired':
      return dependentMissing(payload, pointer, schema.dependentRequired);
    default:
      return [{ pointer, reason: reasonFor(error.keyword, schema, payload, pointer) }];
  }
}

/** The keywords that bound a number, and how a refusal says the bound: "must be at least 1". */
const NUMBER_BOUNDS: Readonly<Record<string, string>> = {
  minimum: 'at least',
  maximum: 'at most',
  exclusiveMinimum: 'greater than',
  exclusiveMaximum: 'less than',
  multipleOf: 'a multiple of',
};

/**
 * The keywords that bound a count, and how a refusal says it: the bound, what is counted, and what
 * follows ("must have at most 35 characters", "must contain at least 1 item its schema describes").
 */
const COUNT_BOUNDS: Readonly<Record<string, readonly [bound: string, noun: string, after?: string]>> = {
  minLength: ['have at least', 'character'],
  maxLength: ['have at most', 'character'],
  minItems: ['have at least', 'item'],
  maxItems: ['have at most', 'item'],
  minContains: ['contain at least', 'item', ' its schema describes'],
  maxContains: ['contain at most', 'item', ' its schema describes'],
  minProperties: ['have at least', 'field'],
  maxProperties: ['have at most', 'field'],
};

/** The reason of a keyword that failed on the value at `pointer`, from its schema. */
function reasonFor(
  keyword: string,
  schema: Record<string, unknown>,
  payload: unknown,
  pointer: string,
): string {
  const value = schema[keyword];
  const bound = NUMBER_BOUNDS[keyword];
  if (bound !== undefined) return `must be ${bound} ${shown(value)}`;
  const counted = COUNT_BOUNDS[keyword];
  if (counted !== undefined) return `must ${counted[0]} ${count(value, counted[1])}${counted[2] ?? ''}`;
  const hinted = hint(schema);
  switch (keyword) {
    case 'type': {
      const expected = (Array.isArray(value) ? value : [value]).map((type) => typeWord(String(type)));
      return `must be ${expected.join(' or ')}${hinted === undefined ? '' : ` (${hinted})`}, not ${actualType(valueAt(payload, pointer))}`;
    }
    case 'pattern':
      return hinted === undefined
        ? `must match the pattern ${String(value)}`
        : `must match the pattern of ${hinted}`;
    case 'format':
      return value === 'date'
        ? 'must be a date that exists in the calendar (YYYY-MM-DD)'
        : `must be a valid ${String(value)}`;
    case 'enum':
      if (!Array.isArray(value)) break;
      if (value.length === 1) return `must be ${shown(value[0])}`;
      return value.length <= LISTED_VALUES_MAX
        ? `must be one of ${value.map(shown).join(', ')}`
        : `must be one of the ${value.length} values its schema lists`;
    case 'const':
      return `must be ${shown(value)}`;
    case 'uniqueItems':
      return 'must not repeat an item';
    case 'contains':
      return 'must contain an item its schema describes';
    case 'not':
      return 'must not have the shape its schema excludes';
    case 'anyOf':
      return hinted === undefined
        ? 'must match at least one of the shapes its schema allows'
        : `must be ${hinted}`;
    case 'oneOf':
      return hinted === undefined
        ? 'must match exactly one of the shapes its schema allows'
        : `must be ${hinted}`;
  }
  return `does not match its schema (${keyword})`;
}

/**
 * Why a `false` schema refused the value: an unknown field, an extra item, or a field a condition forbids.
 * `steps` end at the `false` schema; the last keyword among them applied it.
 */
function notAllowed(steps: readonly LocationStep[]): string {
  const at = steps.findLastIndex((step) => step.keyword);
  const applicator = steps[at]?.segment;
  if (applicator === 'additionalProperties' || applicator === 'unevaluatedProperties') {
    const parent = steps[at - 1]?.schema;
    const names =
      isSchemaObject(parent) && isSchemaObject(parent.properties) ? Object.keys(parent.properties) : [];
    if (names.length === 0) return 'is not a field of this object';
    if (names.length > LISTED_VALUES_MAX)
      return `is not a field of this object (it has ${names.length} fields)`;
    return `is not a field of this object (its fields: ${names.join(', ')})`;
  }
  if (applicator === 'items' || applicator === 'prefixItems' || applicator === 'unevaluatedItems') {
    return 'is an item this array does not allow';
  }
  return 'is not allowed here';
}

/** Adds the condition that applied, quoting the innermost `then`/`else` schema's description. */
function withCondition(reason: string, steps: readonly LocationStep[]): string {
  const branch = [...steps]
    .reverse()
    .find((step) => step.keyword && (step.segment === 'then' || step.segment === 'else'));
  const description = isSchemaObject(branch?.schema) ? branch.schema.description : undefined;
  if (typeof description !== 'string' || description.trim() === '') return reason;
  const sentence = description.trim().replace(/\.$/, '');
  // "A rejected transfer…" reads as a clause once lower-cased; "IBAN is…" keeps its capitals.
  const clause = /^[A-Z][a-z ]/.test(sentence) ? sentence[0]?.toLowerCase() + sentence.slice(1) : sentence;
  return `${reason} (${truncateText(clause, QUOTED_TEXT_MAX)})`;
}

/**
 * The schema `back` steps before the end of the location: 1 is the schema holding the failed keyword (or,
 * for a `false` schema, the one holding the keyword that applied it).
 */
function schemaBefore(steps: readonly LocationStep[], back: number): SchemaNode | undefined {
  return steps[steps.length - 1 - back]?.schema;
}

/** "a positive decimal amount like 12.50", from a schema's `title` and first example. */
function hint(schema: Record<string, unknown>): string | undefined {
  if (typeof schema.title !== 'string' || schema.title.trim() === '') return undefined;
  const title = truncateText(schema.title.trim(), QUOTED_TEXT_MAX);
  const example = Array.isArray(schema.examples) ? schema.examples[0] : undefined;
  return typeof example === 'string' || typeof example === 'number'
    ? `${title} like ${shown(example)}`
    : title;
}

function missing(payload: unknown, pointer: string, required: unknown): string[] {
  const object = valueAt(payload, pointer);
  if (!Array.isArray(required) || typeof object !== 'object' || object === null) return [];
  return required.filter((name): name is string => typeof name === 'string' && !Object.hasOwn(object, name));
}

function dependentMissing(payload: unknown, pointer: string, rules: unknown): PayloadViolation[] {
  const object = valueAt(payload, pointer);
  if (!isSchemaObject(rules) || typeof object !== 'object' || object === null) return [];
  return Object.entries(rules)
    .filter(([name]) => Object.hasOwn(object, name))
    .flatMap(([name, needed]) =>
      missing(payload, pointer, needed).map((other) => ({
        pointer: childPointer(pointer, other),
        reason: `is required when ${name} is present`,
      })),
    );
}

function typeWord(type: string): string {
  const words: Record<string, string> = {
    string: 'a string',
    number: 'a number',
    integer: 'an integer',
    boolean: 'true or false',
    object: 'an object',
    array: 'an array',
    null: 'null',
  };
  return words[type] ?? type;
}

function actualType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number with a fraction';
  return typeWord(typeof value);
}

/** A schema's value as a reason shows it: strings bare, anything else as JSON, cut when long. */
function shown(value: unknown): string {
  return truncateText(typeof value === 'string' ? value : JSON.stringify(value), QUOTED_TEXT_MAX);
}

function count(value: unknown, noun: string): string {
  return `${shown(value)} ${noun}${value === 1 ? '' : 's'}`;
}
