/**
 * Shared pieces of the local API Gateway tests: gateways closed after each test, an authorizer and
 * route handlers that echo what they receive, and the problem body of an answer.
 */
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayTokenAuthorizerEvent,
} from 'aws-lambda';
import { afterEach, expect, vi } from 'vitest';
import type { OrganizationUsage } from '#config/limits';
import {
  type ApiGateway,
  type ApiHandler,
  type ApiHandlers,
  createApiGateway,
} from '../../scripts/local/api-gateway';

/** Gateways started by a test; closed after it. */
export const gateways: ApiGateway[] = [];
/** Bearer values in the one spelling the gateway lets through to the authorizer. */
export const GOOD_KEY = `Bearer herald_${'g'.repeat(43)}`;
export const BAD_KEY = `Bearer herald_${'b'.repeat(43)}`;

afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
  vi.restoreAllMocks();
});

/** An authorizer that knows one key and allows the whole API for it, like Herald's. */
export function allowingAuthorizer(): ReturnType<
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
      usageIdentifierKey: 'org-1',
    };
  });
}

/** Route handlers that answer with the event they received (`echo`, which any other route may take too). */
export function echoHandlers(): { handlers: ApiHandlers; echo: ApiHandler; events: APIGatewayProxyEvent[] } {
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
    echo,
    handlers: { health: echo, listEvents: echo, getEvent: echo, redeliverEvent: echo, getAccount: echo },
  };
}

/** Starts a gateway on a free port; its base URL. */
export async function start(
  handlers: ApiHandlers,
  authorizerCacheTtlSeconds = 0,
  organizationUsage?: OrganizationUsage,
): Promise<string> {
  const gateway = createApiGateway({ handlers, authorizerCacheTtlSeconds, organizationUsage });
  gateways.push(gateway);
  return gateway.listen(0);
}

/** The problem+json body of an answer (checking its content type). */
export async function problemOf(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return (await response.json()) as Record<string, unknown>;
}
