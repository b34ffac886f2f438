import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { logger } from '#adapters/observability';
import { loadEnv } from '#config/env';
import { parseListQuery } from '#http/list-query';
import { problemResponses } from '#http/problem-responses';
import { baseUrlOf, json, orgIdOf } from '#http/request';
import { listEvents } from '#use-cases/read-events';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const store = new DynamoEventStore(createDocumentClient(), env.TABLE_NAME);

/** `GET /events`: the organization's events, newest first, paged, with a `Link` header. */
export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
  .use(injectLambdaContext(logger))
  .use(problemResponses())
  .handler(async (event) => {
    const query = parseListQuery(event.multiValueQueryStringParameters);
    const page = await listEvents(store, orgIdOf(event), query, baseUrlOf(event, env.PUBLIC_BASE_URL));
    return json(200, page.events, { Link: page.link });
  });
