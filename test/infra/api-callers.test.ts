/**
 * The API's resource policy (issue 28, item 7): without one, any principal of the account with
 * `execute-api:Invoke` on `*` was a full operator. Every route stays reachable and decided by its own
 * authorization; each IAM route is denied to everyone but the publishers or operators the deployment
 * names, or, when it names none, a role Herald creates for them.
 */
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { API_ROUTES, type RouteShape } from '#config/routes';
import { stackPropsFromContext } from '../../lib/context-props';
import { HeraldStack } from '../../lib/herald-stack';
import type { HeraldStackProps } from '../../lib/herald-stack-props';
import { type Json, synth, testApp } from './fixture';

const OPS = 'arn:aws:iam::111122223333:role/herald-ops-*';
const GATEWAY = 'arn:aws:iam::444455556666:role/payment-gateway';

function policyOf(props: HeraldStackProps = {}) {
  const synthesized = synth(props);
  const [api] = Object.values(synthesized.template.findResources('AWS::ApiGateway::RestApi')) as Json[];
  const statements: Json[] = api.Properties.Policy.Statement;
  const bySid = (sid: string) => statements.find((statement) => statement.Sid === sid);
  return { synthesized, statements, bySid };
}

/** The resource ARN a request to `route` (its parameters filled in) has in any stage. */
const requestOf = (route: RouteShape) => `${route.method}${route.path.replace(/\{\w+\}/g, 'x1')}`;

/** IAM's ARN matching of a policy resource (`*` any characters) against a request's. */
function matches(resource: string, request: string): boolean {
  const pattern = resource.replace('execute-api:/*/', '').replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${pattern.replace(/\*/g, '.*')}$`).test(request);
}

const denied = (statements: Json[], route: RouteShape) =>
  statements.filter(
    (statement) =>
      statement.Effect === 'Deny' &&
      [statement.Resource].flat().some((r: string) => matches(r, requestOf(route))),
  );

describe('the API’s resource policy', () => {
  const { synthesized, statements, bySid } = policyOf();
  const roleId = (name: string) =>
    synthesized.logicalId(synthesized.stack.node.findChild('Callers').node.findChild(name));
  const roleArn = (name: string) => ({ 'Fn::GetAtt': [roleId(name), 'Arn'] });

  it('lets every route be decided by its own authorization: a public or API-key route needs the allow', () => {
    expect(bySid('EveryRouteDecidedByItsOwnAuthorization')).toEqual({
      Sid: 'EveryRouteDecidedByItsOwnAuthorization',
      Effect: 'Allow',
      Principal: { AWS: '*' },
      Action: 'execute-api:Invoke',
      Resource: 'execute-api:/*',
    });
    // No public or API-key route is denied to anyone: the authorizer and the routes decide as before.
    for (const route of API_ROUTES.filter((r) => r.auth !== 'iam')) {
      expect(denied(statements, route), `${route.method} ${route.path}`).toEqual([]);
    }
  });

  it('denies publishing to all but the publishers, and every operator route to all but the operators', () => {
    for (const route of API_ROUTES.filter((r) => r.auth === 'iam')) {
      const [deny, ...more] = denied(statements, route);
      expect(more, `${route.method} ${route.path}`).toEqual([]);
      expect(deny?.Sid).toBe(route.fn === 'publishEvent' ? 'OnlyPublishersPublish' : 'OnlyOperatorsOperate');
      expect(deny?.Principal).toEqual({ AWS: '*' });
    }
    // Nothing named: the roles Herald creates, and only them.
    expect(bySid('OnlyPublishersPublish').Condition).toEqual({
      ArnNotLike: { 'aws:PrincipalArn': [roleArn('Publisher')] },
    });
    expect(bySid('OnlyOperatorsOperate').Condition).toEqual({
      ArnNotLike: { 'aws:PrincipalArn': [roleArn('Operator')] },
    });
  });

  it('creates the default roles for the account to assume, with no rights of their own, and names them', () => {
    for (const name of ['Publisher', 'Operator']) {
      const role = synthesized.template.toJSON().Resources[roleId(name)];
      expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
        {
          Action: 'sts:AssumeRole',
          Effect: 'Allow',
          Principal: {
            AWS: {
              'Fn::Join': [
                '',
                ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, ':root'],
              ],
            },
          },
        },
      ]);
      expect(role.Properties.Policies).toBeUndefined();
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      synthesized.template.hasOutput(`${name}RoleArn`, { Value: roleArn(name) });
    }
  });

  it('admits exactly the principals the deployment names, and creates no role for them', () => {
    const named = policyOf({ callers: { operators: [OPS], publishers: [GATEWAY, OPS] } });
    expect(named.bySid('OnlyOperatorsOperate').Condition).toEqual({
      ArnNotLike: { 'aws:PrincipalArn': [OPS] },
    });
    expect(named.bySid('OnlyPublishersPublish').Condition).toEqual({
      ArnNotLike: { 'aws:PrincipalArn': [GATEWAY, OPS] },
    });
    expect(Object.keys(named.synthesized.template.findOutputs('*'))).not.toContain('OperatorRoleArn');
    expect(Object.keys(named.synthesized.template.findOutputs('*'))).not.toContain('PublisherRoleArn');
    // One list named: the other keeps its role.
    const half = policyOf({ callers: { operators: [OPS] } });
    expect(Object.keys(half.synthesized.template.findOutputs('*'))).toContain('PublisherRoleArn');
  });

  it('refuses what aws:PrincipalArn can never be, and an empty list', () => {
    const build = (props: HeraldStackProps) => () => new HeraldStack(testApp(), 'Herald', props);
    expect(build({ callers: { operators: ['arn:aws:sts::111122223333:assumed-role/ops/alice'] } })).toThrow(
      /role session; name its role/,
    );
    expect(build({ callers: { publishers: ['payment-gateway'] } })).toThrow(/not an IAM principal ARN/);
    expect(build({ callers: { operators: [] } })).toThrow(/operators: name at least one principal/);
  });

  it('reads herald:publishers and herald:operators from the context, comma-separated', () => {
    const fromContext = (context: Record<string, unknown>) =>
      stackPropsFromContext(new App({ context }).node).callers;
    expect(fromContext({})).toBeUndefined();
    expect(fromContext({ 'herald:operators': `${OPS}, ${GATEWAY}` })).toEqual({ operators: [OPS, GATEWAY] });
    expect(fromContext({ 'herald:publishers': [GATEWAY] })).toEqual({ publishers: [GATEWAY] });
  });
});
