/**
 * A request's JSON body and query read by their declared schemas (`schema.ts`): what is checked is what
 * the OpenAPI document shows, and every refusal is a `ValidationError` naming the field or parameter and
 * what it allows. Unknown fields and parameters are refused, not ignored, so a typo answers 400 instead
 * of being silently dropped.
 *
 * Values are checked by `@cfworker/json-schema`, a small interpreting JSON Schema validator (the same
 * one can check schemas Herald does not write itself). `format` stays an annotation, as JSON Schema
 * 2020-12 makes it: where a format matters (a webhook URL) the domain checks it, and names what is wrong
 * more precisely than "not a URI".
 */
import { Validator } from '@cfworker/json-schema';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ValidationError } from '#domain/errors';
import { isItemsApart, type RequestBody, reasonOf, type Schema, targetOf } from '#http/schema';

/** Canonical decimal only: no sign, exponent, fraction, blank or leading zero. */
const WHOLE_NUMBER = /^(0|[1-9][0-9]*)$/;

/**
 * The JSON object body of a request, checked against its declared schema. An optional body may be
 * absent (or blank): it reads as `{}`.
 *
 * @throws ValidationError naming `body` when it is not a JSON object, else the first unknown field, else
 *   the first field (in the schema's order) that is missing or does not conform
 */
export function readBody<T>(event: APIGatewayProxyEvent, declared: RequestBody<T>): T {
  const text = event.body?.trim() ? event.body : undefined;
  let value: unknown = {};
  if (text !== undefined || declared.required) {
    try {
      value = JSON.parse(text ?? '');
    } catch {
      throw new ValidationError('body', 'must be a JSON object');
    }
  }
  return readBodyValue(value, declared);
}

/**
 * A parsed JSON value checked as {@link readBody} checks a body: also an item of a list read apart
 * (`itemsApart`), which its route reads by the schema of its own single request.
 *
 * @throws ValidationError naming `body` when it is not a JSON object, else the first unknown field, else
 *   the first field (in the schema's order) that is missing or does not conform
 */
export function readBodyValue<T>(value: unknown, declared: RequestBody<T>): T {
  const given = declared.content['application/json'].schema;
  // A body may be a component of the document, given by reference.
  const schema = targetOf(given) ?? given;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError('body', 'must be a JSON object');
  }
  const properties = propertiesOf(schema);
  const unknown = Object.keys(value).find((name) => !Object.hasOwn(properties, name));
  if (unknown !== undefined) {
    throw new ValidationError(unknown, `unknown field; allowed: ${Object.keys(properties).join(', ')}`);
  }
  return checkFields(value as Record<string, unknown>, schema) as T;
}

/**
 * The query of a request (API Gateway's `multiValueQueryStringParameters`, already percent-decoded),
 * checked against its declared object schema. Each parameter may be given once; an integer must be
 * written in canonical decimal (`5`, not `05`, `+5`, `5.0` or `5e0`), so each page has exactly one URL
 * and caches see no aliases; a boolean is `true` or `false`.
 *
 * @throws ValidationError naming the first unknown parameter (in sorted order), else the first repeated
 *   one, else the first (in the schema's order) that does not conform
 */
export function readQuery<T>(
  multi: APIGatewayProxyEvent['multiValueQueryStringParameters'],
  schema: Schema<T>,
): T {
  const entries = Object.entries(multi ?? {}).filter(
    (entry): entry is [string, string[]] => entry[1] !== undefined && entry[1].length > 0,
  );
  const properties = propertiesOf(schema);
  const unknown = entries.map(([name]) => name).filter((name) => !Object.hasOwn(properties, name));
  const firstUnknown = unknown.sort()[0];
  if (firstUnknown !== undefined) {
    throw new ValidationError(
      firstUnknown,
      `unknown parameter; allowed: ${Object.keys(properties).join(', ')}`,
    );
  }
  const values: Record<string, unknown> = {};
  for (const [name, [text = '', ...rest]] of entries) {
    if (rest.length > 0) throw new ValidationError(name, 'given more than once');
    values[name] = fromText(name, text, properties[name] ?? {});
  }
  return checkFields(values, schema) as T;
}

function propertiesOf(schema: Schema): Readonly<Record<string, Schema>> {
  return (schema.properties ?? {}) as Readonly<Record<string, Schema>>;
}

