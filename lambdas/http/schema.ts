/**
 * The HTTP contract's vocabulary: JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) written with
 * typed builders, so each request body, query and answer is declared once. From one declaration come its
 * TypeScript type ({@link Static}), the checks of a request (`read-request.ts`) and its place in the
 * OpenAPI document (`openapi/`, which serves the schemas as they are). A schema is plain data: what
 * Herald adds to it (optional, a refusal's wording, a `$ref`'s target) is kept in non-enumerable
 * symbol properties, which neither `JSON.stringify`, a spread, a comparison nor a validator sees; the
 * builders here carry them over. Patterns come from the domain's own regular expressions
 * where one exists, so the document cannot drift from what the code accepts and renders.
 */
import { MAX_ATTEMPTS } from '#config/delivery';
import { EVENT_TYPE_PATTERN, EVENT_TYPE_REASON, MAX_EVENT_TYPE_LENGTH } from '#domain/event-input';
import { ENDPOINT_ID_PATTERN, EVENT_ID_PATTERN } from '#domain/ids';
import { WEBHOOK_STATUSES } from '#domain/model';

declare const STATIC: unique symbol;
/** Marks a property of {@link closed} that may be absent. */
const OPTIONAL: unique symbol = Symbol('optional');
/** The reason a refusal of the value gives, when the keywords alone would say it badly. */
const REASON: unique symbol = Symbol('reason');
/** The schema a `$ref` points at, so a request's check can follow it. */
const TARGET: unique symbol = Symbol('target');
/** Marks a list whose items a request's check leaves to the route (see {@link itemsApart}). */
const APART: unique symbol = Symbol('apart');

/** A JSON Schema as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A JSON Schema that describes values of type `T`. */
export interface Schema<T = unknown> {
  /** Type-level only: never present. */
  readonly [STATIC]?: T;
  readonly [OPTIONAL]?: true;
  readonly [REASON]?: string;
  readonly [TARGET]?: Schema;
  readonly [APART]?: true;
  readonly [keyword: string]: unknown;
}

/** The type of the values a schema describes. */
export type Static<S> = S extends Schema<infer T> ? T : never;

/** A property that may be absent (see {@link optional}). */
export interface Optional {
  readonly [OPTIONAL]: true;
}

type Shape = { readonly [name: string]: Schema };
type OptionalKeys<P extends Shape> = { [K in keyof P]: P[K] extends Optional ? K : never }[keyof P];
type Flat<T> = { [K in keyof T]: T[K] };
/** The value of a {@link closed} object: each property required unless it is {@link Optional}. */
export type ObjectOf<P extends Shape> = Flat<
  { readonly [K in Exclude<keyof P, OptionalKeys<P>>]: Static<P[K]> } & {
    readonly [K in OptionalKeys<P>]?: Static<P[K]>;
  }
>;

/** How every timestamp is rendered (see `renderTimestamp`): UTC, whole seconds, no zone suffix. */
const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';

type Mark = typeof OPTIONAL | typeof REASON | typeof TARGET | typeof APART;
const MARKS: readonly Mark[] = [OPTIONAL, REASON, TARGET, APART];

/** A copy of the schema with more keywords and marks, keeping the marks it had. */
function extend<S extends Schema>(
  schema: S,
  keywords: JsonSchema,
  marks: { readonly [M in Mark]?: Schema[M] } = {},
): S {
  const copy = { ...schema, ...keywords };
  for (const mark of MARKS) {
    const value = marks[mark] ?? schema[mark];
    if (value !== undefined) Object.defineProperty(copy, mark, { value, enumerable: false });
  }
  return copy;
}

/** The property of a {@link closed} object may be absent. */
export const optional = <S extends Schema>(schema: S): S & Optional =>
  extend(schema, {}, { [OPTIONAL]: true }) as S & Optional;

const isOptional = (schema: Schema): boolean => OPTIONAL in schema;

/** The schema, refused with this reason (instead of one derived from its keywords, see `read-request.ts`). */
export const withReason = <S extends Schema>(schema: S, reason: string): S =>
  extend(schema, {}, { [REASON]: reason });

/** The reason given with the schema, if any. */
export const reasonOf = (schema: Schema): string | undefined => schema[REASON];

/** A `$ref` to the component schema `name`, which is `target`. */
export const ref = <T>(name: string, target: Schema<T>): Schema<T> =>
  extend({ $ref: `#/components/schemas/${name}` }, {}, { [TARGET]: target });

/** The schema a {@link ref} points at. */
export const targetOf = (schema: Schema): Schema | undefined => schema[TARGET];

/** The schema, marked deprecated in the document. */
export const deprecated = <T>(schema: Schema<T>): Schema<T> => extend(schema, { deprecated: true });

/** The schema with a description of its own (e.g. a `$ref` that says what it is for here). */
export const described = <T>(schema: Schema<T>, description: string): Schema<T> =>
  extend(schema, { description });

/**
 * A closed object (unknown properties are refused). Its properties are required unless wrapped in
 * {@link optional}; every view Herald renders has a fixed shape.
 */
export const closed = <P extends Shape>(properties: P, description?: string): Schema<ObjectOf<P>> =>
  object(properties, description, { additionalProperties: false });

/** An object that may carry more than its properties (extension members), else as {@link closed}. */
export const open = <P extends Shape>(properties: P, description?: string): Schema<ObjectOf<P>> =>
  object(properties, description, {});

function object<P extends Shape>(
  properties: P,
  description: string | undefined,
  more: JsonSchema,
): Schema<ObjectOf<P>> {
  const required = Object.keys(properties).filter((name) => !isOptional(properties[name] ?? {}));
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    ...more,
    ...(required.length === 0 ? {} : { required }),
    properties,
  };
}

