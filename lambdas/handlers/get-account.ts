import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { loadEnv } from '#config/env';
import { toAccountView } from '#http/accounts/account-view';
import { baseUrlOf, isManageKey, orgIdOf, pathParam } from '#http/request';
import { json } from '#http/response';
import { getAccount } from '#use-cases/accounts/accounts';
import { apiHandler } from './api-handler';
import { type EndpointRouteCaller, getEndpoint, listEndpoints } from './endpoint-routes';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const documents = createDocumentClient();
const directory = new DynamoDirectoryStore(documents, env.TABLE_NAME);
const endpoints = new DynamoEndpointStore(documents, env.TABLE_NAME);

/**
 * `GET /accounts/{iban}`: one account of the organization (the target of an event's `_links.account`);
 * `GET /accounts/{iban}/endpoints` and `…/endpoints/{endpoint_id}`: its webhook endpoints. A `read` key
 * sees the webhook URLs' query values masked.
 */
export const handler = apiHandler(async (event) => {
  const fullUrl = isManageKey(event);
  const orgId = orgIdOf(event);
  const caller: EndpointRouteCaller = { orgId, fullUrl, publicBaseUrl: env.PUBLIC_BASE_URL };
  switch (event.resource) {
    case '/accounts/{iban}/endpoints':
      return listEndpoints({ directory, endpoints }, caller, event);
    case '/accounts/{iban}/endpoints/{endpoint_id}':
      return getEndpoint({ directory, endpoints }, caller, event);
    default: {
      const account = await getAccount(directory, orgId, pathParam(event, 'iban'));
      return json(200, toAccountView(account, baseUrlOf(event, env.PUBLIC_BASE_URL), { fullUrl }));
    }
  }
});
