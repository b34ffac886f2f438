/**
 * Checks real responses against Herald's OpenAPI document, so tests fail when the code and the published
 * contract drift apart. Schemas are compiled with Ajv in strict mode (JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1): a misspelled keyword in the document is an error, not a silently ignored constraint.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenApiDocument, OperationObject, ResponseObject } from '#http/openapi/objects';
import { METHOD_NOT_ALLOWED, ROUTE_NOT_FOUND } from '#http/openapi/problems';
import type { JsonSchema } from '#http/schema';

/** A response as a test observed it. */
export interface ResponseSample {
  /** HTTP method of the request, any case. */
  readonly method: string;
  /** The concrete path, relative to the server URL or absolute under it; a query is ignored. */
  readonly path: string;
  readonly status: number;
  /** The `Content-Type` header; read from `headers` when absent. */
  readonly contentType?: string | undefined;
  /** Response headers, names in any case. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** The parsed JSON body; `undefined` when the response has none. */
  readonly body?: unknown;
}

/** Validates responses against one document. */
export interface OpenApiValidator {
  /**
   * Every way the response departs from the document; empty when it conforms. A path that matches no
   * template must be the documented unknown-route 404, and a method a known path does not serve the
   * documented 405.
   */
  validateResponse(sample: ResponseSample): string[];
}

/** Where component schemas are registered with Ajv, so `#/components/schemas/X` can point there. */
const SCHEMA_BASE = 'https://herald.test/openapi/components/schemas/';
const LOCAL_SCHEMA_REF = '#/components/schemas/';
/** Keywords OpenAPI adds to JSON Schema: annotations for Ajv, not constraints. */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

/**
 * Compiles the document's component schemas once and returns a validator for responses.
 *
 * @throws Error when a schema of the document does not compile in Ajv's strict mode (a broken document)
 */
export function createOpenApiValidator(document: OpenApiDocument): OpenApiValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addVocabulary(OPENAPI_KEYWORDS);
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    ajv.addSchema(rewriteRefs(schema) as object, SCHEMA_BASE + name);
  }
  const compiled = new WeakMap<object, ValidateFunction>();
  const compile = (schema: JsonSchema): ValidateFunction => {
    let validate = compiled.get(schema);
    if (validate === undefined) {
      validate = ajv.compile(rewriteRefs(schema) as object);
      compiled.set(schema, validate);
    }
    return validate;
  };
  // Compile every schema now, so a broken document fails here, not in whichever test meets it first.
  for (const schema of documentedSchemas(document)) compile(schema);
  const check: Check = (schema, value, label) => {
    const validate = compile(schema);
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${label}${describe(error)}`);
  };
  // The stage of `https://<api>/prod` is part of every concrete path a test may pass.
  const serverPath = new URL(document.servers[0]?.url ?? '/', 'http://localhost').pathname.replace(
    /\/+$/,
    '',
  );

  return {
    validateResponse(sample) {
      const path = relativePath(sample.path, serverPath);
      const method = sample.method.toLowerCase();
      const template = matchTemplate(Object.keys(document.paths), path);
      const operation: OperationObject | undefined =
        template === undefined ? undefined : document.paths[template]?.[method as 'get' | 'post'];
      const where = `${sample.method.toUpperCase()} ${template ?? path} → ${sample.status}`;

      let response: ResponseObject | undefined;
      if (operation !== undefined) {
        const entry =
          operation.responses[String(sample.status)] ??
          operation.responses[`${Math.floor(sample.status / 100)}XX`] ??
          operation.responses.default;
        if (entry === undefined) return [`${where}: status ${sample.status} is not documented`];
        response = resolve<ResponseObject>(document, entry);
      } else if (template === undefined) {
        if (sample.status !== 404) return [`${where}: no documented path matches ${path}`];
        response = ROUTE_NOT_FOUND;
      } else {
        if (sample.status !== 405) return [`${where}: ${sample.method.toUpperCase()} is not documented`];
        response = METHOD_NOT_ALLOWED;
      }
      if (response === undefined) return [`${where}: the documented response does not resolve`];
      return [
        ...checkHeaders(document, response, sample, where, check),
        ...checkBody(response, sample, where, check),
      ];
    },
  };
}

type Check = (schema: JsonSchema, value: unknown, label: string) => string[];

/** Required documented headers must be present, and every documented header present must fit its schema. */
function checkHeaders(
  document: OpenApiDocument,
  response: ResponseObject,
  sample: ResponseSample,
  where: string,
  check: Check,
): string[] {
  const errors: string[] = [];
  for (const [name, entry] of Object.entries(response.headers ?? {})) {
    // OpenAPI ignores a documented Content-Type header: the media types say it.
    if (name.toLowerCase() === 'content-type') continue;
    const header = resolve<{ required?: boolean; schema?: JsonSchema }>(document, entry);
    const value = headerValue(sample.headers, name);
    if (value === undefined) {
      if (header?.required) errors.push(`${where}: missing required header ${name}`);
    } else if (header?.schema !== undefined) {
      errors.push(...check(header.schema, value, `${where}: header ${name}`));
    }
  }
  return errors;
}

