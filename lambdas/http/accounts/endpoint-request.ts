/**
 * The requests of an account's endpoints (`POST /accounts/{iban}/endpoints`, `PUT …/endpoints/{id}` and
 * the operator's twins): the fields declared as schemas, read into the use-case's request. Every field is
 * optional in a change (absent keeps what is stored, `null` removes it); a new endpoint needs its `url`.
 * What the schemas cannot say (catalog names, the filter's rule, the URL policy) the use-case checks,
 * naming the field the same way.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { MAX_OPERATOR_EVENT_TYPES } from '#config/catalog-limits';
import { MAX_ENDPOINT_DESCRIPTION_LENGTH } from '#config/limits';
import type { EndpointRequest } from '#domain/endpoints/endpoint';
import { ValidationError } from '#domain/errors';
import { MAX_EVENT_TYPE_LENGTH } from '#domain/event-input';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import { ENDPOINT_ID_PATTERN } from '#domain/ids';
import { readBody } from '#http/read-request';
import {
  anyObject,
  array,
  body,
  closed,
  described,
  flag,
  nullable,
  optional,
  string,
  text,
  withReason,
} from '#http/schema';
import { DELIVERY_ORDER } from './account-request';
import { ENDPOINT_SECURITY_FIELDS, parseEndpointSecurity } from './endpoint-security-request';

/** Event types one subscription may list: the catalog can hold no more. */
const MAX_SUBSCRIBED_TYPES = BUILT_IN_EVENT_TYPES.length + MAX_OPERATOR_EVENT_TYPES;

/** An endpoint's URL, as a write gives it. */
const URL_FIELD = text("Where the endpoint's webhooks go, checked by the deployment's URL policy.", {
  format: 'uri',
  minLength: 1,
});

/** The fields of an endpoint write besides its URL: absent keeps what is stored, null removes it. */
const SETTINGS_FIELDS = {
  event_types: optional(
    withReason(
      nullable(
        array(string({ maxLength: MAX_EVENT_TYPE_LENGTH }), {
          minItems: 1,
          maxItems: MAX_SUBSCRIBED_TYPES,
          description:
            'Catalog type names (`GET /event-types`) the endpoint hears of; absent on a new endpoint, or null: ' +
            'every type, those registered later included. Unknown names answer 400 naming each (`event_types/1`).',
        }),
      ),
      `must be a list of 1 to ${MAX_SUBSCRIBED_TYPES} event type names, or null for every type`,
    ),
  ),
  filter: optional(
    withReason(
      nullable(
        anyObject(
          'A payload filter (docs/subscriptions.md): an object mirroring the payload whose fields hold lists of ' +
            'alternatives (exact values, `prefix`, `suffix`, `anything-but`, `numeric`, `exists`) or nested ' +
            'filters, and `$or`. Checked when saved (400 naming the path and the rule); null: every payload.',
        ),
      ),
      'must be a filter object, or null for every payload',
    ),
  ),
  description: optional(
    withReason(
      nullable(
        text('What the endpoint is for, shown with it.', { maxLength: MAX_ENDPOINT_DESCRIPTION_LENGTH }),
      ),
      `must be a string of at most ${MAX_ENDPOINT_DESCRIPTION_LENGTH} characters, or null`,
    ),
  ),
  delivery_order: optional(
    described(DELIVERY_ORDER, 'Absent: the stored order stays (a new endpoint is `concurrent`).'),
  ),
  enabled: optional(
    flag(
      'False: disabled, nothing is sent to it and its deliveries settle `skipped`; true: ' +
        'enabled again (healthy, as `POST /accounts/{iban}/enable`). A new endpoint is enabled unless false.',
    ),
  ),
  ...ENDPOINT_SECURITY_FIELDS,
};

/** The body of `POST /accounts/{iban}/endpoints` (and the operator's twin). */
export const ENDPOINT_CREATE_BODY = body(closed({ url: URL_FIELD, ...SETTINGS_FIELDS }));

/** The body of `PUT /accounts/{iban}/endpoints/{endpoint_id}` (and the operator's twin). */
export const ENDPOINT_UPDATE_BODY = body(
  closed({
    url: optional(
      withReason(
        nullable(URL_FIELD),
        "must be a URL string; null only for the default endpoint (removes the account's webhook_url)",
      ),
    ),
    ...SETTINGS_FIELDS,
  }),
);

/** The fields as a body carries them (the create body's are the same, `url` required). */
type EndpointBody = {
  readonly url?: string | null;
  readonly event_types?: readonly string[] | null;
  readonly filter?: Readonly<Record<string, unknown>> | null;
  readonly description?: string | null;
  readonly delivery_order?: EndpointRequest['deliveryOrder'];
  readonly enabled?: boolean;
};

/**
 * The body of a new endpoint by {@link ENDPOINT_CREATE_BODY}.
 *
 * @throws ValidationError naming the field
 */
export function parseEndpointCreation(event: APIGatewayProxyEvent): EndpointRequest {
  return endpointRequest(event, readBody(event, ENDPOINT_CREATE_BODY));
}

/**
 * The body of an endpoint's change by {@link ENDPOINT_UPDATE_BODY}.
 *
 * @throws ValidationError naming the field
 */
export function parseEndpointChange(event: APIGatewayProxyEvent): EndpointRequest {
  return endpointRequest(event, readBody(event, ENDPOINT_UPDATE_BODY));
}

/**
 * The `endpoint_id` of the path.
 *
 * @throws ValidationError naming `endpoint_id` when it is no endpoint id
 */
export function parseEndpointId(event: APIGatewayProxyEvent): string {
  const id = event.pathParameters?.endpoint_id ?? '';
  if (!ENDPOINT_ID_PATTERN.test(id)) {
    throw new ValidationError('endpoint_id', 'must be an endpoint id: ep_ and 12 lower-case hex digits');
  }
  return id;
}

function endpointRequest(event: APIGatewayProxyEvent, fields: EndpointBody): EndpointRequest {
  return {
    ...(fields.url === undefined ? {} : { url: fields.url }),
    ...(fields.event_types === undefined ? {} : { eventTypes: fields.event_types }),
    ...(fields.filter === undefined ? {} : { filter: fields.filter }),
    ...(fields.description === undefined ? {} : { description: fields.description }),
    ...(fields.delivery_order === undefined ? {} : { deliveryOrder: fields.delivery_order }),
    ...(fields.enabled === undefined ? {} : { enabled: fields.enabled }),
    security: parseEndpointSecurity(event),
  };
}
