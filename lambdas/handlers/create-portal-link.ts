import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { logger } from '#adapters/observability';
import { loadEnv } from '#config/env';
import { problemResponses } from '#http/problem-responses';
import { baseUrlOf, json, jsonBody, pathParam } from '#http/request';
import { mintPortalLink, parsePortalLinkRequest } from '#use-cases/portal-access';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const directory = new DynamoDirectoryStore(createDocumentClient(), env.TABLE_NAME);

/**
 * `POST /admin/organizations/{org}/portal-links` (IAM): a one-time portal sign-in link. The answer carries
 * the token, so it is never logged (API Gateway logs no bodies; this handler logs none).
 */
export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
  .use(injectLambdaContext(logger))
  .use(problemResponses())
  .handler(async (event) => {
    const request = parsePortalLinkRequest(jsonBody(event));
    const link = await mintPortalLink(
      directory,
      pathParam(event, 'org'),
      request,
      baseUrlOf(event, env.PUBLIC_BASE_URL),
    );
    return json(201, link);
  });
