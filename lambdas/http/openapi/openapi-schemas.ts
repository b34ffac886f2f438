/**
 * The reusable parts of Herald's OpenAPI document: its types, component schemas, parameters and headers
 * (the problem schemas are in `openapi-problem-schemas.ts`, the problem responses in `openapi-paths.ts`,
 * next to the routes that answer with them). Patterns
 * come from the domain's own regular expressions where one exists, so the document cannot drift from
 * what the code accepts and renders.
 */
import { MAX_ATTEMPTS } from '#config/delivery';
import { EVENT_TYPE_PATTERN, MAX_EVENT_TYPE_LENGTH } from '#domain/event-input';
import { EVENT_ID_PATTERN } from '#domain/ids';
import { WEBHOOK_STATUSES } from '#domain/model';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '#http/events/list-query';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

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

/** Name in `components.responses` of API Gateway's answer to a path no route has. */
export const ROUTE_NOT_FOUND_RESPONSE = 'RouteNotFound';
/** Name in `components.responses` of the answer to a known path with a method it does not serve. */
export const METHOD_NOT_ALLOWED_RESPONSE = 'MethodNotAllowed';

/** How every timestamp is rendered (see `renderTimestamp`): UTC, whole seconds, no zone suffix. */
export const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';

/** A `$ref` to a component schema. */
export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
/** A `$ref` to a component parameter. */
export const parameterRef = (name: string): Reference => ({ $ref: `#/components/parameters/${name}` });
/** A `$ref` to a component response, optionally with an operation-specific description. */
export const responseRef = (name: string, description?: string): Reference =>
  description === undefined
    ? { $ref: `#/components/responses/${name}` }
    : { $ref: `#/components/responses/${name}`, description };

