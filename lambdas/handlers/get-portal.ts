import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { portalPage } from '#http/portal-page';
import { problemResponses } from '#http/problem-responses';

const page = portalPage();

/**
 * `GET /portal`: the webhook portal, one self-contained page. Unauthenticated: the page signs in itself
 * (a link's token in the URL fragment, which browsers never send, or a pasted API key).
 */
export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
  .use(problemResponses())
  .handler(async () => ({ statusCode: 200, headers: { ...page.headers }, body: page.html }));
