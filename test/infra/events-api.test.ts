import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { API_ROUTES, AUTHORIZER_CACHE_TTL_SECONDS, BEARER_PATTERN } from '#config/routes';
import { GATEWAY_PROBLEMS, type GatewayProblem, NOT_FOUND_PROBLEM } from '#http/problem/problem-types';
import { type CfnJson, synth } from './fixture';

const byDefault = synth();
const configured = synth({
  customDomain: {
    domainName: 'events.example.com',
    certificateArn: 'arn:aws:acm:eu-central-1:111122223333:certificate/abc',
    hostedZone: { hostedZoneId: 'Z123456ABCDEFG', zoneName: 'example.com' },
  },
  corsAllowOrigins: ['https://app.example.com'],
  apiThrottle: { rateLimit: 200, burstLimit: 400 },
  tracing: true,
  executionLogLevel: 'ERROR',
  webAclArn: 'arn:aws:wafv2:eu-central-1:111122223333:regional/webacl/herald/abc',
  stageName: 'live',
});
const { template, stack } = byDefault;
const resources = template.toJSON().Resources as Record<string, CfnJson>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

/** API Gateway path of every Resource, by logical id, rebuilt from the parent chain. */
function resourcePaths(): Map<string, string> {
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const { ParentId, PathPart } = resources[id]?.Properties ?? {};
    const parent = ParentId['Fn::GetAtt'] ? '' : pathOf(ParentId.Ref);
    const path = `${parent}/${PathPart}`;
    paths.set(id, path);
    return path;
  };
  for (const [id] of ofType('AWS::ApiGateway::Resource')) pathOf(id);
  return paths;
}
const paths = resourcePaths();
const methods = ofType('AWS::ApiGateway::Method').map(([, r]) => ({
  path: paths.get(r.Properties.ResourceId.Ref) ?? '/',
  ...r.Properties,
}));