/** The content type must be documented for the status, and the body must fit its schema. */
function checkBody(response: ResponseObject, sample: ResponseSample, where: string, check: Check): string[] {
  const content = response.content;
  if (content === undefined) {
    return sample.body === undefined ? [] : [`${where}: a body was sent, but none is documented`];
  }
  const contentType = sample.contentType ?? headerValue(sample.headers, 'content-type');
  if (contentType === undefined)
    return [`${where}: no content type; documented: ${Object.keys(content).join(', ')}`];
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const key = Object.keys(content).find((candidate) => mediaTypeMatches(candidate.toLowerCase(), mediaType));
  const schema = key === undefined ? undefined : content[key]?.schema;
  if (key === undefined || schema === undefined) {
    return [
      `${where}: content type ${mediaType} is not documented; documented: ${Object.keys(content).join(', ')}`,
    ];
  }
  return check(schema, sample.body, `${where}: body`);
}

/** Whether a documented media range (`application/json`, `application/*`, `*\/*`) covers a media type. */
function mediaTypeMatches(range: string, mediaType: string): boolean {
  if (range === '*/*' || range === mediaType) return true;
  return range.endsWith('/*') && mediaType.startsWith(range.slice(0, -1));
}

/** The path below the server URL, without query or fragment. */
function relativePath(path: string, serverPath: string): string {
  const pathname = /^https?:\/\//.test(path) ? new URL(path).pathname : (path.split(/[?#]/)[0] ?? '');
  return serverPath !== '' && pathname.startsWith(`${serverPath}/`)
    ? pathname.slice(serverPath.length)
    : pathname;
}

/**
 * The template matching a concrete path. A literal segment beats a `{parameter}` one, as OpenAPI asks,
 * so `/events/export` would prefer a literal route over `/events/{id}`.
 */
function matchTemplate(templates: readonly string[], path: string): string | undefined {
  const segments = path.split('/');
  const literals = (template: string) => template.split('/').filter((s) => !/^\{[^}]+\}$/.test(s)).length;
  return templates
    .filter((template) => {
      const parts = template.split('/');
      return (
        parts.length === segments.length &&
        parts.every((part, i) => {
          const segment = segments[i] ?? '';
          return /^\{[^}]+\}$/.test(part) ? segment !== '' : part === segment;
        })
      );
    })
    .sort((a, b) => literals(b) - literals(a))[0];
}

/** Every schema a response can be checked against: components, then each response's headers and content. */
function documentedSchemas(document: OpenApiDocument): JsonSchema[] {
  const responses = [
    ...Object.values(document.components.responses),
    ...Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) => Object.values(operation?.responses ?? {})),
    ),
  ].map((entry) => resolve<ResponseObject>(document, entry));
  return [
    ...Object.values(document.components.schemas),
    ...responses.flatMap((response) => [
      ...Object.values(response?.headers ?? {}).flatMap((entry) => {
        const schema = resolve<{ schema?: JsonSchema }>(document, entry)?.schema;
        return schema === undefined ? [] : [schema];
      }),
      ...Object.values(response?.content ?? {}).map((media) => media.schema),
    ]),
  ];
}

/** Follows `$ref`s inside the document (`#/components/responses/X`…) to the object they name. */
function resolve<T>(document: OpenApiDocument, node: unknown, depth = 0): T | undefined {
  if (typeof node !== 'object' || node === null || depth > 10) return undefined;
  const ref: unknown = (node as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string') return node as T;
  if (!ref.startsWith('#/')) return undefined;
  let target: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    target =
      typeof target === 'object' && target !== null ? (target as Record<string, unknown>)[key] : undefined;
  }
  return resolve<T>(document, target, depth + 1);
}

/** A deep copy whose `#/components/schemas/X` refs point at the schemas registered with Ajv. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' && item.startsWith(LOCAL_SCHEMA_REF)
        ? SCHEMA_BASE + item.slice(LOCAL_SCHEMA_REF.length)
        : rewriteRefs(item),
    ]),
  );
}

function headerValue(headers: ResponseSample['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === wanted)?.[1];
}

/** One Ajv error as `/0/_links must have required property 'account'`. */
function describe(error: ErrorObject): string {
  const extra =
    error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
  return `${error.instancePath} ${error.message ?? error.keyword}${extra}`;
}
