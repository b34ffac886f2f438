import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { HERALD_VERSION } from '#config/version';
import { problemResponses } from '#http/problem-responses';
import { json } from '#http/request';

/** `GET /health`: unauthenticated liveness answer; touches no data store. */
export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
  .use(problemResponses())
  .handler(async () => json(200, { status: 'ok', version: HERALD_VERSION }));