/** Each property of the schema, in its order: present ones must conform, required ones be present. */
function checkFields(value: Record<string, unknown>, schema: Schema): Record<string, unknown> {
  const required = new Set((schema.required ?? []) as readonly string[]);
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    const item = value[name];
    if (item === undefined ? required.has(name) : !conforms(property, item)) {
      throw new ValidationError(name, refusal(property));
    }
  }
  return value;
}

/** A query parameter's text as the JSON value its schema describes (an integer, a boolean, or the text). */
function fromText(name: string, text: string, schema: Schema): unknown {
  const type = typesOf(schema)[0];
  if (type === 'integer') {
    const value = WHOLE_NUMBER.test(text) ? Number(text) : Number.NaN;
    if (Number.isSafeInteger(value)) return value;
  } else if (type === 'boolean') {
    if (text === 'true' || text === 'false') return text === 'true';
  } else {
    return text;
  }
  throw new ValidationError(name, refusal(schema));
}

const validators = new WeakMap<Schema, Validator>();

/** Whether the value conforms to the schema. */
function conforms(schema: Schema, value: unknown): boolean {
  // A list past its bound is refused before the validator sees it: `uniqueItems` compares every pair.
  if (Array.isArray(value) && typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
    return false;
  }
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = new Validator(forChecking(schema) as object, '2020-12');
    validators.set(schema, validator);
  }
  return validator.validate(value).valid;
}

/**
 * The schema as the validator reads it: `$ref`s replaced by their targets, `format` left out (see above),
 * and the items of a list read apart left to its route.
 */
function forChecking(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forChecking);
  if (typeof node !== 'object' || node === null) return node;
  const target = targetOf(node as Schema);
  const copy: Record<string, unknown> = target === undefined ? {} : { ...(forChecking(target) as object) };
  for (const [keyword, item] of Object.entries(node)) {
    if (keyword === '$ref' && target !== undefined) continue;
    if (keyword === 'items' && isItemsApart(node as Schema)) continue;
    if (keyword !== 'format') copy[keyword] = forChecking(item);
  }
  return copy;
}

/**
 * What a refusal of the schema's values says: the reason it was given, else one read from its keywords
 * (`must be one of a, b`, `must be an integer from 1 to 100`, `must be a string of 1 to 100 characters`…).
 */
export function refusal(schema: Schema): string {
  const target = targetOf(schema);
  const explicit = reasonOf(schema) ?? (target === undefined ? undefined : reasonOf(target));
  return explicit ?? fromKeywords(target ?? schema);
}

function fromKeywords(schema: Schema): string {
  const values = schema.enum;
  if (Array.isArray(values)) return `must be one of ${values.join(', ')}`;
  if ('const' in schema) return `must be ${JSON.stringify(schema.const)}`;
  const orNull = typesOf(schema).includes('null') ? ', or null' : '';
  const { minimum, maximum, minLength, maxLength, pattern } = schema;
  switch (typesOf(schema).find((type) => type !== 'null')) {
    case 'integer':
      return `must be an integer${range(minimum, maximum)}${orNull}`;
    case 'number':
      return `must be a number${range(minimum, maximum)}${orNull}`;
    case 'boolean':
      return `must be true or false${orNull}`;
    case 'string':
      if (typeof pattern === 'string') return `must match ${pattern}${orNull}`;
      if (typeof minLength === 'number' && typeof maxLength === 'number') {
        return `must be a string of ${minLength} to ${maxLength} characters${orNull}`;
      }
      if (typeof maxLength === 'number')
        return `must be a string of at most ${maxLength} characters${orNull}`;
      return `${minLength === undefined ? 'must be a string' : 'must be a non-empty string'}${orNull}`;
    case 'object':
      return `must be a JSON object${orNull}`;
    case 'array':
      return `must be a list${orNull}`;
    default:
      return 'is not allowed here';
  }
}

/** ` from 1 to 100`, ` of 0 or more`, ` of at most 5`, or nothing. */
function range(minimum: unknown, maximum: unknown): string {
  if (typeof minimum === 'number' && typeof maximum === 'number') return ` from ${minimum} to ${maximum}`;
  if (typeof minimum === 'number') return ` of ${minimum} or more`;
  if (typeof maximum === 'number') return ` of at most ${maximum}`;
  return '';
}

function typesOf(schema: Schema): readonly unknown[] {
  const type = schema.type;
  return Array.isArray(type) ? type : type === undefined ? [] : [type];
}
