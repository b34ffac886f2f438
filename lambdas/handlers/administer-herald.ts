import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiGatewayUsageKeys } from '#adapters/apigateway/usage-keys';
import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-key-store';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { DynamoPortalLinkStore } from '#adapters/dynamodb/portal-link-store';
import { hostChecker } from '#adapters/http/host-check';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { loadEnv } from '#config/env';
import { ValidationError } from '#domain/errors';
import { parseUrlPolicy } from '#domain/webhook-url';
import { parseEnableRequest, toEndpointEnabledView } from '#http/enable-request';
import { toAccountView } from '#http/event-view';
import { baseUrlOf, json, jsonBody, noContent, pathParam, queryParams } from '#http/request';
import { createOrganization, getOrganization, listAccounts, putAccount } from '#use-cases/administer';
import { createApiKey, listApiKeys, revokeApiKey } from '#use-cases/api-keys';
import { deleteAccount } from '#use-cases/delete-account';
import { enableAnyEndpoint } from '#use-cases/enable-endpoint';
import { mintPortalLink, parsePortalLinkRequest } from '#use-cases/portal-access';
import { parseEventId } from '#use-cases/read-events';
import { redeliverEvent, requeuePending } from '#use-cases/redeliver-events';
import { registerUsageKey } from '#use-cases/register-usage-key';
import { indexStatuses, resetWebhooks } from '#use-cases/reset-webhooks';
import { rotateWebhookToken } from '#use-cases/webhook-tokens';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'QUEUE_URL', 'PUBLIC_BASE_URL', 'WEBHOOK_URL_POLICY']);
const client = createDocumentClient();
const directory = new DynamoDirectoryStore(client, env.TABLE_NAME);
const apiKeys = new DynamoApiKeyStore(client, env.TABLE_NAME);
const portalLinks = new DynamoPortalLinkStore(client, env.TABLE_NAME);
const delivery = {
  events: new DynamoEventStore(client, env.TABLE_NAME),
  queue: new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL),
};
const enabling = {
  ...delivery,
  directory,
  health: new DynamoEndpointHealthStore(client, env.TABLE_NAME),
  now: Date.now,
};
const policy = parseUrlPolicy(env.WEBHOOK_URL_POLICY ?? 'public-https');
// The plan's id is read once from the settings item (see ApiGatewayUsageKeys for why not a variable).
let usagePlanId: Promise<string | undefined> | undefined;
const usageKeys = new ApiGatewayUsageKeys(new APIGatewayClient({}), () => {
  usagePlanId ??= directory.getUsagePlanId();
  return usagePlanId;
});

type Route = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;
const org = (event: APIGatewayProxyEvent): string => pathParam(event, 'org');

