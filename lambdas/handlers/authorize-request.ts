import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-key-store';
import { logger } from '#adapters/observability';
import { loadEnv } from '#config/env';
import { keyPolicy } from '#http/authorizer-policy';
import { loggableTokenRequest } from '#http/logged-request';
import { apiKeyOfBearer } from '#use-cases/organizations/authorize';

const env = loadEnv(['TABLE_NAME']);
const apiKeys = new DynamoApiKeyStore(createDocumentClient(), env.TABLE_NAME);

/**
 * TOKEN authorizer. API Gateway caches the decision per key for every route, so the policy lists every
 * route the key's scope allows (see `keyPolicy`). Throwing exactly `Unauthorized` makes API Gateway
 * answer 401 (with the UNAUTHORIZED gateway response): unknown, revoked and expired keys. Its event is the
 * API key itself: logged (POWERTOOLS_LOGGER_LOG_EVENT) without it.
 */
export const handler = middy<APIGatewayTokenAuthorizerEvent, APIGatewayAuthorizerResult>()
  .use(injectLambdaContext(logger, { logEvent: false }))
  .handler(async (event) => {
    logger.logEventIfEnabled(loggableTokenRequest(event));
    const key = await apiKeyOfBearer(apiKeys, event.authorizationToken, Math.floor(Date.now() / 1000));
    if (!key) throw new Error('Unauthorized');
    return keyPolicy(key, event.methodArn);
  });
