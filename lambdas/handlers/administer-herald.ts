import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiGatewayUsageKeys } from '#adapters/apigateway/usage-keys';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-key-store';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoEndpointSecretStore } from '#adapters/dynamodb/endpoint-secret-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { DynamoEventTypeStore } from '#adapters/dynamodb/event-type-store';
import { DynamoEndpointDeliveries } from '#adapters/dynamodb/events/endpoint-deliveries';
import { DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { DynamoPortalLinkStore } from '#adapters/dynamodb/portal-link-store';
import { DynamoTestEventAllowance } from '#adapters/dynamodb/test-event-allowance';
import { createSecretSealer } from '#adapters/secrets/create-secret-sealer';
import { loadEnv } from '#config/env';
import { ADMIN_ROUTES, type AdministeredOperation } from '#config/routes';
import { parseUrlPolicy } from '#domain/webhook-url';
import {
  parseAccountDeletion,
  parseAccountListQuery,
  parseAccountRequest,
  parseEnableRequest,
} from '#http/accounts/account-request';
import {
  accountListLink,
  toAccountErasureView,
  toAccountView,
  toEndpointEnabledView,
} from '#http/accounts/account-view';
import { parseEndpointSecurity } from '#http/accounts/endpoint-security-request';
import { parseReplayRequest } from '#http/accounts/feed-request';
import { toReplayView } from '#http/accounts/feed-view';
import { parseEventTypeDeclaration } from '#http/event-types/event-type-request';
import { toEventTypeView } from '#http/event-types/event-type-view';
import {
  parseCursorRequest,
  parseEventId,
  parseRedeliverRequest,
  parseRequeueRequest,
} from '#http/events/event-request';
import {
  toIndexUpgradeView,
  toMigrationView,
  toRedeliveryView,
  toRequeueView,
  toResetView,
} from '#http/events/redelivery-view';
import { parseApiKeyRequest } from '#http/organizations/api-key-request';
import { toApiKeyView, toCreatedApiKeyView } from '#http/organizations/api-key-view';
import { parseNewOrganization } from '#http/organizations/organization-request';
import {
  toCreatedOrganizationView,
  toOrganizationView,
  toUsageKeyView,
} from '#http/organizations/organization-view';
import { parseSignatureSchemes } from '#http/organizations/signature-schemes-request';
import { toSignatureSchemesView, toWebhookKeyView } from '#http/organizations/webhook-key-view';
import { parseTokenRotation } from '#http/organizations/webhook-token-request';
import { toWebhookTokenView } from '#http/organizations/webhook-token-view';
import { parsePortalLinkRequest } from '#http/portal/portal-request';
import { toPortalLinkView } from '#http/portal/portal-view';
import { baseUrlOf, pathParam } from '#http/request';
import { json, noContent } from '#http/response';
import { listAccounts } from '#use-cases/accounts/accounts';
import { deleteAccount } from '#use-cases/accounts/delete-account';
import { enableAnyEndpoint } from '#use-cases/accounts/enable-endpoint';
import { putEndpoint } from '#use-cases/accounts/put-endpoint';
import { createEventTypeCatalog, requireEventType } from '#use-cases/event-types/catalog';
import { putEventType } from '#use-cases/event-types/put-event-type';
import { migrateLegacyEvents } from '#use-cases/events/migrate-events';
import { redeliver } from '#use-cases/events/redeliver-endpoint';
import { requeuePending } from '#use-cases/events/redeliver-events';
import { replayAnyAccount } from '#use-cases/events/replay';
import { indexStatuses, resetWebhooks } from '#use-cases/events/reset-webhooks';
import { createApiKey, listApiKeys, revokeApiKey } from '#use-cases/organizations/api-keys';
import { createOrganization, getOrganization } from '#use-cases/organizations/organizations';
import { mintPortalLink } from '#use-cases/organizations/portal-access';
import { registerUsageKey } from '#use-cases/organizations/register-usage-key';
import { rotateSigningKey, setSignatureSchemes } from '#use-cases/organizations/signing-keys';
import { rotateWebhookToken } from '#use-cases/organizations/webhook-tokens';
import { apiHandler } from './api-handler';
import { endpointsDeps } from './endpoint-deps';
import { addEndpoint, getEndpoint, listEndpoints, removeEndpoint, updateEndpoint } from './endpoint-routes';
import { getEventType, listEventTypes } from './event-type-routes';
import {
  listAnyOperationalEventsRoute,
  setOperationalWebhookRoute,
  showOperationalWebhookRoute,
} from './operational-routes';
import { redeliveryDeps } from './redelivery-deps';

const env = loadEnv([
  'TABLE_NAME',
  'QUEUE_URL',
  'PUBLIC_BASE_URL',
  'WEBHOOK_URL_POLICY',
  'SECRETS_KEY_ARN',
  'LOCAL_SECRETS_KEY_FILE',
]);
const client = createDocumentClient();
const sealer = createSecretSealer(env);
const directory = new DynamoDirectoryStore(client, env.TABLE_NAME);
const apiKeys = new DynamoApiKeyStore(client, env.TABLE_NAME);
const portalLinks = new DynamoPortalLinkStore(client, env.TABLE_NAME);
const endpointSecrets = new DynamoEndpointSecretStore(client, env.TABLE_NAME);
const testEvents = new DynamoTestEventAllowance(client, env.TABLE_NAME);
const eventTypes = new DynamoEventTypeStore(client, env.TABLE_NAME);
/** Heads read at every request: an operator sees a change at once. */
const catalog = createEventTypeCatalog({ store: eventTypes, now: Date.now });
const delivery = {
  ...redeliveryDeps(client, env),
  directory,
  deliveries: new DynamoEndpointDeliveries(client, env.TABLE_NAME),
};
/** The operators set the accounts' URLs: they see them whole. */
const OPERATOR = { fullUrl: true } as const;
const notices = new DynamoOperationalLog(client, env.TABLE_NAME);
const enabling = { ...delivery, health: new DynamoEndpointHealthStore(client, env.TABLE_NAME), notices };
const policy = parseUrlPolicy(env.WEBHOOK_URL_POLICY ?? 'public-https');
const endpoints = new DynamoEndpointStore(client, env.TABLE_NAME);
const endpointDeps = endpointsDeps(
  {
    directory,
    events: delivery.events,
    endpointSecrets,
    sealer,
    endpoints,
    health: enabling.health,
    eventTypes,
    notices,
  },
  policy,
);
/** An organization's notices, and its operational webhook's URL, checked as an endpoint's. */
const operational = { directory, log: notices, checks: endpointDeps };
/** An operator reaches every account's endpoints and sees their URLs whole. */
const ENDPOINT_OPERATOR = { fullUrl: true, publicBaseUrl: env.PUBLIC_BASE_URL } as const;
// The plan's id is read once from the settings item (see ApiGatewayUsageKeys for why not a variable).
let usagePlanId: Promise<string | undefined> | undefined;
const usageKeys = new ApiGatewayUsageKeys(new APIGatewayClient({}), () => {
  usagePlanId ??= directory.getUsagePlanId();
  return usagePlanId;
});

type Route = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;
const org = (event: APIGatewayProxyEvent): string => pathParam(event, 'org');

/**
 * How each operator route of `ADMIN_ROUTES` that `administer` serves (every one naming no other function)
 * is served: typed to cover exactly those operations, so a route added to the table without a handler
 * here (or one left here after it left the table) does not compile. API Gateway lets only SigV4-signed
 * callers in.
 */
const ROUTES: { readonly [K in AdministeredOperation]: Route } = {
  createOrganization: async (event) => {
    const { name } = parseNewOrganization(event);
    const created = await createOrganization(directory, apiKeys, name, undefined, sealer);
    // In AWS the organization's requests pass the usage plan only once its key is registered.
    await usageKeys.register(created.organization.id);
    return json(201, toCreatedOrganizationView(created));
  },
  registerUsageKey: async (event) =>
    json(200, toUsageKeyView(await registerUsageKey(directory, usageKeys, org(event)))),
  getOrganization: async (event) =>
    json(200, toOrganizationView(await getOrganization(directory, org(event)))),
  createApiKey: async (event) => {
    const request = parseApiKeyRequest(event, Date.now());
    return json(201, toCreatedApiKeyView(await createApiKey(directory, apiKeys, org(event), request)));
  },
  listApiKeys: async (event) =>
    json(200, (await listApiKeys(directory, apiKeys, org(event))).map(toApiKeyView)),
  revokeApiKey: async (event) => {
    await revokeApiKey(apiKeys, org(event), pathParam(event, 'key_id'));
    return noContent();
  },
  rotateOrganizationToken: async (event) => {
    const { overlapHours } = parseTokenRotation(event);
    return json(200, toWebhookTokenView(await rotateWebhookToken(directory, org(event), overlapHours)));
  },
  rotateOrganizationKeys: async (event) => {
    const { overlapHours } = parseTokenRotation(event);
    if (!sealer) throw new Error('no secrets key configured (SECRETS_KEY_ARN)');
    const keys = await rotateSigningKey({ directory, sealer }, org(event), overlapHours);
    return json(200, keys.map(toWebhookKeyView));
  },
  setOrganizationSignatures: async (event) => {
    const schemes = parseSignatureSchemes(event);
    return json(200, toSignatureSchemesView(await setSignatureSchemes(directory, org(event), schemes)));
  },
  getOrganizationOperationalWebhook: (event) =>
    showOperationalWebhookRoute(operational, org(event), OPERATOR),
  setOrganizationOperationalWebhook: (event) => setOperationalWebhookRoute(operational, org(event), event),
  listOrganizationOperationalEvents: (event) =>
    listAnyOperationalEventsRoute(operational, org(event), event, baseUrlOf(event, env.PUBLIC_BASE_URL)),
  // The answer carries a sign-in token: API Gateway logs no bodies and this handler logs none.
  createPortalLink: async (event) => {
    const request = parsePortalLinkRequest(event);
    const grant = await mintPortalLink(directory, portalLinks, org(event), request);
    return json(201, toPortalLinkView(grant, baseUrlOf(event, env.PUBLIC_BASE_URL)));
  },
  listOrganizationAccounts: async (event) => {
    const query = parseAccountListQuery(event);
    const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
    const page = await listAccounts(directory, org(event), query);
    const path = `/admin/organizations/${encodeURIComponent(org(event))}/accounts`;
    return json(
      200,
      page.accounts.map((account) => toAccountView(account, baseUrl, OPERATOR)),
      { Link: accountListLink(baseUrl, path, query, page) },
    );
  },
  requeueEvents: async (event) => {
    const { until, cursor } = parseRequeueRequest(event, Date.now());
    return json(202, toRequeueView(await requeuePending(delivery, org(event), until, cursor)));
  },
  redeliverOrganizationEvent: async (event) => {
    const { endpointId } = parseRedeliverRequest(event);
    return json(
      202,
      toRedeliveryView(await redeliver(delivery, org(event), parseEventId(event), endpointId)),
    );
  },
  resetOrganizationWebhooks: async (event) =>
    json(202, toResetView(await resetWebhooks(delivery, org(event)))),
  migrateEvents: async (event) => {
    const { cursor } = parseCursorRequest(event);
    return json(200, toMigrationView(await migrateLegacyEvents(delivery, org(event), cursor)));
  },
  indexEventStatuses: async (event) => {
    const { cursor } = parseCursorRequest(event);
    return json(200, toIndexUpgradeView(await indexStatuses(delivery.events, org(event), cursor)));
  },
  putAccount: async (event) => {
    const input = { iban: pathParam(event, 'iban'), ...parseAccountRequest(event) };
    const security = parseEndpointSecurity(event);
    const account = await putEndpoint(endpointDeps, { ...input, security, mayCreate: true });
    return json(200, toAccountView(account, baseUrlOf(event, env.PUBLIC_BASE_URL), OPERATOR));
  },
  deleteAccount: async (event) => {
    const request = { iban: pathParam(event, 'iban'), ...parseAccountDeletion(event) };
    const deps = {
      directory,
      events: delivery.events,
      now: Date.now,
      removeEndpointSecrets: endpointSecrets.removeSecrets,
      testEvents,
      endpoints,
      notices,
    };
    const result = await deleteAccount(deps, request);
    // Without `erase` nothing more to say; with it, how much was erased and whether to go on.
    return request.erase ? json(200, toAccountErasureView(result)) : noContent();
  },
  adminEnableEndpoint: async (event) => {
    const { recovery } = parseEnableRequest(event);
    const result = await enableAnyEndpoint(enabling, pathParam(event, 'iban'), recovery);
    return json(200, toEndpointEnabledView(result));
  },
  adminReplayAccount: async (event) => {
    const { afterSequence, endpointId } = parseReplayRequest(event);
    const at = endpointId === undefined ? undefined : { id: endpointId, deps: { ...delivery, endpoints } };
    const result = await replayAnyAccount(delivery, pathParam(event, 'iban'), afterSequence, at);
    return json(202, toReplayView(result));
  },
  adminListEndpoints: (event) => listEndpoints(endpointDeps, ENDPOINT_OPERATOR, event),
  adminAddEndpoint: (event) => addEndpoint(endpointDeps, ENDPOINT_OPERATOR, event),
  adminGetEndpoint: (event) => getEndpoint(endpointDeps, ENDPOINT_OPERATOR, event),
  adminUpdateEndpoint: (event) => updateEndpoint(endpointDeps, ENDPOINT_OPERATOR, event),
  adminRemoveEndpoint: (event) => removeEndpoint(endpointDeps, ENDPOINT_OPERATOR, event),
  adminListEventTypes: (event) => listEventTypes(catalog, event, env.PUBLIC_BASE_URL),
  adminGetEventType: (event) => getEventType(catalog, event),
  putEventType: async (event) => {
    const declaration = parseEventTypeDeclaration(event);
    const { created } = await putEventType(eventTypes, declaration);
    return json(created ? 201 : 200, toEventTypeView(await requireEventType(catalog, declaration.type)));
  },
};

/** The routes by `<METHOD> <resource>`, as API Gateway names the one it invoked. */
const BY_RESOURCE = new Map<string, Route>(
  (Object.keys(ROUTES) as AdministeredOperation[]).map((name) => {
    const { method, path } = ADMIN_ROUTES[name];
    return [`${method} ${path}`, ROUTES[name]];
  }),
);

/**
 * `/admin/…`: organizations, API keys, portal sign-in links, token rotation, accounts and delivery repairs,
 * the event type catalog, for operators.
 */
export const handler = apiHandler(async (event) => {
  const route = BY_RESOURCE.get(`${event.httpMethod} ${event.resource}`);
  if (!route) throw new Error(`administer-herald does not serve ${event.httpMethod} ${event.resource}`);
  return route(event);
});
