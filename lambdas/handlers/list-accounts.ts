import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { logger } from '#adapters/observability';
import { loadEnv } from '#config/env';
import { problemResponses } from '#http/problem-responses';
import { baseUrlOf, json, orgIdOf } from '#http/request';
import { listAccounts } from '#use-cases/administer';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const directory = new DynamoDirectoryStore(createDocumentClient(), env.TABLE_NAME);

/** `GET /accounts`: the organization's accounts. */
export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
  .use(injectLambdaContext(logger))
  .use(problemResponses())
  .handler(async (event) =>
    json(200, await listAccounts(directory, orgIdOf(event), baseUrlOf(event, env.PUBLIC_BASE_URL))),
  );
