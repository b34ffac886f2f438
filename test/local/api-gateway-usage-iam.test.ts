/**
 * The local gateway's usage plan (each organization's throttle and quota, keyed by the authorizer's
 * usage identifier key) and its SigV4 check of the IAM routes.
 */
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayTokenAuthorizerEvent,
} from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { ORGANIZATION_USAGE_DEFAULTS } from '#config/limits';
import { GATEWAY_PROBLEMS } from '#http/problem/problem-types';
import { createApiGateway } from '../../scripts/local/api-gateway';
import { sigv4Headers } from '../support/e2e-http';
import {
  allowingAuthorizer,
  echoHandlers,
  GOOD_KEY,
  gateways,
  problemOf,
  start,
} from '../support/local-gateway';

describe('usage plan emulation', () => {
  const KEY_A = `herald_${'a'.repeat(43)}`;
  const KEY_B = `herald_${'b'.repeat(43)}`;
  /** Two organizations, each known by its own key. */
  const twoOrgs = vi.fn(
    async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
      const org = { [`Bearer ${KEY_A}`]: 'org-a', [`Bearer ${KEY_B}`]: 'org-b' }[event.authorizationToken];
      if (!org) throw new Error('Unauthorized');
      const [apiArn, stage] = event.methodArn.split('/');
      return {
        principalId: org,
        policyDocument: {
          Version: '2012-10-17',
          Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${apiArn}/${stage}/*` }],
        },
        context: { orgId: org },
        usageIdentifierKey: org,
      };
    },
  );
  const get = (baseUrl: string, key: string) =>
    fetch(`${baseUrl}/events`, { headers: { Authorization: `Bearer ${key}` } });

  it('throttles each organization on its own with a 429 problem, leaving the others alone', async () => {
    const usage = { rateLimit: 0.001, burstLimit: 2, quotaPerDay: 1000 };
    const baseUrl = await start({ ...echoHandlers().handlers, authorizer: twoOrgs }, 0, usage);
    expect((await get(baseUrl, KEY_A)).status).toBe(200);
    expect((await get(baseUrl, KEY_A)).status).toBe(200);
    const throttled = await get(baseUrl, KEY_A);
    expect(throttled.status).toBe(429);
    expect(await problemOf(throttled)).toMatchObject({
      type: 'https://herald.dev/problems/too-many-requests',
      status: 429,
    });
    expect((await get(baseUrl, KEY_B)).status).toBe(200);
  });

  it('answers 429 quota-exceeded once an organization used its daily quota', async () => {
    const usage = { rateLimit: 1000, burstLimit: 1000, quotaPerDay: 2 };
    const baseUrl = await start({ ...echoHandlers().handlers, authorizer: twoOrgs }, 0, usage);
    await get(baseUrl, KEY_A);
    await get(baseUrl, KEY_A);
    const over = await get(baseUrl, KEY_A);
    expect(over.status).toBe(429);
    expect((await problemOf(over)).type).toBe('https://herald.dev/problems/quota-exceeded');
    expect((await get(baseUrl, KEY_B)).status).toBe(200);
  });

  it('refuses with 403 an authorizer answer that names no usage key, as API Gateway does', async () => {
    const { usageIdentifierKey: _, ...withoutKey } = await allowingAuthorizer()({
      type: 'TOKEN',
      authorizationToken: GOOD_KEY,
      methodArn: 'arn:aws:execute-api:us-east-1:000000000000:local/local/GET/events',
    });
    const authorizer = vi.fn(async () => withoutKey);
    const baseUrl = await start({ ...echoHandlers().handlers, authorizer }, 0, ORGANIZATION_USAGE_DEFAULTS);
    expect((await get(baseUrl, GOOD_KEY.slice('Bearer '.length))).status).toBe(403);
  });
});

describe('IAM routes (SigV4)', () => {
  const operator = {
    accessKeyId: 'AKIATESTOPERATOR0001',
    secretAccessKey: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNl',
  };

  async function startIam(): Promise<{ baseUrl: string; events: APIGatewayProxyEvent[] }> {
    const { handlers, echo, events } = echoHandlers();
    const gateway = createApiGateway({
      handlers: { ...handlers, administer: echo, publishEvent: echo },
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
