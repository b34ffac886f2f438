import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { loadEnv } from '#config/env';
import { parseEventId } from '#http/events/event-request';
import { toEventDetail } from '#http/events/event-view';
import { baseUrlOf, orgIdOf } from '#http/request';
import { json } from '#http/response';
import { getEvent } from '#use-cases/events/read-events';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const store = new DynamoEventStore(createDocumentClient(), env.TABLE_NAME);

/** `GET /events/{id}`: one event with its payload and every delivery attempt. */
export const handler = apiHandler(async (event) => {
  const record = await getEvent(store, orgIdOf(event), parseEventId(event));
  return json(200, toEventDetail(record, baseUrlOf(event, env.PUBLIC_BASE_URL)));
});
