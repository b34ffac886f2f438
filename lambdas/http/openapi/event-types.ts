/**
 * The event type catalog in the OpenAPI document: the routes that show it (any API key) and the
 * operator's that extend it, the schemas of a type as shown, and the catalog's own rules in prose.
 */
import {
  MAX_EVENT_TYPE_VERSIONS,
  MAX_OPERATOR_EVENT_TYPES,
  MAX_VIOLATIONS_REPORTED,
} from '#config/catalog-limits';
import {
  EVENT_TYPE_BODY,
  EVENT_TYPE_EXAMPLE,
  EVENT_TYPE_LIST_QUERY,
} from '#http/event-types/event-type-request';
import { anyObject, array, closed, EVENT_TYPE, flag, int, ref, text } from '#http/schema';
import type { HeaderObject, ParameterObject } from './objects';
import { badRequest, notFound, ok, parameterRef, queryParameters, responseRef } from './objects';
import { operation, type RouteDoc, type SharedOperation } from './operation';

/** One version of a type as shown. */
export const EVENT_TYPE_VERSION = closed({
  version: int('1, 2, 3, …; a version never changes once registered.', 1),
  deprecated: flag('Publishing this version still works; receivers should expect its end.'),
  schema: anyObject("The payload's JSON Schema (2020-12): what a webhook's `payload` of this version is."),
  examples: array(ref('EventTypeExample', EVENT_TYPE_EXAMPLE), { minItems: 1 }),
});

/** A type of the catalog as shown (a component of the document). */
export const EVENT_TYPE_ENTRY = closed({
  type: ref('EventType', EVENT_TYPE),
  description: text('What happened, and what a receiver typically does with it.'),
  built_in: flag('Herald ships it (it cannot be changed); false: an operator registered it.'),
  operational: flag(
    "One of Herald's operational notices (`GET /operational-events`, the operational webhook): reserved, no gateway publishes it.",
  ),
  deprecated: flag('Publishing it still works; receivers should expect its end.'),
  latest_version: int('What a publish without `version` is checked against.', 1),
  versions: array(ref('EventTypeVersion', EVENT_TYPE_VERSION), {
    minItems: 1,
    description: 'Every version, oldest first.',
  }),
});

/** The schemas only the catalog uses, merged into `components.schemas`. */
export const EVENT_TYPE_SCHEMAS = {
  EventTypeEntry: EVENT_TYPE_ENTRY,
  EventTypeVersion: EVENT_TYPE_VERSION,
  EventTypeExample: EVENT_TYPE_EXAMPLE,
};

/** The type's name in the path, merged into `components.parameters`. */
export const EVENT_TYPE_PARAMETERS: Readonly<Record<string, ParameterObject>> = {
  EventTypeName: {
    name: 'type',
    in: 'path',
    required: true,
    description: "The type's name; another form answers 400.",
    schema: EVENT_TYPE,
  },
};

/** The listing's `Link` header, merged into `components.headers`. */
export const EVENT_TYPE_LINK_HEADER: Readonly<Record<string, HeaderObject>> = {
  EventTypesLink: {
    description:
      'RFC 8288 `rel="next"`: the types after the last one returned, present when the answer left some out ' +
      '(it holds as many as about 6 MB carry); follow it until it is absent.',
    required: false,
    schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
  },
};

const CATALOG_DESCRIPTION =
  'Every type of the catalog, by name: the ones Herald ships and the ones the operators registered, each ' +
  'with every version, its payload schema and examples. A type an operator registers or changes shows here ' +
  'at once.';

const TYPE_PATH = [parameterRef('EventTypeName')];
const UNKNOWN_TYPE = notFound('No such type in the catalog.');
const BAD_NAME = badRequest('The name is no event type name.');

/** What the document says about a listing of the catalog, for an API key and for operators. */
const LISTING: SharedOperation = {
  summary: 'The event type catalog',
  description: CATALOG_DESCRIPTION,
  parameters: queryParameters(EVENT_TYPE_LIST_QUERY),
  responses: {
    '200': {
      description: 'The types, by name.',
      headers: { Link: { $ref: '#/components/headers/EventTypesLink' } },
      content: { 'application/json': { schema: array(ref('EventTypeEntry', EVENT_TYPE_ENTRY)) } },
    },
    '400': badRequest('`after` is no event type name, or a parameter is unknown.'),
  },
};

/** What the document says about one type, for an API key and for operators. */
const ONE_TYPE: SharedOperation = {
  summary: 'One event type with its versions',
  parameters: TYPE_PATH,
  responses: {
    '200': ok('The type.', ref('EventTypeEntry', EVENT_TYPE_ENTRY)),
    '400': BAD_NAME,
    '404': UNKNOWN_TYPE,
  },
};

/** The catalog's routes for an organization key (any scope). */
export const EVENT_TYPE_ROUTES: readonly RouteDoc[] = [
  operation('GET', '/event-types', { operationId: 'listEventTypes', tags: ['event-types'], ...LISTING }),
  operation('GET', '/event-types/{type}', {
    operationId: 'getEventType',
    tags: ['event-types'],
    ...ONE_TYPE,
  }),
];

/** The operator's catalog routes, by their names in `ADMIN_ROUTES`. */
export const EVENT_TYPE_ADMIN_DOCS = {
  adminListEventTypes: LISTING,
  adminGetEventType: ONE_TYPE,
  putEventType: {
    summary: 'Register an event type, or change one',
    description:
      'A new type needs `description`, `schema` and `examples`, and becomes version 1. For a type that ' +
      "exists, a field left out keeps what is stored; a `schema` or `examples` other than the latest version's " +
      'make a new version, one above the latest (a registered version never changes), and the description and ' +
      '`deprecated` change in place. The schema must be valid JSON Schema 2020-12 and each example pass it ' +
      `(\`docs/event-types.md\` has every rule); a 400 names each problem by where it is, at most ${MAX_VIOLATIONS_REPORTED}. ` +
      `At most ${MAX_OPERATOR_EVENT_TYPES} types registered by operators, each with at most ` +
      `${MAX_EVENT_TYPE_VERSIONS} versions. Built-in types cannot be changed: register your own type under ` +
      'another name (e.g. `acme.credit_received`).',
    parameters: TYPE_PATH,
    requestBody: EVENT_TYPE_BODY,
    responses: {
      '200': ok('Changed (or already so); the type as stored now.', ref('EventTypeEntry', EVENT_TYPE_ENTRY)),
      '201': ok('Registered; the type as stored now.', ref('EventTypeEntry', EVENT_TYPE_ENTRY)),
      '400': badRequest(
        'The name, a field of the body, the schema or an example is invalid; `invalid_params` names each.',
      ),
      '409': responseRef(
        'Conflict',
        `A built-in type; the catalog holds ${MAX_OPERATOR_EVENT_TYPES} operators' types already, or the type ` +
          `${MAX_EVENT_TYPE_VERSIONS} versions; or other writes of the type kept coming first (send it again).`,
      ),
    },
  },
} as const satisfies Readonly<Record<string, SharedOperation>>;
