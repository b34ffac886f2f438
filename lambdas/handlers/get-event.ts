import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointDeliveries } from '#adapters/dynamodb/events/endpoint-deliveries';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { loadEnv } from '#config/env';
import { parseEventId } from '#http/events/event-request';
import { toEventView } from '#http/events/event-view';
import { baseUrlOf, orgIdOf } from '#http/request';
import { json } from '#http/response';
import { getEventWithEndpoints } from '#use-cases/events/event-endpoints';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const client = createDocumentClient();
const deps = {
  events: new DynamoEventStore(client, env.TABLE_NAME),
  deliveries: new DynamoEndpointDeliveries(client, env.TABLE_NAME),
  directory: new DynamoDirectoryStore(client, env.TABLE_NAME),
};

/**
 * `GET /events/{id}`: one event with its payload, its delivery at each endpoint it was routed to and
 * every attempt.
 */
export const handler = apiHandler(async (event) => {
  const record = await getEventWithEndpoints(deps, orgIdOf(event), parseEventId(event));
  return json(200, toEventView(record, baseUrlOf(event, env.PUBLIC_BASE_URL)));
});
