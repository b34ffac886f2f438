import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { loadEnv } from '#config/env';
import { parseDeliveryStatsQuery } from '#http/accounts/account-request';
import { toDeliveryStatsView } from '#http/accounts/delivery-stats-view';
import { orgIdOf, pathParam } from '#http/request';
import { json } from '#http/response';
import { deliveryStats } from '#use-cases/accounts/delivery-stats';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME']);
const documents = createDocumentClient();
const ports = {
  directory: new DynamoDirectoryStore(documents, env.TABLE_NAME),
  events: new DynamoEventStore(documents, env.TABLE_NAME),
};

/**
 * `GET /accounts/{iban}/delivery-stats`: one account endpoint's delivery summary (the portal's charts),
 * from one bounded read of its latest events' attempts.
 */
export const handler = apiHandler(async (event) => {
  const windows = parseDeliveryStatsQuery(event);
  const stats = await deliveryStats(ports, orgIdOf(event), pathParam(event, 'iban'), windows, Date.now());
  return json(200, toDeliveryStatsView(stats));
});
