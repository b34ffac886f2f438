import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { logger } from '#adapters/observability';
import { loadEnv } from '#config/env';
import { problemResponses } from '#http/problem-responses';
import { json, jsonBody } from '#http/request';
import { openPortalSession } from '#use-cases/portal-access';

const env = loadEnv(['TABLE_NAME']);
const directory = new DynamoDirectoryStore(createDocumentClient(), env.TABLE_NAME);

/**
 * `POST /portal/session` (no key): exchanges a portal link's token, sent in the JSON body so it never
 * appears in a URL or an access log, for a session API key.
 */
export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
  // Never log the event, even with POWERTOOLS_LOGGER_LOG_EVENT set: its body carries a sign-in token.
  .use(injectLambdaContext(logger, { logEvent: false }))
  .use(problemResponses())
  .handler(async (event) => json(201, await openPortalSession(directory, jsonBody(event))));
