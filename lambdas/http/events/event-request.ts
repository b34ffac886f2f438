/**
 * The requests about events: an event id in the path, a published event's body (`POST /events`), and the
 * operator's chunked requeue and index upgrade; and how the publish route names what it refused.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { NotFoundError, UnprocessableError, ValidationError } from '#domain/errors';
import type { PublishInput } from '#domain/event-input';
import { isEventId } from '#domain/ids';
import { jsonBody, optionalJsonBody, pathParam } from '#http/request';

/**
 * The path parameter `id`, which must be an event id (UUID v4 or v7, lower case).
 *
 * @throws ValidationError naming `id`
 */
export function parseEventId(event: APIGatewayProxyEvent): string {
  const id = pathParam(event, 'id');
  if (!isEventId(id))
    throw new ValidationError('id', 'must be a UUID (version 4 or 7) in lower-case canonical form');
  return id;
}

/** The fields of `POST /events` (and of each entry of `POST /events/batch`). */
export const PUBLISH_FIELDS: readonly string[] = ['account', 'type', 'payload', 'id', 'triggered_at'];

/**
 * The body of `POST /events` as the library's input; the values are checked by `validatePublishInput`,
 * as for every publisher (it also refuses a non-string `account`, `type` or `id`).
 *
 * @throws ValidationError for a body that is not a JSON object or has an unknown field
 */
export function parsePublishRequest(event: APIGatewayProxyEvent): PublishInput {
  return publishInput(jsonBody(event, PUBLISH_FIELDS));
}

/** A published event's fields (snake_case, as the API names them) as the library's input. */
export function publishInput(body: Readonly<Record<string, unknown>>): PublishInput {
  return {
    account: body.account as string,
    type: body.type as string,
    payload: body.payload,
    id: body.id as string | undefined,
    triggeredAt: body.triggered_at as string | undefined,
  };
}

/**
 * The error the publish route answers with for what recording refused: the library's camelCase
 * `triggeredAt` is the API's `triggered_at`, and an unknown account is a field of the body, not the
 * resource of the URL (422, not 404).
 */
export function publishError(error: unknown): unknown {
  if (error instanceof ValidationError && error.params[0]?.name === 'triggeredAt') {
    return new ValidationError('triggered_at', error.params[0].reason);
  }
  if (error instanceof NotFoundError) {
    return new UnprocessableError('account', error.message.replace(/^account: /, ''));
  }
  return error;
}

/**
 * The optional body of the operator's requeue: `{"older_than_minutes"?: 15, "cursor"?}`; only events
 * triggered before then are queued again.
 *
 * @param nowMs - the clock `older_than_minutes` counts back from
 * @throws ValidationError naming the field
 */
export function parseRequeueRequest(
  event: APIGatewayProxyEvent,
  nowMs: number,
): { until: string; cursor: string | undefined } {
  const { older_than_minutes = 15, cursor } = optionalJsonBody(event, ['older_than_minutes', 'cursor']);
  const checked = checkCursor(cursor);
  if (
    typeof older_than_minutes !== 'number' ||
    !Number.isInteger(older_than_minutes) ||
    older_than_minutes < 0
  ) {
    throw new ValidationError('older_than_minutes', 'must be whole minutes (0 or more)');
  }
  return { until: new Date(nowMs - older_than_minutes * 60_000).toISOString(), cursor: checked };
}

/**
 * The optional body of a chunked operator request that goes on from a cursor: `{"cursor"?}`.
 *
 * @throws ValidationError naming the field
 */
export function parseCursorRequest(event: APIGatewayProxyEvent): { cursor: string | undefined } {
  return { cursor: checkCursor(optionalJsonBody(event, ['cursor']).cursor) };
}

function checkCursor(cursor: unknown): string | undefined {
  if (cursor !== undefined && typeof cursor !== 'string') {
    throw new ValidationError('cursor', 'must be the cursor the previous answer returned');
  }
  return cursor;
}
