/**
 * The default protection of the stage throttle every organization shares: a regional web ACL with the
 * Amazon IP reputation list, a per-IP and a per-API-key rate limit below that throttle, answering 429
 * problem+json; tunable or off with `waf`, replaced by your own ACL with `webAclArn`. The stage throttle's
 * default is large enough that one organization, with all of its keys, fills at most half of it.
 */
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { MAX_API_KEYS_PER_ORG } from '#domain/ports';
import { PROBLEM_TYPE_BASE } from '#http/problem/problem-types';
import { stackPropsFromContext } from '../../lib/context-props';
import { HeraldStack } from '../../lib/herald-stack';
import type { HeraldStackProps } from '../../lib/herald-stack-props';
import { type Json, synth, testApp } from './fixture';

const OWN_ACL = 'arn:aws:wafv2:eu-central-1:111122223333:regional/webacl/herald/abc';
const byDefault = synth();
const webAcls = (props: HeraldStackProps) => synth(props).template.findResources('AWS::WAFv2::WebACL');
const onlyAcl = (props: HeraldStackProps): Json => {
  const acls = Object.values(webAcls(props));
  expect(acls).toHaveLength(1);
  return (acls[0] as Json).Properties;
};
const rateRule = (acl: Json): Json => acl.Rules.find((rule: Json) => rule.Name === 'per-ip-rate');
const keyRule = (acl: Json): Json => acl.Rules.find((rule: Json) => rule.Name === 'per-key-rate');