/** The operator's routes by `<METHOD> <resource>`; API Gateway lets only SigV4-signed callers in. */
const ROUTES: Readonly<Record<string, Route>> = {
  'POST /admin/organizations': async (event) => {
    const created = await createOrganization(directory, apiKeys, jsonBody(event, ['name']).name);
    // In AWS the organization's requests pass the usage plan only once its key is registered.
    await usageKeys.register(created.id);
    return json(201, created);
  },
  'POST /admin/organizations/{org}/usage-key': async (event) =>
    json(200, await registerUsageKey(directory, usageKeys, org(event))),
  'GET /admin/organizations/{org}': async (event) => json(200, await getOrganization(directory, org(event))),
  'POST /admin/organizations/{org}/api-keys': async (event) => {
    const body = jsonBody(event, ['name', 'scope', 'expires_at']);
    const request = { name: body.name, scope: body.scope, expiresAt: body.expires_at };
    return json(201, await createApiKey(directory, apiKeys, org(event), request));
  },
  'GET /admin/organizations/{org}/api-keys': async (event) =>
    json(200, await listApiKeys(directory, apiKeys, org(event))),
  'DELETE /admin/organizations/{org}/api-keys/{key_id}': async (event) => {
    await revokeApiKey(apiKeys, org(event), pathParam(event, 'key_id'));
    return noContent();
  },
  'POST /admin/organizations/{org}/webhook-token/rotate': async (event) => {
    const { overlap_hours } = event.body ? jsonBody(event, ['overlap_hours']) : {};
    return json(200, await rotateWebhookToken(directory, org(event), overlap_hours));
  },
  // The answer carries a sign-in token: API Gateway logs no bodies and this handler logs none.
  'POST /admin/organizations/{org}/portal-links': async (event) => {
    const request = parsePortalLinkRequest(event.body ? jsonBody(event, ['scope', 'ttl_minutes']) : {});
    const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
    return json(201, await mintPortalLink(directory, portalLinks, org(event), request, baseUrl));
  },
  'GET /admin/organizations/{org}/accounts': async (event) =>
    json(
      200,
      (await listAccounts(directory, org(event))).map((account) =>
        toAccountView(account, baseUrlOf(event, env.PUBLIC_BASE_URL)),
      ),
    ),
  'POST /admin/organizations/{org}/events/requeue': async (event) => {
    const { older_than_minutes = 15, cursor } = event.body
      ? jsonBody(event, ['older_than_minutes', 'cursor'])
      : {};
    if (cursor !== undefined && typeof cursor !== 'string') {
      throw new ValidationError('cursor', 'must be the cursor the previous answer returned');
    }
    if (
      typeof older_than_minutes !== 'number' ||
      !Number.isInteger(older_than_minutes) ||
      older_than_minutes < 0
    ) {
      throw new ValidationError('older_than_minutes', 'must be whole minutes (0 or more)');
    }
    const until = new Date(Date.now() - older_than_minutes * 60_000).toISOString();
    return json(202, await requeuePending(delivery, org(event), until, cursor));
  },
  'POST /admin/organizations/{org}/events/{id}/redeliver': async (event) =>
    json(202, await redeliverEvent(delivery, org(event), parseEventId(pathParam(event, 'id')))),
  'POST /admin/organizations/{org}/webhooks/reset': async (event) =>
    json(202, await resetWebhooks(delivery, org(event))),
  'POST /admin/organizations/{org}/events/index-statuses': async (event) => {
    const { cursor } = event.body ? jsonBody(event, ['cursor']) : {};
    if (cursor !== undefined && typeof cursor !== 'string') {
      throw new ValidationError('cursor', 'must be the cursor the previous answer returned');
    }
    return json(200, await indexStatuses(delivery.events, org(event), cursor));
  },
  'PUT /admin/accounts/{iban}': async (event) => {
    const body = jsonBody(event, ['org', 'webhook_url']);
    if (typeof body.org !== 'string' || body.org === '') throw new ValidationError('org', 'is required');
    if (body.webhook_url !== undefined && body.webhook_url !== null && typeof body.webhook_url !== 'string') {
      throw new ValidationError('webhook_url', 'must be a URL string, or null for no deliveries');
    }
    const input = {
      orgId: body.org,
      iban: pathParam(event, 'iban'),
      webhookUrl: (body.webhook_url as string | null | undefined) ?? undefined,
    };
    const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
    const account = await putAccount(directory, input, policy, { checkHost: hostChecker(policy) });
    return json(200, toAccountView(account, baseUrl));
  },
  'DELETE /admin/accounts/{iban}': async (event) => {
    const query = queryParams(event, ['erase', 'org', 'cursor']);
    if (query.erase !== undefined && query.erase !== 'true' && query.erase !== 'false') {
      throw new ValidationError('erase', 'must be true or false');
    }
    const erase = query.erase === 'true';
    const request = { iban: pathParam(event, 'iban'), orgId: query.org, erase, cursor: query.cursor };
    const result = await deleteAccount({ directory, events: delivery.events }, request);
    // Without `erase` nothing more to say; with it, how much was erased and whether to go on.
    return erase ? json(200, result) : noContent();
  },
  'POST /admin/accounts/{iban}/enable': async (event) => {
    const { recoverSince } = parseEnableRequest(event);
    const result = await enableAnyEndpoint(enabling, pathParam(event, 'iban'), recoverSince);
    return json(200, toEndpointEnabledView(result));
  },
};

/**
 * `/admin/…`: organizations, API keys, portal sign-in links, token rotation, accounts and delivery repairs,
 * for operators.
 */
export const handler = apiHandler(async (event) => {
  const route = ROUTES[`${event.httpMethod} ${event.resource}`];
  if (!route) throw new Error(`administer-herald does not serve ${event.httpMethod} ${event.resource}`);
  return route(event);
});
