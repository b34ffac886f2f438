/**
 * The body of `POST /events/batch`: `{"events": [<entry>, …]}`, each entry the body of `POST /events`.
 * The batch as a whole is refused only when it is not such a body (or too large); each entry is read on
 * its own by the single publish's schema (`readPublishEntry`), so an entry that is not an object, names an
 * unknown field or has a malformed one refuses itself, as the use-case's checks of its values do.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { PUBLISH_BATCH_LIMIT, PUBLISH_BATCH_MAX_BYTES } from '#config/limits';
import { ValidationError } from '#domain/errors';
import type { PublishInput } from '#domain/event-input';
import { readBody } from '#http/read-request';
import { body, closed, itemsApart, ref, withReason } from '#http/schema';
import { PUBLISH_REQUEST, readPublishEntry } from './event-request';

/** The body of `POST /events/batch`, a component of the document: its entries are read apart. */
export const PUBLISH_BATCH_REQUEST = closed({
  events: withReason(
    itemsApart(ref('PublishRequest', PUBLISH_REQUEST), {
      minItems: 1,
      maxItems: PUBLISH_BATCH_LIMIT,
      description:
        `1 to ${PUBLISH_BATCH_LIMIT} events, each as the body of \`POST /events\`; an entry that is not ` +
        'one refuses itself, not the batch.',
    }),
    `must be a list of 1 to ${PUBLISH_BATCH_LIMIT} events`,
  ),
});
/** `POST /events/batch` takes it, by reference. */
export const PUBLISH_BATCH_BODY = body(ref('PublishBatchRequest', PUBLISH_BATCH_REQUEST));

/** One entry of a batch: its input, or why it is refused before any check of its values. */
export type BatchEntry = PublishInput | ValidationError;

/**
 * The entries of a batch publish, in order; a refused entry's fields are named `events[<index>].<field>`
 * (`events[<index>]` for one that is not a JSON object).
 *
 * @throws ValidationError naming `body` (not a JSON object, over {@link PUBLISH_BATCH_MAX_BYTES}), an
 *   unknown field, or `events` (missing, not a list, empty, more than {@link PUBLISH_BATCH_LIMIT} entries)
 */
export function parsePublishBatch(event: APIGatewayProxyEvent): BatchEntry[] {
  const bytes = Buffer.byteLength(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (bytes > PUBLISH_BATCH_MAX_BYTES) {
    throw new ValidationError('body', `has ${bytes} bytes, the limit is ${PUBLISH_BATCH_MAX_BYTES}`);
  }
  return readBody(event, PUBLISH_BATCH_BODY).events.map((entry, index) => {
    try {
      return readPublishEntry(entry);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const at = `events[${index}]`;
      return error.renamed((name) => (name === 'body' ? at : `${at}.${name}`));
    }
  });
}
