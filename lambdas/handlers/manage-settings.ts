import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { hostChecker } from '#adapters/http/host-check';
import { loadEnv } from '#config/env';
import { parseUrlPolicy } from '#domain/webhook-url';
import { parseWebhookUrlRequest } from '#http/accounts/account-request';
import { toAccountView } from '#http/accounts/account-view';
import { parseTokenRotation } from '#http/organizations/webhook-token-request';
import { toWebhookTokenView } from '#http/organizations/webhook-token-view';
import { baseUrlOf, orgIdOf, pathParam } from '#http/request';
import { json } from '#http/response';
import { setOwnWebhookUrl } from '#use-cases/accounts/accounts';
import { rotateWebhookToken, showWebhookToken } from '#use-cases/organizations/webhook-tokens';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL', 'WEBHOOK_URL_POLICY']);
const directory = new DynamoDirectoryStore(createDocumentClient(), env.TABLE_NAME);
const policy = parseUrlPolicy(env.WEBHOOK_URL_POLICY ?? 'public-https');

/**
 * An organization key's `manage` routes (the authorizer's policy lets only `manage` keys reach them):
 * `PUT /accounts/{iban}` sets the webhook URL of one of its accounts, `GET /webhook-token` shows the
 * webhook token (and the previous one during an overlap), `POST /webhook-token/rotate` replaces it.
 */
export const handler = apiHandler(async (event) => {
  const orgId = orgIdOf(event);
  switch (`${event.httpMethod} ${event.resource}`) {
    case 'PUT /accounts/{iban}': {
      const input = { orgId, iban: pathParam(event, 'iban'), ...parseWebhookUrlRequest(event) };
      const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
      const account = await setOwnWebhookUrl(directory, input, policy, { checkHost: hostChecker(policy) });
      return json(200, toAccountView(account, baseUrl));
    }
    case 'GET /webhook-token':
      return json(200, toWebhookTokenView(await showWebhookToken(directory, orgId)));
    case 'POST /webhook-token/rotate': {
      const { overlapHours } = parseTokenRotation(event);
      return json(200, toWebhookTokenView(await rotateWebhookToken(directory, orgId, overlapHours)));
    }
    default:
      throw new Error(`manage-settings does not serve ${event.httpMethod} ${event.resource}`);
  }
});