/** A closed object whose properties are all required: every view Herald renders has a fixed shape. */
export const closed = (properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({
  type: 'object',
  ...(description === undefined ? {} : { description }),
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
export const text = (description: string, more: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  ...more,
  description,
});
export const int = (description: string, minimum: number, more: JsonSchema = {}): JsonSchema => ({
  type: 'integer',
  minimum,
  ...more,
  description,
});
/** A URI string. */
export const uri = (description: string): JsonSchema => text(description, { format: 'uri' });
export const timestamp = (what: string): JsonSchema => ({
  ...schemaRef('Timestamp'),
  description: `${what}, UTC.`,
});
export const EVENT_ID: JsonSchema = { type: 'string', format: 'uuid', pattern: EVENT_ID_PATTERN.source };
/** A normalised IBAN: upper case, no blanks, 15 to 34 characters (see `iban.ts`). */
export const IBAN = text('IBAN, upper case, no blanks.', { pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' });

/** The fields of the list view; the detail view adds `payload` and the attempts. */
const EVENT_FIELDS = {
  id: { ...EVENT_ID, description: 'Event id: a UUID (v4 or v7) in lower-case canonical form.' },
  signature: text("The webhook's `X-Signature`: `sha256=<hex HMAC-SHA256(key, body)>`, fixed at recording.", {
    pattern: '^sha256=[0-9a-f]{64}$',
  }),
  account: { ...IBAN, description: 'IBAN of the account the event belongs to.' },
  type: schemaRef('EventType'),
  triggered_at: timestamp('When the event happened'),
  webhook_status: schemaRef('WebhookStatus'),
  webhook_retries: int('Attempts over all cycles; equals the length of `webhook_deliveries`.', 0),
  _links: schemaRef('EventLinks'),
} satisfies Record<string, JsonSchema>;

/** `components.schemas`. */
export const SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Timestamp: text('UTC, `YYYY-MM-DD HH:MM:SS`; fractions of a second are cut.', {
    pattern: TIMESTAMP_PATTERN,
    examples: ['2026-11-21 12:34:56'],
  }),
  EventType: text('Dot-separated lower-case snake_case segments. Known: `credit_transfer_status_change`.', {
    pattern: EVENT_TYPE_PATTERN.source,
    maxLength: MAX_EVENT_TYPE_LENGTH,
    examples: ['credit_transfer_status_change'],
  }),
  WebhookStatus: text(
    '`pending`: attempts of the current cycle are under way or due. `success`: the receiver answered 2xx; final. ' +
      `\`failed\`: all ${MAX_ATTEMPTS} attempts of the cycle failed. \`skipped\`: the account has no ` +
      '`webhook_url`, nothing was sent. Redelivery makes `failed` and `skipped` events `pending` again.',
    { enum: WEBHOOK_STATUSES },
  ),
  EventLinks: closed({ self: uri('This event.'), account: uri('The account of the event.') }),
  EventSummary: closed(EVENT_FIELDS, 'An event as listed: no payload, no attempts.'),
  EventDetail: closed(
    {
      ...EVENT_FIELDS,
      payload: { type: 'object', description: 'The event-specific payload, as the webhook carried it.' },
      webhook_deliveries: { type: 'array', items: schemaRef('Delivery'), description: 'Oldest first.' },
    },
    'One event with its payload and every delivery attempt.',
  ),
  Delivery: closed(
    {
      delivery_at: timestamp('When the attempt started'),
      response_body: text("The receiver's body, cut to 4 KiB; without an HTTP answer, why (timeout…)."),
      response_status: int('HTTP status; 0 when no HTTP answer arrived.', 0, { maximum: 599 }),
      response_time: int('Milliseconds from sending to the end of the (cut) answer.', 0),
    },
    'One delivery attempt.',
  ),
  Account: closed({
    iban: IBAN,
    webhook_url: {
      type: ['string', 'null'],
      format: 'uri',
      description: 'Where webhooks go; null: events are recorded as `skipped` and not sent.',
    },
    webhook_health: schemaRef('EndpointHealth'),
    _links: closed({ self: uri('This account.'), events: uri('The events of this account.') }),
  }),
  Redelivery: closed({
    queued: { type: 'array', items: EVENT_ID, description: 'Ids of the events that start a new cycle.' },
  }),
  Reset: closed({
    queued: { type: 'array', items: EVENT_ID, description: 'Ids of the events that start a new cycle.' },
    more: {
      type: 'boolean',
      description: 'More `failed` or `skipped` events remain: send the request again for the next chunk.',
    },
  }),
  Health: closed({ status: { const: 'ok' }, version: text("Herald's version.") }),
  WebhookPayload: closed(
    {
      id: EVENT_FIELDS.id,
      type: EVENT_FIELDS.type,
      account: EVENT_FIELDS.account,
      triggered_at: EVENT_FIELDS.triggered_at,
      payload: { type: 'object', description: 'Event-specific; its layout depends on `type`.' },
      _links: EVENT_FIELDS._links,
    },
    "The body of a webhook: the event's main information, so the receiver needs no API call.",
  ),
};

const param = (
  name: string,
  where: 'path' | 'query',
  description: string,
  schema: JsonSchema,
): ParameterObject =>
  where === 'path'
    ? { name, in: where, required: true, description, schema }
    : { name, in: where, description, schema };

/** `components.parameters`: the path parameters and the query of `GET /events`. */
export const PARAMETERS: Readonly<Record<string, ParameterObject>> = {
  EventId: param('id', 'path', 'Event id; another form answers 400.', EVENT_ID),
  Iban: param('iban', 'path', 'IBAN, any case; blanks are removed.', { type: 'string' }),
  Page: param(
    'page',
    'query',
    'Page, from 1, in plain decimal (`05` answers 400).',
    int('Page.', 1, { default: 1 }),
  ),
  PerPage: param(
    'per_page',
    'query',
    'Events per page.',
    int('Size.', 1, { maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE }),
  ),
  Account: param('account', 'query', 'Only events of this IBAN (any case, blanks allowed).', {
    type: 'string',
  }),
  Type: param('type', 'query', 'Only events of this type.', schemaRef('EventType')),
  Status: param('webhook_status', 'query', 'Only events in this delivery state.', schemaRef('WebhookStatus')),
  Since: param('since', 'query', 'Only events triggered at or after this UTC time.', schemaRef('Timestamp')),
  Until: param(
    'until',
    'query',
    'Only events triggered at or before; not before `since`.',
    schemaRef('Timestamp'),
  ),
};

/** `components.headers`, named as the headers themselves. */
export const HEADERS: Readonly<Record<string, HeaderObject>> = {
  Link: {
    description: 'RFC 8288 paging: `first` always, `prev` after page 1, `next` when more events follow.',
    required: true,
    schema: {
      type: 'string',
      pattern: '^<[^>]+>; rel="first"(, <[^>]+>; rel="prev")?(, <[^>]+>; rel="next")?$',
    },
  },
  'WWW-Authenticate': {
    description: 'The scheme.',
    required: true,
    schema: { type: 'string', pattern: '^Bearer' },
  },
  Allow: {
    description: 'The methods the path serves.',
    required: true,
    schema: { type: 'string', pattern: '^[A-Z]' },
  },
};
