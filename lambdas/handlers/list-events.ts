import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { loadEnv } from '#config/env';
import { toEventSummary } from '#http/events/event-view';
import { parseListQuery } from '#http/events/list-query';
import { linkHeader } from '#http/events/pagination';
import { baseUrlOf, orgIdOf } from '#http/request';
import { json } from '#http/response';
import { listEvents } from '#use-cases/events/read-events';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const store = new DynamoEventStore(createDocumentClient(), env.TABLE_NAME);

/** `GET /events`: the organization's events, newest first, paged, with a `Link` header. */
export const handler = apiHandler(async (event) => {
  const query = parseListQuery(event.multiValueQueryStringParameters);
  const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
  const page = await listEvents(store, orgIdOf(event), query);
  return json(
    200,
    page.events.map((record) => toEventSummary(record, baseUrl)),
    { Link: linkHeader(baseUrl, '/events', query, page.hasMore) },
  );
});
