/**
 * The requests about the event type catalog: a type's name in the path, where a listing goes on
 * (`after`), and an operator's declaration of a type (`PUT /admin/event-types/{type}`). The declaration's
 * shape is checked here; what it means (a valid JSON Schema, examples that pass it) by the domain's
 * checks, which name every problem at once.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  MAX_EVENT_TYPE_DESCRIPTION_LENGTH,
  MAX_EVENT_TYPE_EXAMPLE_BYTES,
  MAX_EVENT_TYPE_EXAMPLE_SUMMARY_LENGTH,
  MAX_EVENT_TYPE_EXAMPLES,
  MAX_EVENT_TYPE_SCHEMA_BYTES,
} from '#config/catalog-limits';
import { parseEventType } from '#domain/event-input';
import type { EventTypeWrite } from '#domain/event-types/event-type-checks';
import { readBody, readQuery } from '#http/read-request';
import { pathParam } from '#http/request';
import {
  anyObject,
  array,
  body,
  closed,
  described,
  EVENT_TYPE,
  flag,
  optional,
  ref,
  type Static,
  text,
} from '#http/schema';

/** One example payload of a version, as declared and as shown (a component of the document). */
export const EVENT_TYPE_EXAMPLE = closed({
  name: text('Lower-case snake_case, unique within the version (`settled`).', {
    minLength: 1,
    maxLength: 64,
  }),
  summary: text('One line: what the example shows.', {
    minLength: 1,
    maxLength: MAX_EVENT_TYPE_EXAMPLE_SUMMARY_LENGTH,
  }),
  payload: anyObject(
    `A payload that passes the version's schema, at most ${MAX_EVENT_TYPE_EXAMPLE_BYTES} bytes as JSON.`,
  ),
});

/** The body of `PUT /admin/event-types/{type}`. */
export const EVENT_TYPE_DECLARATION = closed({
  description: optional(
    text('What happened, and what a receiver does with it.', {
      minLength: 1,
      maxLength: MAX_EVENT_TYPE_DESCRIPTION_LENGTH,
    }),
  ),
  schema: optional(
    anyObject(
      `The payload's JSON Schema (2020-12), root \`"type": "object"\`, at most ${MAX_EVENT_TYPE_SCHEMA_BYTES} ` +
        "bytes as JSON; `$ref`s point inside it. A schema or examples other than the latest version's make a new version.",
    ),
  ),
  examples: optional(
    array(ref('EventTypeExample', EVENT_TYPE_EXAMPLE), {
      minItems: 1,
      maxItems: MAX_EVENT_TYPE_EXAMPLES,
      description:
        "Payloads that pass the schema; without them, the latest version's are checked against it.",
    }),
  ),
  deprecated: optional(
    flag(
      'Publishing it still works; receivers should expect its end. Absent keeps what is stored (a new type: false).',
    ),
  ),
});
/** `PUT /admin/event-types/{type}` takes it. */
export const EVENT_TYPE_BODY = body(EVENT_TYPE_DECLARATION);

/** The query of `GET /event-types` (and the operator's listing). */
export const EVENT_TYPE_LIST_QUERY = closed({
  after: optional(
    described(EVENT_TYPE, 'Only the types whose name sorts after this one: where the `next` link goes on.'),
  ),
});

/**
 * The type named in the path.
 *
 * @throws ValidationError naming `type` when it is no event type's name
 */
export function parseEventTypeName(event: APIGatewayProxyEvent): string {
  return parseEventType('type', pathParam(event, 'type'));
}

/**
 * Where a listing goes on: after this type's name, or from the start.
 *
 * @throws ValidationError naming `after` or an unknown parameter
 */
export function parseEventTypeListQuery(event: APIGatewayProxyEvent): { readonly after?: string } {
  return readQuery(event.multiValueQueryStringParameters, EVENT_TYPE_LIST_QUERY);
}

/**
 * The declaration of `PUT /admin/event-types/{type}`.
 *
 * @throws ValidationError naming the type in the path, or the body's first field of the wrong shape
 */
export function parseEventTypeDeclaration(event: APIGatewayProxyEvent): EventTypeWrite {
  const type = parseEventTypeName(event);
  const declared: Static<typeof EVENT_TYPE_DECLARATION> = readBody(event, EVENT_TYPE_BODY);
  return { type, ...declared };
}
