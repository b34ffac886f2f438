import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { LAMBDA_RESPONSE_MAX_BYTES } from '#config/limits';
import { METHOD_NOT_ALLOWED_PROBLEM, NOT_FOUND_PROBLEM } from '#http/problem/problem-types';
import { createApiGateway } from '../../scripts/local/api-gateway';
import {
  allowingAuthorizer,
  BAD_KEY,
  echoHandlers,
  GOOD_KEY,
  gateways,
  problemOf,
  start,
} from '../support/local-gateway';

describe('api gateway: proxy events', () => {
  it('routes an unauthenticated route and builds a v1 proxy event', async () => {
    const { handlers, events } = echoHandlers();
    const baseUrl = await start(handlers);
    const response = await fetch(`${baseUrl}/health`, { headers: { 'X-Trace': 'abc' } });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.get('x-amzn-requestid')).toEqual(expect.any(String));
    const event = events[0];
    expect(event).toMatchObject({
      httpMethod: 'GET',
      path: '/health',
      resource: '/health',
      pathParameters: null,
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      headers: { 'X-Trace': 'abc' },
      multiValueHeaders: { 'X-Trace': ['abc'] },
      requestContext: {
        httpMethod: 'GET',
        resourcePath: '/health',
        stage: 'local',
        path: '/local/health',
        domainName: new URL(baseUrl).host,
        identity: { sourceIp: '127.0.0.1' },
      },
    });
    expect(event?.requestContext.requestId).toBe(response.headers.get('x-amzn-requestid'));
    expect(event?.requestContext.authorizer).toBeUndefined();
  });

  it('passes path parameters, multi-value query strings, the body and the authorizer context', async () => {
    const { handlers, events } = echoHandlers();
    const authorizer = allowingAuthorizer();
    const baseUrl = await start({ ...handlers, authorizer });
    const response = await fetch(`${baseUrl}/events/ev%201/redeliver?x=1&type=a&type=b`, {
      method: 'POST',
      headers: { Authorization: GOOD_KEY },
      body: '{"note":"hi"}',
    });

    expect(response.status).toBe(200);
    expect(events[0]).toMatchObject({
      httpMethod: 'POST',
      resource: '/events/{id}/redeliver',
      path: '/events/ev%201/redeliver',
      pathParameters: { id: 'ev 1' },
      queryStringParameters: { x: '1', type: 'b' },
      multiValueQueryStringParameters: { x: ['1'], type: ['a', 'b'] },
      body: '{"note":"hi"}',
      requestContext: { authorizer: { principalId: 'org-1', orgId: 'org-1', tier: '3' } },
    });
    expect(authorizer).toHaveBeenCalledWith({
      type: 'TOKEN',
      authorizationToken: GOOD_KEY,
      methodArn: expect.stringMatching(
        /^arn:aws:execute-api:us-east-1:\d{12}:\w+\/local\/POST\/events\/ev%201\/redeliver$/,
      ),
    });
  });

  it('prefers a literal segment over a path parameter', async () => {
    const { handlers, events } = echoHandlers();
    const baseUrl = await start({ ...handlers, authorizer: allowingAuthorizer() });
    await fetch(`${baseUrl}/events`, { headers: { Authorization: GOOD_KEY } });
    await fetch(`${baseUrl}/events/e1`, { headers: { Authorization: GOOD_KEY } });
    expect(events.map((event) => event.resource)).toEqual(['/events', '/events/{id}']);
  });

  it('writes headers, multi-value headers and base64 bodies back', async () => {
    const baseUrl = await start({
      health: async () => ({
        statusCode: 201,
        headers: { 'Content-Type': 'application/octet-stream' },
        multiValueHeaders: { 'Set-Cookie': ['a=1', 'b=2'] },
        body: Buffer.from([0, 1, 2]).toString('base64'),
        isBase64Encoded: true,
      }),
    });
    const response = await fetch(`${baseUrl}/health`);
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([0, 1, 2]);
  });
});

