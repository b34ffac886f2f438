/**
 * The REST API's edge: each organization's usage plan (key from the authorizer, 429 problem+json), the
 * TLS policy, and the custom domain with the default endpoint turned off.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '#config/routes';
import { type CfnJson, synth } from './fixture';

const byDefault = synth();
const configured = synth({
  customDomain: {
    domainName: 'events.example.com',
    certificateArn: 'arn:aws:acm:eu-central-1:111122223333:certificate/abc',
    hostedZone: { hostedZoneId: 'Z123456ABCDEFG', zoneName: 'example.com' },
  },
});
const { template } = byDefault;
const resources = template.toJSON().Resources as Record<string, CfnJson>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

describe('per-organization usage plan', () => {
  it('takes the key from the authorizer and meters every authenticated method, not the public ones', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    for (const [, method] of ofType('AWS::ApiGateway::Method')) {
      const authenticated = method.Properties.AuthorizationType === 'CUSTOM';
      expect(method.Properties.ApiKeyRequired ?? false).toBe(authenticated);
    }
    expect(ofType('AWS::ApiGateway::Method').filter(([, m]) => m.Properties.ApiKeyRequired).length).toBe(
      API_ROUTES.filter((route) => route.auth === 'api-key').length,
    );
  });

  it('gives each organization the default throttle and daily quota, or the configured ones', () => {
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: 10, BurstLimit: 20 },
      Quota: { Limit: 100_000, Period: 'DAY' },
      ApiStages: [Match.objectLike({ Stage: Match.anyValue() })],
    });
    synth({ organizationUsage: { rateLimit: 3, quotaPerDay: 500 } }).template.hasResourceProperties(
      'AWS::ApiGateway::UsagePlan',
      { Throttle: { RateLimit: 3, BurstLimit: 20 }, Quota: { Limit: 500, Period: 'DAY' } },
    );
    expect(() => synth({ organizationUsage: { burstLimit: 0 } })).toThrow(/organizationUsage.burstLimit/);
    template.hasOutput('UsagePlanId', Match.anyValue());
  });

  it('answers an exceeded throttle or quota with 429 problem+json', () => {
    for (const [type, slug] of [
      ['THROTTLED', 'too-many-requests'],
      ['QUOTA_EXCEEDED', 'quota-exceeded'],
    ]) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: '429',
        ResponseParameters: Match.objectLike({
          'gatewayresponse.header.Content-Type': "'application/problem+json'",
        }),
        ResponseTemplates: Match.objectLike({
          'application/problem+json': Match.stringLikeRegexp(`problems/${slug}`),
        }),
      });
    }
  });
});

describe('TLS', () => {
  it('the API itself accepts TLS 1.2 or newer only (not the legacy TLS 1.0 policy), in STRICT mode', () => {
    for (const synthesized of [byDefault, configured]) {
      synthesized.template.hasResourceProperties('AWS::ApiGateway::RestApi', {
        SecurityPolicy: 'SecurityPolicy_TLS13_1_2_PFS_PQ_2025_09',
        EndpointAccessMode: 'STRICT',
      });
    }
  });
});

describe('custom domain', () => {
  it('maps the domain with a modern TLS policy, aliases it and turns the default endpoint off', () => {
    configured.template.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: 'events.example.com',
      RegionalCertificateArn: 'arn:aws:acm:eu-central-1:111122223333:certificate/abc',
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'SecurityPolicy_TLS13_1_2_PFS_PQ_2025_09',
      EndpointAccessMode: 'STRICT',
    });
    configured.template.resourceCountIs('AWS::ApiGateway::BasePathMapping', 1);
    configured.template.hasResourceProperties('AWS::Route53::RecordSet', {
      Name: 'events.example.com.',
      Type: 'A',
      HostedZoneId: 'Z123456ABCDEFG',
    });
    configured.template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      DisableExecuteApiEndpoint: true,
    });
    template.resourceCountIs('AWS::ApiGateway::DomainName', 0);
  });

  it('keeps the default endpoint only when asked to', () => {
    const kept = synth({
      customDomain: {
        domainName: 'events.example.com',
        certificateArn: 'arn:aws:acm:eu-central-1:111122223333:certificate/abc',
        disableDefaultEndpoint: false,
      },
    });
    kept.template.hasResourceProperties('AWS::ApiGateway::RestApi', { DisableExecuteApiEndpoint: false });
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { DisableExecuteApiEndpoint: false });
  });

  it('becomes the ApiUrl output', () => {
    configured.template.hasOutput('ApiUrl', { Value: 'https://events.example.com' });
  });
});
