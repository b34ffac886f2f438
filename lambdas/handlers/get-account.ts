import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { loadEnv } from '#config/env';
import { toAccountView } from '#http/event-view';
import { baseUrlOf, json, orgIdOf, pathParam } from '#http/request';
import { getAccount } from '#use-cases/administer';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const directory = new DynamoDirectoryStore(createDocumentClient(), env.TABLE_NAME);

/** `GET /accounts/{iban}`: one account of the organization (the target of an event's `_links.account`). */
export const handler = apiHandler(async (event) => {
  const account = await getAccount(directory, orgIdOf(event), pathParam(event, 'iban'));
  return json(200, toAccountView(account, baseUrlOf(event, env.PUBLIC_BASE_URL)));
});
