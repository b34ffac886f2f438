import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FUNCTIONS, type FunctionKey } from '#config/functions';
import { API_ROUTES, type RouteShape } from '#config/routes';

/**
 * Every route whose body may carry a secret (declared once, `secretBody` in `config/routes.ts`) keeps its
 * event out of the logs even with POWERTOOLS_LOGGER_LOG_EVENT set; a route without one is logged, so the
 * capture below can see an event when one is logged. No logged event carries a credential header
 * (`Authorization` in any case: an API key or a signature), nor the authorizer's token.
 */
const SECRET = 'SECRET-MARKER-must-never-be-logged';
const saved = { ...process.env };

beforeAll(() => {
  Object.assign(process.env, {
    POWERTOOLS_LOGGER_LOG_EVENT: 'true',
    POWERTOOLS_DEV: 'false',
    TABLE_NAME: 'secret-bodies',
    QUEUE_URL: 'http://127.0.0.1:9/queue',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
    AWS_MAX_ATTEMPTS: '1',
  });
});

afterAll(() => {
  process.env = saved;
  vi.restoreAllMocks();
});

/** An event of the route with the secret in its body and an IBAN that fails validation before any I/O. */
function eventOf(route: RouteShape): APIGatewayProxyEvent {
  return {
    httpMethod: route.method,
    resource: route.path,
    path: route.path,
    headers: { 'content-type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { iban: 'not-an-iban', org: 'org-1' },
    stageVariables: null,
    isBase64Encoded: false,
    body: JSON.stringify({
      org: 'org-1',
      webhook_url: 'https://example.com/h',
      tls_client_key: SECRET,
      token: SECRET,
    }),
    requestContext: { authorizer: { orgId: 'org-1', keyId: 'k', scope: 'manage' } },
  } as unknown as APIGatewayProxyEvent;
}

/** What the route's function writes to stdout while it serves the event. */
async function logsOf(fn: FunctionKey, route: RouteShape, event: unknown = eventOf(route)): Promise<string> {
  vi.resetModules();
  const { handler } = (await import(`../../lambdas/handlers/${FUNCTIONS[fn]}.ts`)) as {
    handler: (event: unknown, context: Context) => Promise<unknown>;
  };
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  const context = {
    functionName: fn,
    functionVersion: '1',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${fn}`,
    memoryLimitInMB: '256',
    awsRequestId: 'req-1',
    getRemainingTimeInMillis: () => 10_000,
  } as unknown as Context;
  try {
    await handler(event, context).catch(() => undefined);
  } finally {
    write.mockRestore();
  }
  return lines.join('');
}

const secretRoutes = API_ROUTES.filter((route) => route.secretBody);

describe('routes whose body may carry a secret', () => {
  it("are declared: the portal sign-in, both account PUTs and the endpoints' writes (TLS client key)", () => {
    expect(secretRoutes.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      'POST /accounts/{iban}/endpoints',
      'POST /admin/accounts/{iban}/endpoints',
      'POST /portal/session',
      'PUT /accounts/{iban}',
      'PUT /accounts/{iban}/endpoints/{endpoint_id}',
      'PUT /admin/accounts/{iban}',
      'PUT /admin/accounts/{iban}/endpoints/{endpoint_id}',
    ]);
  });

  it.each(secretRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s never logs its event',
    async (_name, route) => {
      const logs = await logsOf(route.fn, route);
      expect(logs).not.toContain(SECRET);
    },
  );

  it.each([
    ['GET', '/accounts/{iban}'],
    ['GET', '/webhook-token'],
    ['GET', '/admin/organizations/{org}'],
  ])(
    '%s %s, without a secret, logs its event: the capture above sees one when it is logged',
    async (method, path) => {
      const route = API_ROUTES.find((r) => r.method === method && r.path === path);
      if (!route) throw new Error(`no ${method} ${path}`);
      expect(await logsOf(route.fn, route)).toContain(SECRET);
    },
  );
});

const KEY = `herald_${'K'.repeat(43)}`;

describe('credentials in a logged event', () => {
  it.each(
    API_ROUTES.filter((route) => !route.secretBody && route.fn !== 'portalSession').map(
      (route) => [`${route.method} ${route.path}`, route] as const,
    ),
  )('%s logs its event without Authorization (any spelling) or a session token', async (_name, route) => {
    const event = {
      ...eventOf(route),
      headers: {
        Authorization: `Bearer ${KEY}`,
        'X-Amz-Security-Token': `session-${KEY}`,
        'content-type': 'application/json',
      },
      multiValueHeaders: { authorization: [`Bearer ${KEY}`], AUTHORIZATION: [`AWS4-HMAC-SHA256 ${KEY}`] },
    };
    const logs = await logsOf(route.fn, route, event);
    expect(logs).toContain(route.path);
    expect(logs).toContain('[redacted]');
    expect(logs).not.toContain(KEY);
  });

  it('the authorizer logs its event without the key it checks', async () => {
    const route = API_ROUTES.find((r) => r.auth === 'api-key');
    if (!route) throw new Error('no api-key route');
    const methodArn = 'arn:aws:execute-api:us-east-1:123456789012:api/v1/GET/accounts';
    const logs = await logsOf('authorizer', route, {
      type: 'TOKEN',
      authorizationToken: `Bearer ${KEY}`,
      methodArn,
    });
    expect(logs).toContain(methodArn);
    expect(logs).not.toContain(KEY);
  });
});
