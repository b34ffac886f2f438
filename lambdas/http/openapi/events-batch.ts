/**
 * Publishing a batch in the OpenAPI document (`POST /events/batch`, AWS IAM): its answer of one result
 * per entry, and the route. The request is declared where it is read (`http/events/batch-request.ts`).
 */
import { PUBLISH_BATCH_LIMIT, PUBLISH_BATCH_MAX_BYTES } from '#config/limits';
import { PUBLISH_BATCH_BODY, PUBLISH_BATCH_REQUEST } from '#http/events/batch-request';
import { array, closed, int, oneOf, ref, type Schema } from '#http/schema';
import { EVENT_SUMMARY } from './events';
import { badRequest, ok } from './objects';
import { operation, type RouteDoc } from './operation';
import { PROBLEM } from './problems';

/** The status of a recorded entry: `201` recorded now, `200` published before with the same content. */
const RECORDED_STATUS: Schema<200 | 201> = {
  type: 'integer',
  enum: [200, 201],
  description: '`201`: recorded now; `200`: its id was published before with the same content.',
};

/** One entry's result: the event as listed, or the problem that refused the entry. */
export const PUBLISH_BATCH_RESULT = oneOf([
  closed(
    { status: RECORDED_STATUS, event: ref('EventSummary', EVENT_SUMMARY) },
    'The entry is recorded: the stored event as listed (no payload, no attempts).',
  ),
  closed(
    {
      status: int('The status a single publish would have answered.', 400, { maximum: 599 }),
      problem: ref('Problem', PROBLEM),
    },
    'The entry was refused, and only it: `invalid_params` (or `detail`) names `events[<index>].<field>`. ' +
      '`409`: its id was published with other content; `422`: no account with its IBAN; `503`: a publish ' +
      'of the same id is under way, send the entry again; `500`: a failure of the service, send it again.',
  ),
]);

/** The answer of `POST /events/batch`. */
export const PUBLISH_BATCH_ANSWER = closed({
  results: array(ref('PublishBatchResult', PUBLISH_BATCH_RESULT), {
    maxItems: PUBLISH_BATCH_LIMIT,
    description: 'One result per entry, in the order of `events`.',
  }),
});

/** The schemas of a batch publish, merged into `components.schemas`. */
export const BATCH_SCHEMAS = {
  PublishBatchRequest: PUBLISH_BATCH_REQUEST,
  PublishBatchResult: PUBLISH_BATCH_RESULT,
  PublishBatchAnswer: PUBLISH_BATCH_ANSWER,
};

/** The batch publish route. */
export const BATCH_ROUTES: readonly RouteDoc[] = [
  operation('POST', '/events/batch', {
    operationId: 'publishEvents',
    summary: `Record up to ${PUBLISH_BATCH_LIMIT} events at once (AWS IAM)`,
    description:
      'The same identities and rules as `POST /events`, for each entry. One bad entry refuses itself, not the ' +
      "batch. The events of one account take consecutive sequences in the batch's order (a sequence is only " +
      'skipped when another publish of the same id, or one that read the log at that very moment, takes it). ' +
      'Idempotent by `id` like a single publish: sending the batch again, or part of it, stores nothing twice ' +
      'and answers the stored events with `200`; give every entry an `id` to be able to resend. ' +
      `The body has at most ${PUBLISH_BATCH_MAX_BYTES} bytes (1 MiB); each payload at most 64 KiB.`,
    tags: ['publishing'],
    requestBody: PUBLISH_BATCH_BODY,
    responses: {
      '200': ok('One result per entry, in order.', ref('PublishBatchAnswer', PUBLISH_BATCH_ANSWER)),
      '400': badRequest(
        `The body is not \`{"events": [...]}\` with 1 to ${PUBLISH_BATCH_LIMIT} entries, has another field, or is over ${PUBLISH_BATCH_MAX_BYTES} bytes.`,
      ),
    },
  }),
];
