import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { loadEnv } from '#config/env';
import { parsePublishRequest, publishError } from '#http/events/event-request';
import { toEventDetail } from '#http/events/event-view';
import { baseUrlOf } from '#http/request';
import { json } from '#http/response';
import { recordEvent, settingsRetention } from '#use-cases/events/record-event';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const client = createDocumentClient();
const events = new DynamoEventStore(client, env.TABLE_NAME);
const directory = new DynamoDirectoryStore(client, env.TABLE_NAME);
// The stack's retention from the settings item, as for every publisher.
const retentionDays = settingsRetention(directory);

/**
 * `POST /events` (AWS IAM): records an event with the same rules as `createPublisher`. 201 with the
 * event when created, 200 with the stored one when the id was published with the same content, 409 for
 * the same id with other content, 422 for an unknown account, 400 for bad fields.
 */
export const handler = apiHandler(async (event) => {
  const input = parsePublishRequest(event);
  const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
  const result = await recordEvent({ events, directory, baseUrl, retentionDays }, input).catch(
    (error: unknown) => {
      throw publishError(error);
    },
  );
  const view = toEventDetail(result.event, baseUrl);
  return json(result.created ? 201 : 200, view, { Location: view._links.self });
});
