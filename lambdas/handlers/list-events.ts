import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { DynamoEndpointDeliveries } from '#adapters/dynamodb/events/endpoint-deliveries';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { loadEnv } from '#config/env';
import { parseIban } from '#domain/iban';
import { parseFeedQuery } from '#http/accounts/feed-request';
import { toFeedAnswer } from '#http/accounts/feed-view';
import { toEventSummary } from '#http/events/event-view';
import { parseListQuery } from '#http/events/list-query';
import { linkHeader } from '#http/events/pagination';
import { baseUrlOf, orgIdOf, pathParam } from '#http/request';
import { json } from '#http/response';
import { listEventsAt } from '#use-cases/events/endpoint-events';
import { readFeed } from '#use-cases/events/read-events';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const client = createDocumentClient();
const store = new DynamoEventStore(client, env.TABLE_NAME);
// The feed reads an account's `seq_floor` when its log misses a sequence.
const directory = new DynamoDirectoryStore(client, env.TABLE_NAME);
// `endpoint_id` reads the account's endpoints and, for an extra one, its partition of deliveries.
const listing = {
  events: store,
  directory,
  endpoints: new DynamoEndpointStore(client, env.TABLE_NAME),
  deliveries: new DynamoEndpointDeliveries(client, env.TABLE_NAME),
};

/**
 * The organization's event listings: `GET /events`, newest first, paged, with a `Link` header; and
 * `GET /accounts/{iban}/events`, one account's catch-up feed in sequence order after a cursor, each event
 * with its payload (no attempts), as many as one answer carries, and `Link: next` while more may follow.
 */
export const handler = apiHandler(async (event) => {
  const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
  if (event.resource === '/accounts/{iban}/events') {
    const iban = parseIban('iban', pathParam(event, 'iban'));
    const query = parseFeedQuery(event);
    const feed = await readFeed(
      { events: store, directory, now: Date.now },
      orgIdOf(event),
      iban,
      query.afterSequence,
      query.limit,
    );
    const answer = toFeedAnswer(feed, baseUrl, iban, query);
    return json(200, answer.events, answer.link === undefined ? {} : { Link: answer.link });
  }
  const query = parseListQuery(event.multiValueQueryStringParameters);
  const page = await listEventsAt(listing, orgIdOf(event), query);
  return json(
    200,
    page.events.map((record) => toEventSummary(record, baseUrl)),
    { Link: linkHeader(baseUrl, '/events', query, page.hasMore) },
  );
});
