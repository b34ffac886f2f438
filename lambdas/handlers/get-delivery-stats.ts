import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { loadEnv } from '#config/env';
import { parseDeliveryStatsQuery } from '#http/accounts/account-request';
import { toDeliveryStatsView } from '#http/accounts/delivery-stats-view';
import {
  operationalEventsLink,
  toOperationalEventDetailView,
  toOperationalEventView,
} from '#http/organizations/operational-event-view';
import { parseNoticeId, parseOperationalEventsQuery } from '#http/organizations/operational-events-request';
import { baseUrlOf, orgIdOf, pathParam } from '#http/request';
import { json } from '#http/response';
import { deliveryStats } from '#use-cases/accounts/delivery-stats';
import { getOperationalEvent, listOperationalEvents } from '#use-cases/organizations/operational-events';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const documents = createDocumentClient();
const ports = {
  directory: new DynamoDirectoryStore(documents, env.TABLE_NAME),
  events: new DynamoEventStore(documents, env.TABLE_NAME),
  notices: new DynamoOperationalLog(documents, env.TABLE_NAME),
};

/**
 * `GET /accounts/{iban}/delivery-stats`: one account endpoint's delivery summary (the portal's charts),
 * from one bounded read of its latest events' attempts; `GET /operational-events`: one page of the
 * organization's operational notices about its endpoints; `GET /operational-events/{id}`: one of them
 * with its attempts to the operational webhook.
 */
export const handler = apiHandler(async (event) => {
  if (event.resource === '/operational-events/{id}') {
    const notice = await getOperationalEvent(ports.notices, orgIdOf(event), parseNoticeId(event));
    return json(200, toOperationalEventDetailView(notice));
  }
  if (event.resource === '/operational-events') {
    const query = parseOperationalEventsQuery(event);
    const page = await listOperationalEvents(ports.notices, orgIdOf(event), query);
    const link = operationalEventsLink(baseUrlOf(event, env.PUBLIC_BASE_URL), query, page);
    return json(200, page.notices.map(toOperationalEventView), { Link: link });
  }
  const windows = parseDeliveryStatsQuery(event);
  const stats = await deliveryStats(ports, orgIdOf(event), pathParam(event, 'iban'), windows, Date.now());
  return json(200, toDeliveryStatsView(stats));
});
