import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoEndpointSecretStore } from '#adapters/dynamodb/endpoint-secret-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { DynamoEventTypeStore } from '#adapters/dynamodb/event-type-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { createSecretSealer } from '#adapters/secrets/create-secret-sealer';
import { loadEnv } from '#config/env';
import { parseUrlPolicy } from '#domain/webhook-url';
import { parseWebhookUrlRequest } from '#http/accounts/account-request';
import { toAccountView } from '#http/accounts/account-view';
import { parseEndpointSecurity } from '#http/accounts/endpoint-security-request';
import { parseSignatureSchemes } from '#http/organizations/signature-schemes-request';
import { toSignatureSchemesView, toWebhookKeyView } from '#http/organizations/webhook-key-view';
import { parseTokenRotation } from '#http/organizations/webhook-token-request';
import { toWebhookTokenView } from '#http/organizations/webhook-token-view';
import { baseUrlOf, isManageKey, orgIdOf, pathParam } from '#http/request';
import { json } from '#http/response';
import { putEndpoint } from '#use-cases/accounts/put-endpoint';
import {
  listSigningKeys,
  rotateSigningKey,
  setSignatureSchemes,
} from '#use-cases/organizations/signing-keys';
import { rotateWebhookToken, showWebhookToken } from '#use-cases/organizations/webhook-tokens';
import { apiHandler } from './api-handler';
import { endpointsDeps } from './endpoint-deps';
import { addEndpoint, type EndpointRouteCaller, removeEndpoint, updateEndpoint } from './endpoint-routes';
import { setOperationalWebhookRoute, showOperationalWebhookRoute } from './operational-routes';

const env = loadEnv([
  'TABLE_NAME',
  'PUBLIC_BASE_URL',
  'WEBHOOK_URL_POLICY',
  'SECRETS_KEY_ARN',
  'LOCAL_SECRETS_KEY_FILE',
]);
const documents = createDocumentClient();
const directory = new DynamoDirectoryStore(documents, env.TABLE_NAME);
const endpointSecrets = new DynamoEndpointSecretStore(documents, env.TABLE_NAME);
const sealer = createSecretSealer(env);
const policy = parseUrlPolicy(env.WEBHOOK_URL_POLICY ?? 'public-https');
const events = new DynamoEventStore(documents, env.TABLE_NAME);
const endpointDeps = endpointsDeps(
  {
    directory,
    events,
    endpointSecrets,
    sealer,
    endpoints: new DynamoEndpointStore(documents, env.TABLE_NAME),
    health: new DynamoEndpointHealthStore(documents, env.TABLE_NAME),
    eventTypes: new DynamoEventTypeStore(documents, env.TABLE_NAME),
    notices: new DynamoOperationalLog(documents, env.TABLE_NAME),
  },
  policy,
);
/** The operational webhook's URL is checked as an endpoint's: the policy, then the host. */
const operationalWebhook = { directory, checks: endpointDeps };

/**
 * An organization's own signing settings (the authorizer's policy lets only `manage` keys reach them,
 * but for the public keys): `PUT /accounts/{iban}` changes one of its accounts (URL, order, endpoint
 * security) and `POST|PUT|DELETE /accounts/{iban}/endpoints…` its webhook endpoints, `GET /webhook-token` shows the webhook token (and the previous one during an overlap),
 * `POST /webhook-token/rotate` replaces it; `GET /webhook-keys` lists the Ed25519 public keys,
 * `POST /webhook-keys/rotate` replaces the key pair, `PUT /webhook-signatures` picks the schemes;
 * `GET|PUT /operational-webhook` shows (any key, masked for `read`) and sets where its operational
 * notices go.
 */
export const handler = apiHandler(async (event) => {
  const orgId = orgIdOf(event);
  const caller: EndpointRouteCaller = { orgId, fullUrl: true, publicBaseUrl: env.PUBLIC_BASE_URL };
  switch (`${event.httpMethod} ${event.resource}`) {
    case 'PUT /accounts/{iban}': {
      const input = { orgId, iban: pathParam(event, 'iban'), ...parseWebhookUrlRequest(event) };
      const security = parseEndpointSecurity(event);
      const account = await putEndpoint(endpointDeps, { ...input, security, mayCreate: false });
      return json(200, toAccountView(account, baseUrlOf(event, env.PUBLIC_BASE_URL), { fullUrl: true }));
    }
    case 'POST /accounts/{iban}/endpoints':
      return addEndpoint(endpointDeps, caller, event);
    case 'PUT /accounts/{iban}/endpoints/{endpoint_id}':
      return updateEndpoint(endpointDeps, caller, event);
    case 'DELETE /accounts/{iban}/endpoints/{endpoint_id}':
      return removeEndpoint(endpointDeps, caller, event);
    case 'GET /webhook-token':
      return json(200, toWebhookTokenView(await showWebhookToken(directory, orgId)));
    case 'POST /webhook-token/rotate': {
      const { overlapHours } = parseTokenRotation(event);
      return json(200, toWebhookTokenView(await rotateWebhookToken(directory, orgId, overlapHours)));
    }
    case 'GET /webhook-keys':
      return json(200, (await listSigningKeys(directory, orgId)).map(toWebhookKeyView));
    case 'POST /webhook-keys/rotate': {
      const { overlapHours } = parseTokenRotation(event);
      const keys = await rotateSigningKey({ directory, sealer: requireSealer() }, orgId, overlapHours);
      return json(200, keys.map(toWebhookKeyView));
    }
    case 'PUT /webhook-signatures': {
      const schemes = parseSignatureSchemes(event);
      return json(200, toSignatureSchemesView(await setSignatureSchemes(directory, orgId, schemes)));
    }
    case 'GET /operational-webhook':
      return showOperationalWebhookRoute(operationalWebhook, orgId, { fullUrl: isManageKey(event) });
    case 'PUT /operational-webhook':
      return setOperationalWebhookRoute(operationalWebhook, orgId, event);
    default:
      throw new Error(`manage-settings does not serve ${event.httpMethod} ${event.resource}`);
  }
});

/** The sealer, which a deployment always configures for this function (a 500 otherwise). */
function requireSealer() {
  if (!sealer) throw new Error('no secrets key configured (SECRETS_KEY_ARN)');
  return sealer;
}
