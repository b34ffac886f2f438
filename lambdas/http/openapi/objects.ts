/**
 * The OpenAPI objects Herald's document is made of (operations, responses, parameters, the document
 * itself), `$ref`s to its components, the query parameters of a query schema, and the answers every
 * part builds.
 */
import { MAX_PER_PAGE } from '#http/paging';
import type { JsonSchema, Schema } from '#http/schema';

/** A Reference Object; OpenAPI 3.1 lets its `description` override the target's. */
export interface Reference {
  readonly $ref: string;
  readonly description?: string;
}

/** A Header Object (the fields Herald uses). */
export interface HeaderObject {
  readonly description: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

/** A Parameter Object (the fields Herald uses). */
export interface ParameterObject extends HeaderObject {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
}

/** Media types (`application/json`…) and their schemas. */
export type ContentObject = Readonly<Record<string, { readonly schema: JsonSchema }>>;

/** A Response Object. */
export interface ResponseObject {
  readonly description: string;
  readonly headers?: Readonly<Record<string, HeaderObject | Reference>>;
  readonly content?: ContentObject;
}

/** An Operation Object. */
export interface OperationObject {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  /** `[]` on public routes, the Bearer scheme on guarded ones; absent on webhooks. */
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly parameters?: readonly (ParameterObject | Reference)[];
  readonly requestBody?: { readonly required: boolean; readonly content: ContentObject };
  /** The operation (a webhook: the event type) is on its way out; it still works. */
  readonly deprecated?: boolean;
  /** Keys are status codes (`"200"`), ranges (`"2XX"`) or `default`. */
  readonly responses: Readonly<Record<string, ResponseObject | Reference>>;
}

/** A Path Item Object: the operations of one path, by lower-case method. */
export type PathItemObject = { readonly [method in 'get' | 'post' | 'put' | 'delete']?: OperationObject };

/** The OpenAPI 3.1 document of the API, as served at `/openapi.json`. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly jsonSchemaDialect: string;
  readonly info: { readonly title: string; readonly version: string; readonly [field: string]: unknown };
  readonly servers: readonly { readonly url: string }[];
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly paths: Readonly<Record<string, PathItemObject>>;
  readonly webhooks: Readonly<Record<string, PathItemObject>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly parameters: Readonly<Record<string, ParameterObject>>;
    readonly headers: Readonly<Record<string, HeaderObject>>;
    readonly responses: Readonly<Record<string, ResponseObject>>;
    readonly securitySchemes: Readonly<Record<string, JsonSchema>>;
  };
}

/** Name of the Bearer scheme in `components.securitySchemes`. */
export const BEARER_SCHEME = 'apiKey';
/** Name of the AWS SigV4 (IAM) scheme in `components.securitySchemes`. */
export const SIGV4_SCHEME = 'awsSigV4';
/** Name of the webhooks' Standard Webhooks signature scheme in `components.securitySchemes`. */
export const WEBHOOK_SIGNATURE_SCHEME = 'webhookSignature';
/** Name of the webhooks' `X-Signature` scheme in `components.securitySchemes`. */
export const X_SIGNATURE_SCHEME = 'xSignature';

/** A `$ref` to a component parameter. */
export const parameterRef = (name: string): Reference => ({ $ref: `#/components/parameters/${name}` });
/** A `$ref` to a component response, optionally with an operation-specific description. */
export const responseRef = (name: string, description?: string): Reference =>
  description === undefined
    ? { $ref: `#/components/responses/${name}` }
    : { $ref: `#/components/responses/${name}`, description };
/** A route's 400 answer, saying which part of the request it refuses and what is allowed. */
export const badRequest = (why: string): Reference => responseRef('BadRequest', why);
/** A route's 404 answer, saying what the request names that the caller has no access to or does not exist. */
export const notFound = (what: string): Reference => responseRef('NotFound', what);

/**
 * The query parameters of an operation, from its query's object schema: each property's description is
 * the parameter's, the rest its schema.
 */
export function queryParameters(query: Schema): ParameterObject[] {
  const required = new Set((query.required ?? []) as readonly string[]);
  return Object.entries(query.properties as Readonly<Record<string, Schema>>).map(([name, property]) => {
    const { description, ...schema } = property;
    return {
      name,
      in: 'query',
      ...(required.has(name) ? { required: true } : {}),
      description: String(description),
      schema,
    };
  });
}

/** A JSON content object. */
export const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } });
/** A JSON answer. */
export const ok = (description: string, schema: JsonSchema) => ({ description, content: json(schema) });

/** The answer of a paged listing: one page of `items` (at most `MAX_PER_PAGE`), the `Link` header to the others. */
export const pageOf = (noun: string, items: JsonSchema) => ({
  description: `One page of ${noun}; an empty array past the last page.`,
  headers: { Link: { $ref: '#/components/headers/Link' } },
  content: json({ type: 'array', maxItems: MAX_PER_PAGE, items }),
});
