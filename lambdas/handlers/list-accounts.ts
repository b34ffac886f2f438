import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { loadEnv } from '#config/env';
import { parseAccountListQuery } from '#http/accounts/account-request';
import { accountListLink, toAccountView } from '#http/accounts/account-view';
import { baseUrlOf, isManageKey, orgIdOf } from '#http/request';
import { json } from '#http/response';
import { listAccounts } from '#use-cases/accounts/accounts';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const directory = new DynamoDirectoryStore(createDocumentClient(), env.TABLE_NAME);

/**
 * `GET /accounts`: one page of the organization's accounts by IBAN, with a `Link` header; a `read` key
 * sees their webhook URLs' query values masked.
 */
export const handler = apiHandler(async (event) => {
  const query = parseAccountListQuery(event);
  const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
  const audience = { fullUrl: isManageKey(event) };
  const page = await listAccounts(directory, orgIdOf(event), query);
  return json(
    200,
    page.accounts.map((account) => toAccountView(account, baseUrl, audience)),
    { Link: accountListLink(baseUrl, '/accounts', query, page) },
  );
});
