import { loadEnv } from '#config/env';
import { buildOpenApiDocument } from '#http/openapi/document';
import { baseUrlOf } from '#http/request';
import { json } from '#http/response';
import { apiHandler } from './api-handler';

const env = loadEnv(['PUBLIC_BASE_URL']);

/**
 * `GET /openapi.json`: the API's OpenAPI 3.1 document, unauthenticated, with the URL the caller used as
 * its server so "try it out" tools call the same deployment. Built per request: it is cheap, and the
 * base URL can differ between stages and custom domains in front of one function.
 */
export const handler = apiHandler(async (event) =>
  json(200, buildOpenApiDocument(baseUrlOf(event, env.PUBLIC_BASE_URL))),
);
