import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { loadEnv } from '#config/env';
import { buildOpenApiDocument } from '#http/openapi';
import { problemResponses } from '#http/problem-responses';
import { baseUrlOf, json } from '#http/request';

const env = loadEnv(['PUBLIC_BASE_URL']);

/**
 * `GET /openapi.json`: the API's OpenAPI 3.1 document, unauthenticated, with the URL the caller used as
 * its server so "try it out" tools call the same deployment. Built per request: it is cheap, and the
 * base URL can differ between stages and custom domains in front of one function.
 */
export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
  .use(problemResponses())
  .handler(async (event) => json(200, buildOpenApiDocument(baseUrlOf(event, env.PUBLIC_BASE_URL))));