/** A string. */
export const string = (more: JsonSchema = {}): Schema<string> => ({ type: 'string', ...more });
/** A string, described. */
export const text = (description: string, more: JsonSchema = {}): Schema<string> =>
  string({ ...more, description });
/** An integer of `minimum` or more. */
export const int = (description: string, minimum: number, more: JsonSchema = {}): Schema<number> => ({
  type: 'integer',
  minimum,
  ...more,
  description,
});
/** A number of `minimum` or more. */
export const num = (description: string, minimum: number, more: JsonSchema = {}): Schema<number> => ({
  type: 'number',
  minimum,
  ...more,
  description,
});
/** `true` or `false`. */
export const flag = (description: string): Schema<boolean> => ({ type: 'boolean', description });
/** One of a fixed list of strings. */
export const oneOfValues = <const V extends readonly string[]>(
  values: V,
  description?: string,
): Schema<V[number]> => ({
  type: 'string',
  enum: [...values],
  ...(description === undefined ? {} : { description }),
});
/** Exactly this value. */
export const constant = <const V extends string | number | boolean>(value: V): Schema<V> => ({
  const: value,
});
/** A list of the items. */
export const array = <T>(items: Schema<T>, more: JsonSchema = {}): Schema<readonly T[]> => ({
  type: 'array',
  items,
  ...more,
});
/**
 * A list of the items whose request check reads only the list itself (its type and `minItems` /
 * `maxItems`): the route reads each item on its own by the items' schema, so that one bad item refuses
 * itself, not the whole request (a batch's entries). The document shows the items' schema; the value
 * read is a list of unchecked items.
 */
export const itemsApart = <T>(items: Schema<T>, more: JsonSchema): Schema<readonly unknown[]> =>
  extend(array(items, more), {}, { [APART]: true });

/** Whether a request's check leaves the list's items to the route ({@link itemsApart}). */
export const isItemsApart = (schema: Schema): boolean => APART in schema;

/** Any JSON object. */
export const anyObject = (description?: string): Schema<Readonly<Record<string, unknown>>> => ({
  type: 'object',
  ...(description === undefined ? {} : { description }),
});
/** Only null. */
export const NULL: Schema<null> = { type: 'null' };
/** Exactly one of the schemas. */
export const oneOf = <const S extends readonly Schema[]>(
  schemas: S,
  more: JsonSchema = {},
): Schema<Static<S[number]>> => ({ ...more, oneOf: schemas });
/** A URI string. */
export const uri = (description: string): Schema<string> => text(description, { format: 'uri' });
/** The schema, or null: a simple type gains `null` in its `type`, anything else becomes a `oneOf`. */
export function nullable<T>(schema: Schema<T>): Schema<T | null> {
  const { type, enum: values, const: value } = schema;
  return typeof type === 'string' && values === undefined && value === undefined
    ? extend(schema, { type: [type, 'null'] })
    : { oneOf: [schema, NULL] };
}

/** A timestamp as the API renders it (a component of the document). */
export const TIMESTAMP = text('UTC, `YYYY-MM-DD HH:MM:SS`; fractions of a second are cut.', {
  pattern: TIMESTAMP_PATTERN,
  examples: ['2026-11-21 12:34:56'],
});
/** A timestamp, saying what it is. */
export const timestamp = (what: string): Schema<string> =>
  described(ref('Timestamp', TIMESTAMP), `${what}, UTC.`);
/** An event id (UUID v4 or v7, lower case). */
export const EVENT_ID: Schema<string> = withReason(
  { type: 'string', format: 'uuid', pattern: EVENT_ID_PATTERN.source },
  'must be a UUID (version 4 or 7) in lower-case canonical form',
);
/** An endpoint's id (`ep_…`), as requests name one. */
export const ENDPOINT_ID: Schema<string> = withReason(
  { type: 'string', pattern: ENDPOINT_ID_PATTERN.source },
  'must be an endpoint id: ep_ and 12 lower-case hex digits',
);
/** An event type (a component of the document). */
export const EVENT_TYPE = withReason(
  text(
    'Dot-separated lower-case snake_case segments: a type of the event type catalog (`docs/event-types.md`), ' +
      'e.g. `credit_transfer_status_change`. Publishing another answers 422, unless the deployment is in its ' +
      'transition to the catalog.',
    {
      pattern: EVENT_TYPE_PATTERN.source,
      maxLength: MAX_EVENT_TYPE_LENGTH,
      examples: ['credit_transfer_status_change'],
    },
  ),
  EVENT_TYPE_REASON,
);
/** An event's delivery state (a component of the document). */
export const WEBHOOK_STATUS = oneOfValues(
  WEBHOOK_STATUSES,
  '`pending`: attempts of the current cycle are under way or due. `success`: the receiver answered 2xx; final. ' +
    `\`failed\`: all ${MAX_ATTEMPTS} attempts of the cycle failed. \`skipped\`: the account has no ` +
    '`webhook_url`, nothing was sent. Redelivery makes `failed` and `skipped` events `pending` again.',
);
/** A normalised IBAN: upper case, no blanks, 15 to 34 characters (see `iban.ts`). */
export const IBAN = text('IBAN, upper case, no blanks.', { pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' });

/** An OpenAPI Request Body Object whose JSON body the schema describes. */
export interface RequestBody<T> {
  readonly required: boolean;
  readonly content: { readonly 'application/json': { readonly schema: Schema<T> } };
}

/** A required JSON request body. */
export const body = <T>(schema: Schema<T>): RequestBody<T> => ({
  required: true,
  content: { 'application/json': { schema } },
});
/** An optional JSON request body: none reads as `{}`. */
export const optionalBody = <T>(schema: Schema<T>): RequestBody<T> => ({
  required: false,
  content: { 'application/json': { schema } },
});