describe('api gateway: gateway answers', () => {
  it('answers 401 without calling the authorizer when the Authorization header is missing', async () => {
    const authorizer = allowingAuthorizer();
    const baseUrl = await start({ ...echoHandlers().handlers, authorizer });
    const response = await fetch(`${baseUrl}/events`);

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await problemOf(response)).toEqual({
      type: 'https://herald.dev/problems/unauthorized',
      title: 'Unauthorized',
      status: 401,
      detail: expect.stringContaining('Authorization: Bearer'),
      instance: response.headers.get('x-amzn-requestid'),
    });
    expect(authorizer).not.toHaveBeenCalled();
  });

  it('answers 401 when the authorizer throws Unauthorized', async () => {
    const { handlers, events } = echoHandlers();
    const baseUrl = await start({ ...handlers, authorizer: allowingAuthorizer() });
    const response = await fetch(`${baseUrl}/events`, { headers: { Authorization: BAD_KEY } });

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect((await problemOf(response)).type).toBe('https://herald.dev/problems/unauthorized');
    expect(events).toHaveLength(0);
  });

  it('answers 403 when the policy denies the method', async () => {
    const authorizer = vi.fn(
      async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => ({
        principalId: 'org-1',
        policyDocument: {
          Version: '2012-10-17',
          Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: event.methodArn }],
        },
      }),
    );
    const baseUrl = await start({ ...echoHandlers().handlers, authorizer });
    const response = await fetch(`${baseUrl}/events`, { headers: { Authorization: GOOD_KEY } });
    expect(response.status).toBe(403);
    expect((await problemOf(response)).status).toBe(403);
  });

  it('caches the decision per token for the configured TTL', async () => {
    const authorizer = allowingAuthorizer();
    const gateway = createApiGateway({ handlers: { ...echoHandlers().handlers, authorizer } });
    gateways.push(gateway);
    const baseUrl = await gateway.listen(0);
    const headers = { Authorization: GOOD_KEY };
    await fetch(`${baseUrl}/events`, { headers });
    await fetch(`${baseUrl}/accounts/NL91ABNA0417164300`, { headers });
    expect(authorizer).toHaveBeenCalledTimes(1);

    const uncached = allowingAuthorizer();
    const uncachedUrl = await start({ ...echoHandlers().handlers, authorizer: uncached }, 0);
    await fetch(`${uncachedUrl}/events`, { headers });
    await fetch(`${uncachedUrl}/events`, { headers });
    expect(uncached).toHaveBeenCalledTimes(2);
  });

  it('answers unknown paths with the 404 problem', async () => {
    const baseUrl = await start(echoHandlers().handlers);
    for (const path of ['/nope', '/events/a/b/c', '/', '/management']) {
      const response = await fetch(`${baseUrl}${path}`, { method: 'POST' });
      expect(response.status).toBe(404);
      expect(await problemOf(response)).toMatchObject({
        type: 'https://herald.dev/problems/not-found',
        status: 404,
        detail: NOT_FOUND_PROBLEM.detail,
      });
    }
  });

  it('answers a known path with another method with 405 and Allow', async () => {
    const baseUrl = await start(echoHandlers().handlers);
    const post = await fetch(`${baseUrl}/events`, { method: 'DELETE' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, POST');
    expect(await problemOf(post)).toMatchObject({
      type: 'https://herald.dev/problems/method-not-allowed',
      status: 405,
      detail: METHOD_NOT_ALLOWED_PROBLEM.detail,
    });
    const get = await fetch(`${baseUrl}/events/e1/redeliver`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('answers 500 without internals when a function throws', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const baseUrl = await start({
      health: async () => {
        throw new Error('connection string postgres://secret@db');
      },
    });
    const response = await fetch(`${baseUrl}/health`);
    expect(response.status).toBe(500);
    const text = JSON.stringify(await problemOf(response));
    expect(text).not.toContain('secret');
    expect(JSON.parse(text)).toMatchObject({
      type: 'https://herald.dev/problems/internal-error',
      status: 500,
    });
    expect(logged).toHaveBeenCalled();
  });

  it('answers 500 as Lambda fails a response over 6 MB as carried, escapes included', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // A body under the limit whose quotes, escaped inside the response, take it over.
    const body = (length: number) => JSON.stringify({ s: '"'.repeat(length) });
    const envelope = (text: string) =>
      Buffer.byteLength(JSON.stringify({ statusCode: 200, headers: {}, body: text }));
    const fits = LAMBDA_RESPONSE_MAX_BYTES / 4 - 100;
    expect(envelope(body(fits))).toBeLessThanOrEqual(LAMBDA_RESPONSE_MAX_BYTES);
    const over = LAMBDA_RESPONSE_MAX_BYTES / 4 + 100;
    expect(Buffer.byteLength(body(over))).toBeLessThan(LAMBDA_RESPONSE_MAX_BYTES);
    let length = fits;
    const baseUrl = await start({
      health: async () => ({ statusCode: 200, headers: {}, body: body(length) }),
    });
    expect((await fetch(`${baseUrl}/health`)).status).toBe(200);
    length = over;
    const refused = await fetch(`${baseUrl}/health`);
    expect(refused.status).toBe(500);
    expect(await problemOf(refused)).toMatchObject({ status: 500 });
    expect(logged).toHaveBeenCalled();
  });
});
