import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { logger } from '#adapters/observability';
import { loadEnv } from '#config/env';
import { organizationOfBearer } from '#use-cases/authorize';

const env = loadEnv(['TABLE_NAME']);
const directory = new DynamoDirectoryStore(createDocumentClient(), env.TABLE_NAME);

/**
 * TOKEN authorizer. API Gateway caches the decision per key for every route, so an Allow covers the
 * whole API (`<api>/<stage>/*`) and carries the organization id to the handlers. The organization id is
 * also the usage identifier key: API Gateway counts the request against that organization's key in the
 * usage plan (its own throttle and quota). Throwing exactly
 * `Unauthorized` makes API Gateway answer 401 (with the UNAUTHORIZED gateway response).
 */
export const handler = middy<APIGatewayTokenAuthorizerEvent, APIGatewayAuthorizerResult>()
  .use(injectLambdaContext(logger))
  .handler(async (event) => {
    const orgId = await organizationOfBearer(directory, event.authorizationToken);
    if (!orgId) throw new Error('Unauthorized');
    const [apiArn, stage] = event.methodArn.split('/');
    return {
      principalId: orgId,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${apiArn}/${stage}/*` }],
      },
      context: { orgId },
      usageIdentifierKey: orgId,
    };
  });
