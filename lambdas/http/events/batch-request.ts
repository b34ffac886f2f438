/**
 * The body of `POST /events/batch`: `{"events": [<entry>, …]}`, each entry the body of `POST /events`.
 * The batch as a whole is refused only when it is not such a body (or too large); an entry that is not
 * an object, or names an unknown field, refuses itself, as the use-case's checks of its values do.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { PUBLISH_BATCH_LIMIT, PUBLISH_BATCH_MAX_BYTES } from '#config/limits';
import { ValidationError } from '#domain/errors';
import type { PublishInput } from '#domain/event-input';
import { jsonBody } from '#http/request';
import { PUBLISH_FIELDS, publishInput } from './event-request';

/** One entry of a batch: its input, or why it is refused before any check of its values. */
export type BatchEntry = PublishInput | ValidationError;

/**
 * The entries of a batch publish, in order.
 *
 * @throws ValidationError naming `body` (not a JSON object, over {@link PUBLISH_BATCH_MAX_BYTES}) or
 *   `events` (missing, not an array, empty, more than {@link PUBLISH_BATCH_LIMIT} entries)
 */
export function parsePublishBatch(event: APIGatewayProxyEvent): BatchEntry[] {
  const bytes = Buffer.byteLength(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (bytes > PUBLISH_BATCH_MAX_BYTES) {
    throw new ValidationError('body', `has ${bytes} bytes, the limit is ${PUBLISH_BATCH_MAX_BYTES}`);
  }
  const { events } = jsonBody(event, ['events']);
  if (!Array.isArray(events) || events.length === 0 || events.length > PUBLISH_BATCH_LIMIT) {
    throw new ValidationError('events', `must be an array of 1 to ${PUBLISH_BATCH_LIMIT} events`);
  }
  return events.map((entry: unknown, index) => {
    const at = `events[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return new ValidationError(at, `must be an object with ${PUBLISH_FIELDS.join(', ')}`);
    }
    const unknown = Object.keys(entry).find((name) => !PUBLISH_FIELDS.includes(name));
    if (unknown !== undefined) {
      return new ValidationError(`${at}.${unknown}`, `unknown field; allowed: ${PUBLISH_FIELDS.join(', ')}`);
    }
    return publishInput(entry as Record<string, unknown>);
  });
}