describe('routes', () => {
  it.each(API_ROUTES)('$method $path → $fn', (route) => {
    const method = methods.find((m) => m.path === route.path && m.HttpMethod === route.method);
    expect(method).toBeDefined();
    const fnId = byDefault.logicalId(stack.functions[route.fn]);
    expect(JSON.stringify(method?.Integration.Uri)).toContain(`"${fnId}"`);
    expect(method?.Integration.Type).toBe('AWS_PROXY');
    expect(method?.AuthorizationType).toBe({ none: 'NONE', 'api-key': 'CUSTOM', iam: 'AWS_IAM' }[route.auth]);
    expect(method?.AuthorizerId === undefined).toBe(route.auth !== 'api-key');
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => `method.request.path.${name}`);
    expect(Object.keys(method?.RequestParameters ?? {})).toEqual(params);
    expect(method?.RequestValidatorId).toBeDefined();
  });

  it("lets API Gateway invoke each route's function through one permission for this API, not one per method", () => {
    const invokes = ofType('AWS::Lambda::Permission')
      .map(([, r]) => r.Properties)
      .filter(
        (p) =>
          p.Principal === 'apigateway.amazonaws.com' &&
          !JSON.stringify(p.SourceArn).includes('/authorizers/'),
      );
    const routeFunctions = new Set(API_ROUTES.map((route) => byDefault.logicalId(stack.functions[route.fn])));
    expect(invokes.map((p) => p.FunctionName['Fn::GetAtt'][0]).sort()).toEqual([...routeFunctions].sort());
    // Scoped to this API's deployed stage (any method and path), not its console test invocations.
    for (const p of invokes) {
      expect(JSON.stringify(p.SourceArn)).toContain(
        `{"Ref":"${byDefault.logicalId(stack.api.api)}"},"/${ofType('AWS::ApiGateway::Stage')[0]?.[1].Properties.StageName}/*/*"`,
      );
    }
  });

  it('authorizes the publish routes and every /admin route with AWS_IAM, and nothing else', () => {
    const iam = methods
      .filter((m) => m.AuthorizationType === 'AWS_IAM')
      .map((m) => `${m.HttpMethod} ${m.path}`);
    expect(iam.sort()).toEqual(
      API_ROUTES.filter((route) => route.auth === 'iam')
        .map((route) => `${route.method} ${route.path}`)
        .sort(),
    );
    expect(iam).toContain('POST /events');
    expect(iam).toContain('POST /events/batch');
    expect(iam).toContain('PUT /admin/accounts/{iban}');
    const publishing = ['POST /events', 'POST /events/batch'];
    expect(
      iam.every((route) => publishing.includes(route) || route.split(' ')[1]?.startsWith('/admin/')),
    ).toBe(true);
  });

  it('answers 405 with Allow for the other methods of every route resource', () => {
    for (const path of new Set(API_ROUTES.map((route) => route.path))) {
      const any = methods.find((m) => m.path === path && m.HttpMethod === 'ANY');
      const allow = API_ROUTES.filter((route) => route.path === path)
        .map((route) => route.method)
        .sort()
        .join(', ');
      expect(any?.Integration).toMatchObject({
        Type: 'MOCK',
        IntegrationResponses: [
          {
            StatusCode: '405',
            ResponseParameters: {
              'method.response.header.Allow': `'${allow}'`,
              'method.response.header.Content-Type': "'application/problem+json'",
            },
          },
        ],
      });
      const body = JSON.parse(any?.Integration.IntegrationResponses[0].ResponseTemplates['application/json']);
      expect(body).toMatchObject({ status: 405, type: 'https://herald.dev/problems/method-not-allowed' });
    }
  });

  it('answers 404 from a public mock on the root proxy and on every resource without a route', () => {
    const routePaths = new Set(API_ROUTES.map((route) => route.path));
    const routeless = ['/', '/{proxy+}', ...paths.values()].filter((path) => !routePaths.has(path));
    expect(routeless).toEqual(expect.arrayContaining(['/', '/{proxy+}', '/management', '/admin']));
    for (const path of new Set(routeless)) {
      // One ANY each, so every method of every path no route has gets the 404 (and never a 403).
      expect(methods.filter((m) => m.path === path).map((m) => m.HttpMethod)).toEqual(['ANY']);
      const any = methods.find((m) => m.path === path);
      expect(any, path).toMatchObject({
        AuthorizationType: 'NONE',
        Integration: {
          Type: 'MOCK',
          RequestTemplates: { 'application/json': '{"statusCode": 404}' },
          IntegrationResponses: [
            {
              StatusCode: '404',
              ResponseParameters: { 'method.response.header.Content-Type': "'application/problem+json'" },
            },
          ],
        },
        MethodResponses: [{ StatusCode: '404' }],
      });
      for (const type of ['application/json', 'application/problem+json']) {
        const body = JSON.parse(any?.Integration.IntegrationResponses[0].ResponseTemplates[type]);
        expect(body).toEqual({
          type: `https://herald.dev/problems/${NOT_FOUND_PROBLEM.slug}`,
          title: NOT_FOUND_PROBLEM.title,
          status: 404,
          detail: NOT_FOUND_PROBLEM.detail,
          instance: '$context.requestId',
        });
      }
    }
    // The greedy resource hangs off the root, so only paths no explicit resource matches reach it.
    const [proxyId] = [...paths].find(([, path]) => path === '/{proxy+}') ?? [];
    expect(resources[proxyId ?? '']?.Properties.ParentId).toEqual({
      'Fn::GetAtt': [expect.any(String), 'RootResourceId'],
    });
  });

  it('serves no CORS preflight unless origins are given', () => {
    expect(methods.filter((m) => m.HttpMethod === 'OPTIONS')).toEqual([]);
    configured.template.hasResourceProperties('AWS::ApiGateway::Method', {
      HttpMethod: 'OPTIONS',
      Integration: Match.objectLike({
        IntegrationResponses: [
          Match.objectLike({
            ResponseParameters: Match.objectLike({
              'method.response.header.Access-Control-Allow-Origin': "'https://app.example.com'",
            }),
          }),
        ],
      }),
    });
  });

  it('validates request parameters (and bodies, should a route get a model)', () => {
    template.hasResourceProperties('AWS::ApiGateway::RequestValidator', {
      ValidateRequestParameters: true,
      ValidateRequestBody: true,
    });
  });
});

describe('authorizer', () => {
  it('is a TOKEN authorizer on Authorization, cached per key, answering malformed headers itself', () => {
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'TOKEN',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: AUTHORIZER_CACHE_TTL_SECONDS,
      IdentityValidationExpression: BEARER_PATTERN,
    });
    const [, authorizer] = ofType('AWS::ApiGateway::Authorizer')[0] ?? [];
    expect(JSON.stringify(authorizer?.Properties.AuthorizerUri)).toContain(
      `"${byDefault.logicalId(stack.functions.authorizer)}"`,
    );
    const regex = new RegExp(authorizer?.Properties.IdentityValidationExpression);
    const key = `herald_${'aZ0_-'.repeat(8)}abc`;
    expect(regex.test(`Bearer ${key}`)).toBe(true);
    // One spelling per key: another one would be another cache entry (and another authorizer call).
    for (const other of [`bearer ${key}`, `Bearer  ${key}`, `Bearer ${key} `, `Bearer ${key}x`, 'Bearer']) {
      expect(regex.test(other), other).toBe(false);
    }
    expect(AUTHORIZER_CACHE_TTL_SECONDS).toBeLessThanOrEqual(60);
  });
});

