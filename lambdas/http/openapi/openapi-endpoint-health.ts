/**
 * The OpenAPI parts of endpoint health: the `webhook_health` schema of an account view and the two routes
 * that enable an endpoint again, one for an organization key and one for operators (SigV4).
 */
import { ENDPOINT_STATES } from '#domain/delivery/endpoint-health';
import { json, operation } from './openapi-operation';
import {
  closed,
  EVENT_ID,
  IBAN,
  int,
  type JsonSchema,
  type OperationObject,
  type PathItemObject,
  parameterRef,
  responseRef,
  schemaRef,
  text,
  timestamp,
} from './openapi-schemas';

const nullable = (schema: JsonSchema): JsonSchema => ({ oneOf: [schema, { type: 'null' }] });

/** `EndpointHealth` and `EndpointEnabled`, merged into the document's schemas. */
export const HEALTH_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  EndpointHealth: closed(
    {
      state: text(
        '`healthy`: webhooks go out freely. `degraded`: recent attempts failed or were slow; at most a few ' +
          'deliveries at a time, and while the circuit is open none but one probe. `disabled`: nothing is ' +
          'sent and new events settle `skipped` until the endpoint is enabled again.',
        { enum: ENDPOINT_STATES },
      ),
      since: nullable(timestamp('When the endpoint entered this state')),
      reason: { type: ['string', 'null'], description: 'Why it is in this state.' },
      consecutive_failures: int('Failed attempts since the last success.', 0),
      failing_since: nullable(timestamp('First failure of the current run of failures')),
      last_success_at: nullable(
        timestamp(
          'Last success that was written: a recovery, or a success while degraded (a healthy endpoint’s successes write nothing)',
        ),
      ),
      last_failure_at: nullable(timestamp('Last failed attempt')),
      recent_latency_ms: {
        type: ['integer', 'null'],
        minimum: 0,
        description: 'Duration of the last attempt written, in ms.',
      },
      circuit_open_until: nullable(timestamp('Until when no attempt but a probe goes out')),
    },
    "Health of the account's webhook endpoint.",
  ),
  EndpointEnabled: closed({
    iban: IBAN,
    webhook_health: { const: 'healthy' },
    queued: {
      type: 'array',
      items: EVENT_ID,
      description: 'Events that start a new cycle (with `recover_since`).',
    },
  }),
};

const ENABLE: Omit<OperationObject, 'operationId' | 'security' | 'tags'> = {
  summary: "Enable the account's webhook endpoint again",
  description:
    'Makes a `disabled` or `degraded` endpoint `healthy` (failure count, open circuit and reason cleared). ' +
    'With `recover_since`, the `failed` and `skipped` events of the account triggered since then start a new cycle: up to 500 per request (read from the status indexes, so the cost is bounded); enable again with the same time for more.',
  parameters: [parameterRef('Iban')],
  requestBody: {
    required: false,
    content: json({
      type: 'object',
      additionalProperties: false,
      properties: {
        recover_since: { ...schemaRef('Timestamp'), description: 'Redeliver events since then, UTC.' },
      },
    }),
  },
  responses: {
    '200': { description: 'Enabled.', content: json(schemaRef('EndpointEnabled')) },
    '400': responseRef('BadRequest', 'The IBAN, the body or `recover_since` is malformed.'),
    '404': responseRef('NotFound', 'No such account (in the organization, for an organization key).'),
  },
};

/** `POST /accounts/{iban}/enable` (org key, `manage`) and `POST /admin/accounts/{iban}/enable` (SigV4). */
export const ENABLE_PATHS: Readonly<Record<string, PathItemObject>> = {
  '/accounts/{iban}/enable': operation('POST', '/accounts/{iban}/enable', {
    ...ENABLE,
    operationId: 'enableEndpoint',
    tags: ['accounts'],
  }),
  '/admin/accounts/{iban}/enable': operation('POST', '/admin/accounts/{iban}/enable', {
    ...ENABLE,
    operationId: 'adminEnableEndpoint',
    tags: ['admin'],
  }),
};
