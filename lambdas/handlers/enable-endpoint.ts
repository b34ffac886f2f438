import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { parseEnableRequest } from '#http/accounts/account-request';
import { toEndpointEnabledView } from '#http/accounts/account-view';
import { orgIdOf, pathParam } from '#http/request';
import { json } from '#http/response';
import { enableEndpoint } from '#use-cases/accounts/enable-endpoint';
import { apiHandler } from './api-handler';
import { redeliveryWiring } from './redelivery-deps';

const { deps: redelivery, documents, tableName } = redeliveryWiring();
const deps = {
  ...redelivery,
  health: new DynamoEndpointHealthStore(documents, tableName),
  notices: new DynamoOperationalLog(documents, tableName),
};

/**
 * `POST /accounts/{iban}/enable`: the endpoint is healthy again; optionally redeliver since a time, a
 * bounded step per request (`more` and `cursor` to go on).
 */
export const handler = apiHandler(async (event) => {
  const { recovery } = parseEnableRequest(event);
  const result = await enableEndpoint(deps, orgIdOf(event), pathParam(event, 'iban'), recovery);
  return json(200, toEndpointEnabledView(result));
});