describe('gateway responses', () => {
  it.each(Object.entries(GATEWAY_PROBLEMS as Record<string, GatewayProblem>))(
    '%s is a problem+json',
    (type, problem) => {
      const headers: Record<string, string> = {
        'gatewayresponse.header.Content-Type': "'application/problem+json'",
      };
      for (const [name, value] of Object.entries(problem.headers ?? {})) {
        headers[`gatewayresponse.header.${name}`] = `'${value}'`;
      }
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: String(problem.status),
        ResponseParameters: headers,
      });
      const response = ofType('AWS::ApiGateway::GatewayResponse').find(
        ([, r]) => r.Properties.ResponseType === type,
      );
      const body = JSON.parse(response?.[1].Properties.ResponseTemplates['application/problem+json']);
      expect(body).toEqual({
        type: `https://herald.dev/problems/${problem.slug}`,
        title: problem.title,
        status: problem.status,
        detail: problem.detail,
        instance: '$context.requestId',
      });
    },
  );

  it('a denied key is a 403 problem+json, as in the local runtime', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'ACCESS_DENIED',
      StatusCode: '403',
      ResponseParameters: { 'gatewayresponse.header.Content-Type': "'application/problem+json'" },
    });
  });

  it('an unsigned request to an IAM route (MISSING_AUTHENTICATION_TOKEN) is the 403 signature-required', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '403',
      ResponseParameters: { 'gatewayresponse.header.Content-Type': "'application/problem+json'" },
      ResponseTemplates: {
        'application/problem+json': Match.serializedJson(
          Match.objectLike({ type: 'https://herald.dev/problems/signature-required', status: 403 }),
        ),
      },
    });
  });

  it('401 carries WWW-Authenticate: Bearer', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      StatusCode: '401',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.WWW-Authenticate': "'Bearer'" }),
    });
  });
});

describe('stage', () => {
  it('throttles, logs access as JSON, traces only when asked, logs no bodies', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'v1',
      TracingEnabled: false,
      AccessLogSetting: {
        DestinationArn: Match.anyValue(),
        Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"'),
      },
      MethodSettings: [
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: 1000,
          ThrottlingBurstLimit: 2000,
          DataTraceEnabled: false,
          LoggingLevel: 'OFF',
        }),
      ],
    });
    const format = JSON.parse(ofType('AWS::ApiGateway::Stage')[0]?.[1].Properties.AccessLogSetting.Format);
    expect(format).toMatchObject({
      service: 'herald',
      status: '$context.status',
      orgId: '$context.authorizer.orgId',
    });
    expect(JSON.stringify(format)).not.toMatch(/Authorization/i);
    configured.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'live',
      TracingEnabled: true,
      MethodSettings: [
        Match.objectLike({ ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400, LoggingLevel: 'ERROR' }),
      ],
    });
  });

  it("is regional, owns no account-wide CloudWatch role, and gets Herald's web ACL, or yours when given", () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
    template.resourceCountIs('AWS::WAFv2::WebACL', 1);
    template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    configured.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    configured.template.hasResourceProperties('AWS::WAFv2::WebACLAssociation', {
      WebACLArn: 'arn:aws:wafv2:eu-central-1:111122223333:regional/webacl/herald/abc',
    });
  });
});

describe('stack outputs', () => {
  it('are the documented ones (docs/deploying.md), without the RestApi construct’s own Endpoint', () => {
    expect(Object.keys(template.findOutputs('*')).sort()).toEqual(
      [
        'AlarmTopicArn',
        'ApiUrl',
        'DeadLetterQueueUrl',
        'NoticeTopicArn',
        'OperatorRoleArn',
        'PublisherRoleArn',
        'QueueUrl',
        'TableName',
        'UsagePlanId',
        'WebAclArn',
      ].sort(),
    );
    expect(Object.keys(configured.template.findOutputs('*'))).not.toContain('WebAclArn');
    expect(
      Object.keys(configured.template.findOutputs('*')).some((name) => name.startsWith('ApiEndpoint')),
    ).toBe(false);
  });
});