describe('web ACL on the API stage', () => {
  it('is created by default: IP reputation list, then at most 3,000 requests per IP in 5 minutes', () => {
    const acl = onlyAcl({});
    expect(acl).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    expect(acl.Rules.map((rule: Json) => [rule.Priority, rule.Name])).toEqual([
      [0, 'amazon-ip-reputation'],
      [1, 'per-ip-rate'],
      [2, 'per-key-rate'],
    ]);
    expect(acl.Rules[0]).toMatchObject({
      Statement: {
        ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesAmazonIpReputationList' },
      },
      OverrideAction: { None: {} },
    });
    // One organization's plan rate (10 rps × 300 s): a customer behind one address is not blocked by it.
    expect(rateRule(acl).Statement).toEqual({
      RateBasedStatement: { AggregateKeyType: 'IP', Limit: 3000, EvaluationWindowSec: 300 },
    });
  });

  it('stops one API key above its organization’s plan rate, from any number of addresses', () => {
    const acl = onlyAcl({});
    expect(keyRule(acl).Statement).toEqual({
      RateBasedStatement: {
        AggregateKeyType: 'CUSTOM_KEYS',
        CustomKeys: [
          { Header: { Name: 'authorization', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } },
        ],
        Limit: 3000,
        EvaluationWindowSec: 300,
        // Only organizations' keys: a SigV4 header differs on every request and would never add up.
        ScopeDownStatement: {
          ByteMatchStatement: {
            FieldToMatch: { SingleHeader: { Name: 'authorization' } },
            PositionalConstraint: 'STARTS_WITH',
            SearchString: 'Bearer ',
            TextTransformations: [{ Priority: 0, Type: 'NONE' }],
          },
        },
      },
    });
    const { CustomResponseBodyKey, ResponseCode } = keyRule(acl).Action.Block.CustomResponse;
    expect(ResponseCode).toBe(429);
    expect(JSON.parse(acl.CustomResponseBodies[CustomResponseBodyKey].Content)).toMatchObject({
      status: 429,
      detail: 'This API key sent more than 3000 requests in 300 s; retry later.',
    });
    // Its limit follows the organizations' plan.
    const slower = onlyAcl({ organizationUsage: { rateLimit: 2 } });
    expect(keyRule(slower).Statement.RateBasedStatement.Limit).toBe(600);
    expect(rateRule(slower).Statement.RateBasedStatement.Limit).toBe(600);
  });

  it('sits before a stage throttle one organization cannot fill, even with all of its keys', () => {
    const stage = Object.values(byDefault.template.findResources('AWS::ApiGateway::Stage'))[0] as Json;
    const settings = stage.Properties.MethodSettings[0];
    expect([settings.ThrottlingRateLimit, settings.ThrottlingBurstLimit]).toEqual([1000, 2000]);
    // 50 keys at the per-key limit are half the stage over the window; 100 addresses at the per-IP limit fill it.
    const acl = onlyAcl({});
    expect(MAX_API_KEYS_PER_ORG * keyRule(acl).Statement.RateBasedStatement.Limit).toBe((1000 * 300) / 2);
    expect(100 * rateRule(acl).Statement.RateBasedStatement.Limit).toBe(1000 * 300);
  });

  it('answers a blocked address 429 with a problem body like the gateway throttle', () => {
    const acl = onlyAcl({});
    const { CustomResponseBodyKey, ResponseCode } = rateRule(acl).Action.Block.CustomResponse;
    expect(ResponseCode).toBe(429);
    const body = acl.CustomResponseBodies[CustomResponseBodyKey];
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual({
      type: `${PROBLEM_TYPE_BASE}too-many-requests`,
      title: 'Too many requests',
      status: 429,
      detail: 'This address sent more than 3000 requests in 300 s; retry later.',
    });
  });

  it('keeps no sampled requests (their headers carry API keys) but counts in CloudWatch', () => {
    const acl = onlyAcl({});
    for (const config of [acl.VisibilityConfig, ...acl.Rules.map((rule: Json) => rule.VisibilityConfig)]) {
      expect(config).toMatchObject({ SampledRequestsEnabled: false, CloudWatchMetricsEnabled: true });
    }
  });

  it('is associated with the stage and named in an output', () => {
    const { template, stack } = byDefault;
    const [aclId] = Object.keys(template.findResources('AWS::WAFv2::WebACL'));
    const stageId = stack.getLogicalId(stack.api.api.deploymentStage.node.defaultChild as never);
    template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    template.hasResourceProperties('AWS::WAFv2::WebACLAssociation', {
      WebACLArn: { 'Fn::GetAtt': [aclId, 'Arn'] },
    });
    const association = Object.values(template.findResources('AWS::WAFv2::WebACLAssociation'))[0] as Json;
    expect(JSON.stringify(association.Properties.ResourceArn)).toContain(`{"Ref":"${stageId}"}`);
    template.hasOutput('WebAclArn', { Value: { 'Fn::GetAtt': [aclId, 'Arn'] } });
  });

  it('follows the stage throttle and takes its settings', () => {
    expect(rateRule(onlyAcl({ apiThrottle: { rateLimit: 10, burstLimit: 20 } })).Statement).toEqual({
      RateBasedStatement: { AggregateKeyType: 'IP', Limit: 600, EvaluationWindowSec: 300 },
    });
    const tuned = onlyAcl({
      waf: { perIpLimit: 500, perKeyLimit: 400, windowSeconds: 60, ipReputation: false },
    });
    expect(keyRule(tuned).Statement.RateBasedStatement).toMatchObject({
      Limit: 400,
      EvaluationWindowSec: 60,
    });
    expect(tuned.Rules.map((rule: Json) => [rule.Priority, rule.Name])).toEqual([
      [0, 'per-ip-rate'],
      [1, 'per-key-rate'],
    ]);
    expect(rateRule(tuned).Statement.RateBasedStatement).toMatchObject({
      Limit: 500,
      EvaluationWindowSec: 60,
    });
  });

  it('is left out when turned off, and yours is associated instead when given', () => {
    const off = synth({ waf: { enabled: false } }).template;
    off.resourceCountIs('AWS::WAFv2::WebACL', 0);
    off.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
    expect(Object.keys(off.findOutputs('WebAclArn'))).toEqual([]);
    const own = synth({ webAclArn: OWN_ACL }).template;
    own.resourceCountIs('AWS::WAFv2::WebACL', 0);
    own.hasResourceProperties('AWS::WAFv2::WebACLAssociation', { WebACLArn: OWN_ACL });
  });

  it('refuses settings that would not protect the stage, or contradict each other', () => {
    const build = (props: HeraldStackProps) => () => new HeraldStack(testApp(), 'Herald', props);
    expect(build({ waf: { perIpLimit: 300_000 } })).toThrow(/below the stage's 300000 requests per 300 s/);
    expect(build({ waf: { perKeyLimit: 300_000 } })).toThrow(
      /perKeyLimit \(300000\) must be below .*one API key/,
    );
    expect(build({ waf: { perKeyLimit: 9 } })).toThrow(/perKeyLimit must be a whole number from 10/);
    expect(build({ waf: { perIpLimit: 9 } })).toThrow(/perIpLimit must be a whole number from 10/);
    expect(build({ waf: { perIpLimit: 100.5 } })).toThrow(/perIpLimit/);
    expect(build({ waf: { windowSeconds: 30 } })).toThrow(/windowSeconds must be one of 60, 120, 300, 600/);
    expect(build({ waf: { perIpLimt: 100 } as never })).toThrow(/unknown setting perIpLimt/);
    expect(build({ waf: { ipReputation: 'no' } as never })).toThrow(/ipReputation must be true or false/);
    expect(build({ webAclArn: OWN_ACL, waf: { perIpLimit: 100 } })).toThrow(/exclude each other/);
  });

  it('reads herald:waf from the context as JSON, or true/false', () => {
    const fromContext = (value: unknown) =>
      stackPropsFromContext(new App({ context: { 'herald:waf': value } }).node).waf;
    expect(fromContext('{"perIpLimit":1000,"windowSeconds":120}')).toEqual({
      perIpLimit: 1000,
      windowSeconds: 120,
    });
    expect(fromContext({ enabled: false })).toEqual({ enabled: false });
    expect(fromContext('false')).toEqual({ enabled: false });
    expect(fromContext(false)).toEqual({ enabled: false });
    expect(fromContext(undefined)).toBeUndefined();
    expect(() => fromContext('[1]')).toThrow(/herald:waf must be a JSON object/);
  });
});
