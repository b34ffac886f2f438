import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { loadEnv } from '#config/env';
import { toAccountView } from '#http/accounts/account-view';
import { baseUrlOf, orgIdOf } from '#http/request';
import { json } from '#http/response';
import { listAccounts } from '#use-cases/accounts/accounts';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const directory = new DynamoDirectoryStore(createDocumentClient(), env.TABLE_NAME);

/** `GET /accounts`: the organization's accounts. */
export const handler = apiHandler(async (event) => {
  const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
  const accounts = await listAccounts(directory, orgIdOf(event));
  return json(
    200,
    accounts.map((account) => toAccountView(account, baseUrl)),
  );
});
