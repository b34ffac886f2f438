import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS } from '#config/functions';
import { addComplianceChecks } from '../../lib/compliance';
import { HeraldStack } from '../../lib/herald-stack';
import type { HeraldStackProps } from '../../lib/herald-stack-props';
import { testApp } from './fixture';

/** Every optional feature on, so every conditional resource and acknowledgement is checked. */
const EVERYTHING: HeraldStackProps = {
  retrySchedule: [1800, 3600, ...Array<number>(17).fill(7200)],
  webhookUrlPolicy: 'allow-private',
  eventRetentionDays: 400,
  encryption: { kind: 'customer-managed' },
  consumerMaxConcurrency: 100,
  alarmEmail: 'oncall@example.com',
  logLevel: 'DEBUG',
  apiThrottle: { rateLimit: 100, burstLimit: 200 },
  customDomain: {
    domainName: 'events.example.com',
    certificateArn: 'arn:aws:acm:eu-central-1:111122223333:certificate/abc',
    hostedZone: { hostedZoneId: 'Z123456ABCDEFG', zoneName: 'example.com' },
  },
  tableCapacity: { mode: 'provisioned', read: { min: 5, max: 50 }, write: { min: 5, max: 50 } },
  tracing: true,
  corsAllowOrigins: ['https://app.example.com'],
  executionLogLevel: 'ERROR',
  webAclArn: 'arn:aws:wafv2:eu-central-1:111122223333:regional/webacl/herald/abc',
  egress: { staticIps: true, azs: 2 },
};

/** The stack as the app entry builds it: compliance checks on, synthesized through validation. */
function synthesize(props: HeraldStackProps) {
  const app = testApp({ validate: true });
  const stack = new HeraldStack(app, 'Herald', props);
  addComplianceChecks(app);
  // Throws (in-memory mode) when a validation plugin reports a failure.
  const assembly = app.synth();
  const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8'));
  return { stack, report };
}

/**
 * Every acknowledgement Herald makes in the tree: where, which rule, why. CDK's own acknowledgements of
 * CloudFormation linter rules (a VPC's literal AZs on the stack, a flow log's property case) are CDK's,
 * not reviewed here.
 */
function acknowledgements(root: IConstruct): { path: string; id: string; reason: string }[] {
  return root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      )
      .filter((ack) => !ack.id.startsWith('CloudFormation-Validate::')),
  );
}

describe.each([
  ['defaults', {}],
  ['every option on', EVERYTHING],
] as const)('compliance with %s', (_name, props) => {
  const { stack, report } = synthesize(props);

  it('has no unacknowledged AwsSolutions finding, error or warning', () => {
    const { violations } = new AwsSolutionsChecks().validateScope(stack);
    expect(
      violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath)}`),
    ).toEqual([]);
  });

  it('synthesizes with an empty validation report and no annotations', () => {
    expect(report.pluginReports).toEqual([]);
    const annotations = Annotations.fromStack(stack);
    expect(annotations.findWarning('*', Match.anyValue())).toEqual([]);
    expect(annotations.findError('*', Match.anyValue())).toEqual([]);
  });

  it('acknowledges findings only on the resource concerned, each with a reason', () => {
    const acks = acknowledgements(stack.node.root);
    expect(acks.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(ack.path, ack.id).not.toBe(stack.node.path);
      expect(ack.path.split('/').length, `${ack.id} at ${ack.path}`).toBeGreaterThan(2);
      expect(ack.reason.length, `${ack.id} at ${ack.path}`).toBeGreaterThanOrEqual(80);
    }
  });
});

describe('acknowledged rules', () => {
  it('are exactly the reviewed ones', () => {
    const rules = (props: HeraldStackProps) =>
      [...new Set(acknowledgements(synthesize(props).stack).map((ack) => ack.id))].sort();
    expect(rules({})).toEqual([
      'AwsSolutions-APIG4',
      'AwsSolutions-APIG6',
      'AwsSolutions-COG4',
      'AwsSolutions-IAM5[Resource::*]',
      'AwsSolutions-SQS3',
    ]);
    // Only turning Herald's web ACL off (with no ACL of your own) leaves the stage without one.
    expect(rules({ waf: { enabled: false } })).toContain('AwsSolutions-APIG3');
    // Execution logs remove one; a customer key adds KMS's data-key action families.
    expect(rules(EVERYTHING)).toEqual([
      'AwsSolutions-APIG4',
      'AwsSolutions-COG4',
      'AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
      'AwsSolutions-IAM5[Action::kms:ReEncrypt*]',
      'AwsSolutions-IAM5[Resource::*]',
      'AwsSolutions-SQS3',
    ]);
  });

  it('allow Resource::* only for actions without resource-level permissions', () => {
    const wildcards = (props: HeraldStackProps) =>
      acknowledgements(synthesize(props).stack)
        .filter((ack) => ack.id === 'AwsSolutions-IAM5[Resource::*]')
        .map((ack) => ack.path);
    expect(wildcards({})).toEqual(['Herald/Forwarder/Role/DefaultPolicy']);
    // X-Ray's PutTraceSegments has no resource-level permission: one per function, plus the forwarder.
    expect(wildcards({ tracing: true })).toHaveLength(Object.keys(FUNCTIONS).length + 1);
  });

  it('leave unauthenticated only the public routes, 404 and 405 mocks and CORS preflights', () => {
    const { stack } = synthesize(EVERYTHING);
    const open = acknowledgements(stack)
      .filter((ack) => ack.id === 'AwsSolutions-APIG4')
      .map((ack) => ack.path.replace('Herald/Api/Api/Default', ''))
      .sort();
    expect(open.filter((path) => !/\/(ANY|OPTIONS)$/.test(path))).toEqual([
      '/health/GET',
      '/openapi.json/GET',
      '/portal/GET',
      '/portal/session/POST',
    ]);
    // The 404 mocks: the root, its greedy proxy and the resources without a route.
    expect(open).toEqual(expect.arrayContaining(['/ANY', '/{proxy+}/ANY', '/management/ANY', '/admin/ANY']));
  });
});
