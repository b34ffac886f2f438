import { createPublishDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventTypeStore } from '#adapters/dynamodb/event-type-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { logger } from '#adapters/observability';
import { isOn, loadEnv } from '#config/env';
import { HeraldError } from '#domain/errors';
import type { PublishInput } from '#domain/event-input';
import { parsePublishBatch } from '#http/events/batch-request';
import { type BatchOutcome, toBatchView } from '#http/events/batch-view';
import { parsePublishRequest, publishError } from '#http/events/event-request';
import { toEventDetail } from '#http/events/event-view';
import { baseUrlOf } from '#http/request';
import { json } from '#http/response';
import { CATALOG_HEAD_TTL_MS, createEventTypeCatalog } from '#use-cases/event-types/catalog';
import { recordEvent, settingsRetention } from '#use-cases/events/record-event';
import { recordEvents } from '#use-cases/events/record-events';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL', 'ACCEPT_UNKNOWN_EVENT_TYPES']);
const client = createPublishDocumentClient();
const events = new DynamoEventStore(client, env.TABLE_NAME);
const directory = new DynamoDirectoryStore(client, env.TABLE_NAME);
// The stack's retention from the settings item, as for every publisher.
const retentionDays = settingsRetention(directory);
// The built-in types and the operators', each version compiled at its first use and kept; an operator's
// type's head trusted for its time to live, so a healthy publish reads nothing of the catalog.
const catalog = createEventTypeCatalog({
  store: new DynamoEventTypeStore(client, env.TABLE_NAME),
  now: Date.now,
  headTtlMs: CATALOG_HEAD_TTL_MS,
});
const acceptUnknownTypes = isOn('ACCEPT_UNKNOWN_EVENT_TYPES', env.ACCEPT_UNKNOWN_EVENT_TYPES);

/**
 * `POST /events` (AWS IAM): records an event with the same rules as `createPublisher`. 201 with the
 * event when created, 200 with the stored one when the id was published with the same content, 409 for
 * the same id with other content, 422 for an unknown account or a type outside the catalog, 400 for bad
 * fields (a payload its type's schema refuses: one `invalid_params` entry per violation).
 *
 * `POST /events/batch`: up to 100 events, each answered as `POST /events` would, in one 200 answer of
 * results in order (`http/events/batch-view.ts`); 400 only for a body that is not a batch.
 */
export const handler = apiHandler(async (event) => {
  const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
  const deps = { events, directory, baseUrl, retentionDays, catalog, acceptUnknownTypes };
  if (event.resource === '/events/batch') {
    const entries = parsePublishBatch(event);
    const inputs = entries.filter((entry): entry is PublishInput => !(entry instanceof HeraldError));
    const recorded = await recordEvents(deps, inputs);
    let next = 0;
    const outcomes: BatchOutcome[] = entries.map((entry) =>
      entry instanceof HeraldError ? { error: entry } : (recorded[next++] as BatchOutcome),
    );
    for (const outcome of outcomes) {
      // An entry refused by a failure of the service: its answer is a 500 problem, its cause goes here.
      if ('error' in outcome && !(outcome.error instanceof HeraldError)) {
        logger.error('Unhandled error in a batch entry', { error: outcome.error });
      }
    }
    return json(200, toBatchView(outcomes, baseUrl, event.requestContext?.requestId ?? 'unknown'));
  }
  const input = parsePublishRequest(event);
  const result = await recordEvent(deps, input).catch((error: unknown) => {
    throw publishError(error);
  });
  const view = toEventDetail(result.event, baseUrl);
  return json(result.created ? 201 : 200, view, { Location: view._links.self });
});
