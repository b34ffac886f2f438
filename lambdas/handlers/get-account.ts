import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { logger } from '#adapters/observability';
import { loadEnv } from '#config/env';
import { problemResponses } from '#http/problem-responses';
import { baseUrlOf, json, orgIdOf, pathParam } from '#http/request';
import { getAccount } from '#use-cases/administer';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const directory = new DynamoDirectoryStore(createDocumentClient(), env.TABLE_NAME);

/** `GET /accounts/{iban}`: one account of the organization (the target of an event's `_links.account`). */
export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
  .use(injectLambdaContext(logger))
  .use(problemResponses())
  .handler(async (event) => {
    const baseUrl = baseUrlOf(event, env.PUBLIC_BASE_URL);
    return json(200, await getAccount(directory, orgIdOf(event), pathParam(event, 'iban'), baseUrl));
  });
