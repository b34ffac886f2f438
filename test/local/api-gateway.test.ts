import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayTokenAuthorizerEvent,
} from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GATEWAY_PROBLEMS, METHOD_NOT_ALLOWED_PROBLEM, NOT_FOUND_PROBLEM } from '#http/problem-types';
import { type ApiGateway, type ApiHandlers, createApiGateway } from '../../scripts/local/api-gateway';
import { sigv4Headers } from '../support/e2e-http';

const gateways: ApiGateway[] = [];
/** Bearer values in the one spelling the gateway lets through to the authorizer. */
const GOOD_KEY = `Bearer herald_${'g'.repeat(43)}`;
const BAD_KEY = `Bearer herald_${'b'.repeat(43)}`;

afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
  vi.restoreAllMocks();
});

/** An authorizer that knows one key and allows the whole API for it, like Herald's. */
function allowingAuthorizer(): ReturnType<
  typeof vi.fn<(e: APIGatewayTokenAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>>
> {
  return vi.fn(async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    if (event.authorizationToken !== GOOD_KEY) throw new Error('Unauthorized');
    const [apiArn, stage] = event.methodArn.split('/');
    return {
      principalId: 'org-1',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${apiArn}/${stage}/*` }],
      },
      context: { orgId: 'org-1', tier: 3 },
    };
  });
}

/** Route handlers that answer with the event they received. */
function echoHandlers(): { handlers: ApiHandlers; events: APIGatewayProxyEvent[] } {
  const events: APIGatewayProxyEvent[] = [];
  const echo = async (event: APIGatewayProxyEvent) => {
    events.push(event);
    return {
      statusCode: 200,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ok: true }),
    };
  };
  return {
    events,
    handlers: { health: echo, listEvents: echo, getEvent: echo, redeliverEvent: echo, getAccount: echo },
  };
}

async function start(handlers: ApiHandlers, authorizerCacheTtlSeconds = 0): Promise<string> {
  const gateway = createApiGateway({ handlers, authorizerCacheTtlSeconds });
  gateways.push(gateway);
  return gateway.listen(0);
}

async function problemOf(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return (await response.json()) as Record<string, unknown>;
}

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
});

describe('IAM routes (SigV4)', () => {
  const operator = {
    accessKeyId: 'AKIATESTOPERATOR0001',
    secretAccessKey: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNl',
  };

  async function startIam(): Promise<{ baseUrl: string; events: APIGatewayProxyEvent[] }> {
    const { handlers, events } = echoHandlers();
    const gateway = createApiGateway({
      handlers: { ...handlers, administer: handlers.health, publishEvent: handlers.health },
      operatorCredentials: operator,
    });
    gateways.push(gateway);
    return { baseUrl: await gateway.listen(0), events };
  }

  it('passes a request signed by the AWS SDK signer, with query and encoded path, and names the caller', async () => {
    const { baseUrl, events } = await startIam();
    const url = new URL(`${baseUrl}/admin/organizations/a%20b?z=1&a=x%20y&a=b`);
    const headers = await sigv4Headers(operator, 'GET', url, {}, undefined);
    const response = await fetch(url, { headers });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(events[0]?.pathParameters).toEqual({ org: 'a b' });
    expect(events[0]?.requestContext.identity).toMatchObject({
      accessKey: operator.accessKeyId,
      userArn: 'arn:aws:iam::000000000000:user/herald-local-operator',
    });
    expect(events[0]?.requestContext.authorizer).toBeUndefined();
  });

  it('signs bodies: a changed body, another region or a stale date is refused with 403', async () => {
    const { baseUrl, events } = await startIam();
    const url = new URL(`${baseUrl}/events`);
    const signed = await sigv4Headers(
      operator,
      'POST',
      url,
      { 'content-type': 'application/json' },
      '{"a":1}',
    );
    expect((await fetch(url, { method: 'POST', headers: signed, body: '{"a":1}' })).status).toBe(200);
    const changed = await fetch(url, { method: 'POST', headers: signed, body: '{"a":2}' });
    expect(changed.status).toBe(403);
    expect(await problemOf(changed)).toMatchObject({ type: 'https://herald.dev/problems/invalid-signature' });
    const otherRegion = {
      ...signed,
      authorization: String(signed.authorization).replace('us-east-1', 'eu-west-1'),
    };
    expect((await fetch(url, { method: 'POST', headers: otherRegion, body: '{"a":1}' })).status).toBe(403);
    const stale = { ...signed, 'x-amz-date': '20200101T000000Z' };
    expect((await fetch(url, { method: 'POST', headers: stale, body: '{"a":1}' })).status).toBe(403);
    // As API Gateway: no Authorization header is MISSING_AUTHENTICATION_TOKEN, an API key INCOMPLETE_SIGNATURE.
    const unsigned = await fetch(url, { method: 'POST', body: '{"a":1}' });
    expect(unsigned.status).toBe(403);
    expect(await problemOf(unsigned)).toMatchObject({
      status: 403,
      type: 'https://herald.dev/problems/signature-required',
      detail: GATEWAY_PROBLEMS.MISSING_AUTHENTICATION_TOKEN.detail,
    });
    const withKey = await fetch(url, {
      method: 'POST',
      headers: { authorization: GOOD_KEY },
      body: '{"a":1}',
    });
    expect(await problemOf(withKey)).toMatchObject({
      status: 403,
      type: 'https://herald.dev/problems/signature-required',
      detail: GATEWAY_PROBLEMS.INCOMPLETE_SIGNATURE.detail,
    });
    expect(events).toHaveLength(1);
  });

  it('refuses every IAM call when no operator credentials are configured', async () => {
    const gateway = createApiGateway({ handlers: echoHandlers().handlers });
    gateways.push(gateway);
    const url = new URL(`${await gateway.listen(0)}/events`);
    const headers = await sigv4Headers(operator, 'POST', url, {}, '{}');
    expect((await fetch(url, { method: 'POST', headers, body: '{}' })).status).toBe(403);
  });
});
