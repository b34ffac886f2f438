import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { logger } from '#adapters/observability';
import { loadEnv } from '#config/env';
import { problemResponses } from '#http/problem-responses';
import { baseUrlOf, json, orgIdOf, pathParam } from '#http/request';
import { getEvent } from '#use-cases/read-events';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
const store = new DynamoEventStore(createDocumentClient(), env.TABLE_NAME);

/** `GET /events/{id}`: one event with its payload and every delivery attempt. */
export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
  .use(injectLambdaContext(logger))
  .use(problemResponses())
  .handler(async (event) => {
    const view = await getEvent(
      store,
      orgIdOf(event),
      pathParam(event, 'id'),
      baseUrlOf(event, env.PUBLIC_BASE_URL),
    );
    return json(200, view);
  });
