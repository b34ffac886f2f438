import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { loadEnv } from '#config/env';
import { toAccountView } from '#http/accounts/account-view';
import { baseUrlOf, isManageKey, orgIdOf, pathParam } from '#http/request';
import { json } from '#http/response';
import { getAccount } from '#use-cases/accounts/accounts';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const directory = new DynamoDirectoryStore(createDocumentClient(), env.TABLE_NAME);

/**
 * `GET /accounts/{iban}`: one account of the organization (the target of an event's `_links.account`);
 * a `read` key sees its webhook URL's query values masked.
 */
export const handler = apiHandler(async (event) => {
  const account = await getAccount(directory, orgIdOf(event), pathParam(event, 'iban'));
  return json(
    200,
    toAccountView(account, baseUrlOf(event, env.PUBLIC_BASE_URL), { fullUrl: isManageKey(event) }),
  );
});
