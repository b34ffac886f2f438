/**
 * The requests about events: an event id in the path, a published event's body (`POST /events`, and each
 * entry of `POST /events/batch`), and the operator's chunked requeue and index upgrade; and how the
 * publish route names what it refused.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { NotFoundError, UnprocessableError, ValidationError } from '#domain/errors';
import { PAYLOAD_REASON, type PublishInput } from '#domain/event-input';
import { isEventId } from '#domain/ids';
import { CURSOR } from '#http/paging';
import { readBody, readBodyValue, refusal } from '#http/read-request';
import { pathParam } from '#http/request';
import {
  anyObject,
  body,
  closed,
  described,
  ENDPOINT_ID,
  EVENT_ID,
  EVENT_TYPE,
  int,
  optional,
  optionalBody,
  ref,
  type Static,
  text,
  withReason,
} from '#http/schema';

/**
 * The path parameter `id`, which must be an event id (UUID v4 or v7, lower case).
 *
 * @throws ValidationError naming `id`
 */
export function parseEventId(event: APIGatewayProxyEvent): string {
  const id = pathParam(event, 'id');
  if (!isEventId(id)) throw new ValidationError('id', refusal(EVENT_ID));
  return id;
}

/** The optional body of a redelivery (`POST /events/{id}/redeliver`, the operator's twin). */
export const REDELIVER_BODY = optionalBody(
  closed({
    endpoint_id: optional(
      described(
        ENDPOINT_ID,
        "Redeliver at this endpoint alone (one of the event's `endpoints` in `GET /events/{id}`); absent: " +
          'the event as a whole, at every endpoint it was routed to.',
      ),
    ),
  }),
);

/**
 * The body of a redelivery by {@link REDELIVER_BODY}: none, `{}`, or the endpoint to redeliver at.
 *
 * @throws ValidationError naming `endpoint_id`
 */
export function parseRedeliverRequest(event: APIGatewayProxyEvent): { endpointId?: string } {
  const { endpoint_id } = readBody(event, REDELIVER_BODY);
  return endpoint_id === undefined ? {} : { endpointId: endpoint_id };
}

/** The body of `POST /events`, a component of the document. */
export const PUBLISH_REQUEST = closed({
  account: text('IBAN of a registered account; any case, blanks allowed.'),
  type: ref('EventType', EVENT_TYPE),
  payload: withReason(anyObject('A JSON object, at most 64 KiB serialised.'), PAYLOAD_REASON),
  id: optional(described(EVENT_ID, 'Makes publishing idempotent; a new UUID v7 when absent.')),
  triggered_at: optional(text('ISO 8601 with a zone, e.g. `2026-11-21T12:00:00Z`; now when absent.')),
  version: optional(
    int(
      "The version of the type's payload schema the payload follows; the type's latest when absent. " +
        'The event records the version its payload passed (`type_version`).',
      1,
    ),
  ),
});
/** `POST /events` takes it, by reference. */
export const PUBLISH_BODY = body(ref('PublishRequest', PUBLISH_REQUEST));

/**
 * The body of `POST /events` by {@link PUBLISH_BODY}, as the library's input; the values are checked
 * again by `validatePublishInput`, as for every publisher (the IBAN, the payload's size and depth, the
 * time).
 *
 * @throws ValidationError for a body that is not a JSON object, or a field unknown, missing or malformed
 */
export function parsePublishRequest(event: APIGatewayProxyEvent): PublishInput {
  return toPublishInput(readBody(event, PUBLISH_BODY));
}

/**
 * One entry of `POST /events/batch`, read exactly as the body of `POST /events` is (by
 * {@link PUBLISH_BODY}), so that a batch's entry and a single publish are refused alike.
 *
 * @throws ValidationError naming `body` for an entry that is not a JSON object, else its field unknown,
 *   missing or malformed
 */
export function readPublishEntry(value: unknown): PublishInput {
  return toPublishInput(readBodyValue(value, PUBLISH_BODY));
}

/** A publish body as the library's input (`triggered_at` is its `triggeredAt`). */
function toPublishInput({ triggered_at, ...fields }: Static<typeof PUBLISH_REQUEST>): PublishInput {
  return { ...fields, triggeredAt: triggered_at };
}

/**
 * The error the publish route answers with for what recording refused: the library's camelCase
 * `triggeredAt` is the API's `triggered_at`, and an unknown account is a field of the body, not the
 * resource of the URL (422, not 404).
 */
export function publishError(error: unknown): unknown {
  if (error instanceof ValidationError) {
    return error.renamed((name) => (name === 'triggeredAt' ? 'triggered_at' : name));
  }
  if (error instanceof NotFoundError) {
    return new UnprocessableError('account', error.message.replace(/^account: /, ''));
  }
  return error;
}

/** The optional body of the operator's requeue. */
export const REQUEUE_BODY = optionalBody(
  closed({
    older_than_minutes: optional(
      int('Only events triggered at least this many minutes ago.', 0, { default: 15 }),
    ),
    cursor: optional(CURSOR),
  }),
);

/**
 * The body of the operator's requeue by {@link REQUEUE_BODY}: only events triggered before
 * `older_than_minutes` (15 when absent) are queued again.
 *
 * @param nowMs - the clock `older_than_minutes` counts back from
 * @throws ValidationError naming the field
 */
export function parseRequeueRequest(
  event: APIGatewayProxyEvent,
  nowMs: number,
): { until: string; cursor: string | undefined } {
  const { older_than_minutes = 15, cursor } = readBody(event, REQUEUE_BODY);
  return { until: new Date(nowMs - older_than_minutes * 60_000).toISOString(), cursor };
}

/** The optional body of a chunked operator request that goes on from a cursor. */
export const CURSOR_BODY = optionalBody(closed({ cursor: optional(CURSOR) }));

/**
 * The body of a chunked operator request by {@link CURSOR_BODY}: `{"cursor"?}`.
 *
 * @throws ValidationError naming the field
 */
export function parseCursorRequest(event: APIGatewayProxyEvent): { cursor: string | undefined } {
  return { cursor: readBody(event, CURSOR_BODY).cursor };
}
