/**
 * Publishing a batch in the OpenAPI document (`POST /events/batch`, AWS IAM): its request, its answer of
 * one result per entry, and the route.
 */
import { PUBLISH_BATCH_LIMIT, PUBLISH_BATCH_MAX_BYTES } from '#config/limits';
import { body, ok, responseRef } from './objects';
import { operation, type RouteDoc } from './operation';
import type { JsonSchema } from './schemas';
import { closed, int, schemaRef } from './schemas';

/** The schemas of a batch publish, merged into `components.schemas`. */
export const BATCH_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  PublishBatchRequest: closed({
    events: {
      type: 'array',
      minItems: 1,
      maxItems: PUBLISH_BATCH_LIMIT,
      items: schemaRef('PublishRequest'),
      description: `1 to ${PUBLISH_BATCH_LIMIT} events, each as the body of \`POST /events\`.`,
    },
  }),
  PublishBatchResult: {
    oneOf: [
      closed(
        { status: { enum: [200, 201] }, event: schemaRef('EventSummary') },
        '`201`: recorded now; `200`: its id was published before with the same content (the stored event).',
      ),
      closed(
        {
          status: int('The status a single publish would have answered.', 400, { maximum: 599 }),
          problem: schemaRef('Problem'),
        },
        'The entry was refused, and only it: `invalid_params` (or `detail`) names `events[<index>].<field>`. ' +
          '`409`: its id was published with other content; `422`: no account with its IBAN; `503`: a publish ' +
          'of the same id is under way, send the entry again; `500`: a failure of the service, send it again.',
      ),
    ],
  },
  PublishBatchAnswer: closed({
    results: {
      type: 'array',
      items: schemaRef('PublishBatchResult'),
      description: 'One result per entry, in the order of `events`.',
    },
  }),
};

/** The batch publish route. */
export const BATCH_ROUTES: readonly RouteDoc[] = [
  operation('POST', '/events/batch', {
    operationId: 'publishEvents',
    summary: 'Record up to 100 events at once (AWS IAM)',
    description:
      'The same identities and rules as `POST /events`, for each entry. One bad entry refuses itself, not the ' +
      "batch. The events of one account take consecutive sequences in the batch's order (a sequence is only " +
      'skipped when another publish of the same id, or one that read the log at that very moment, takes it). ' +
      'Idempotent by `id` like a single publish: sending the batch again, or part of it, stores nothing twice ' +
      'and answers the stored events with `200`; give every entry an `id` to be able to resend. ' +
      `The body has at most ${PUBLISH_BATCH_MAX_BYTES} bytes (1 MiB); each payload at most 64 KiB.`,
    tags: ['publishing'],
    requestBody: body(schemaRef('PublishBatchRequest')),
    responses: {
      '200': ok('One result per entry, in order.', schemaRef('PublishBatchAnswer')),
      '400': responseRef(
        'BadRequest',
        `The body is not \`{"events": [...]}\` with 1 to ${PUBLISH_BATCH_LIMIT} entries, has another field, or is over ${PUBLISH_BATCH_MAX_BYTES} bytes.`,
      ),
    },
  }),
];
