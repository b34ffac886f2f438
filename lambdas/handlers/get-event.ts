import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { loadEnv } from '#config/env';
import { toEventDetail } from '#http/event-view';
import { baseUrlOf, json, orgIdOf, pathParam } from '#http/request';
import { getEvent } from '#use-cases/read-events';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const store = new DynamoEventStore(createDocumentClient(), env.TABLE_NAME);

/** `GET /events/{id}`: one event with its payload and every delivery attempt. */
export const handler = apiHandler(async (event) => {
  const record = await getEvent(store, orgIdOf(event), pathParam(event, 'id'));
  return json(200, toEventDetail(record, baseUrlOf(event, env.PUBLIC_BASE_URL)));
});
