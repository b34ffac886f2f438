import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { hostChecker } from '#adapters/http/host-check';
import { loadEnv } from '#config/env';
import { ValidationError } from '#domain/errors';
import { parseUrlPolicy } from '#domain/webhook-url';
import { toAccountView } from '#http/event-view';
import { baseUrlOf, json, jsonBody, orgIdOf, pathParam } from '#http/request';
import { setOwnWebhookUrl } from '#use-cases/administer';
import { rotateWebhookToken, showWebhookToken } from '#use-cases/webhook-tokens';
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
      const { webhook_url } = jsonBody(event, ['webhook_url']);
      if (webhook_url !== null && typeof webhook_url !== 'string') {
        throw new ValidationError('webhook_url', 'must be a URL string, or null to stop deliveries');
      }
      const input = { orgId, iban: pathParam(event, 'iban'), webhookUrl: webhook_url ?? undefined };
      const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
      const account = await setOwnWebhookUrl(directory, input, policy, { checkHost: hostChecker(policy) });
      return json(200, toAccountView(account, baseUrl));
    }
    case 'GET /webhook-token':
      return json(200, await showWebhookToken(directory, orgId));
    case 'POST /webhook-token/rotate': {
      const { overlap_hours } = event.body ? jsonBody(event, ['overlap_hours']) : {};
      return json(200, await rotateWebhookToken(directory, orgId, overlap_hours));
    }
    default:
      throw new Error(`manage-settings does not serve ${event.httpMethod} ${event.resource}`);
  }
});
