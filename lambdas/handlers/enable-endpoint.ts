import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { loadEnv } from '#config/env';
import { parseEnableRequest } from '#http/accounts/account-request';
import { toEndpointEnabledView } from '#http/accounts/account-view';
import { orgIdOf, pathParam } from '#http/request';
import { json } from '#http/response';
import { enableEndpoint } from '#use-cases/accounts/enable-endpoint';
import { apiHandler } from './api-handler';
import { redeliveryDeps } from './redelivery-deps';

const env = loadEnv(['TABLE_NAME', 'QUEUE_URL']);
const documents = createDocumentClient();
const deps = {
  ...redeliveryDeps(documents, env),
  health: new DynamoEndpointHealthStore(documents, env.TABLE_NAME),
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
