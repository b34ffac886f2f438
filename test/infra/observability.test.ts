import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DELIVERY_METRICS } from '../../lib/telemetry';
import { type CfnJson, synth } from './fixture';

const byDefault = synth();
const configured = synth({
  alarmEmail: 'oncall@example.com',
  encryption: { kind: 'customer-managed' },
  // Long first waits: the oldest-message alarm must allow for them.
  retrySchedule: [1800, 3600, ...Array<number>(17).fill(7200)],
});
const { stack, template, logicalId } = byDefault;
const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')) as CfnJson[];
const topicId = logicalId(stack.node.findChild('Observability').node.findChild('AlarmTopic'));

function alarm(metricName: string, dimension?: string): CfnJson['Properties'] {
  const found = alarms.filter(
    (a) =>
      a.Properties.MetricName === metricName &&
      (dimension === undefined || JSON.stringify(a.Properties.Dimensions).includes(`"${dimension}"`)),
  );
  expect(found, `${metricName} ${dimension ?? ''}`).toHaveLength(1);
  return found[0]?.Properties;
}

describe('alarms', () => {
  it('every alarm notifies the topic on alarm and on recovery, and ignores missing data', () => {
    expect(alarms).toHaveLength(13);
    for (const { Properties: p } of alarms) {
      expect(p.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(p.OKActions).toEqual([{ Ref: topicId }]);
      expect(p.TreatMissingData).toBe('notBreaching');
      expect(p.AlarmDescription).toEqual(expect.any(String));
    }
  });

  it('an ordered event that failed for good', () => {
    expect(alarm('OrderedEventFailed')).toMatchObject({
      Namespace: 'Herald',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('dead letters waiting for five minutes', () => {
    expect(
      alarm('ApproximateNumberOfMessagesVisible', logicalId(stack.queues.deadLetterQueue)),
    ).toMatchObject({
      Namespace: 'AWS/SQS',
      Statistic: 'Maximum',
      Period: 60,
      EvaluationPeriods: 5,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('the oldest delivery message: an hour by default, the first two waits plus 15 min otherwise', () => {
    expect(alarm('ApproximateAgeOfOldestMessage', logicalId(stack.queues.queue))).toMatchObject({
      Statistic: 'Maximum',
      Threshold: 3600,
    });
    const long = (
      Object.values(configured.template.findResources('AWS::CloudWatch::Alarm')) as CfnJson[]
    ).find((a) => a.Properties.MetricName === 'ApproximateAgeOfOldestMessage');
    expect(long?.Properties.Threshold).toBe(1800 + 3600 + 900);
  });

  it('any record the forwarder gave up on', () => {
    expect(
      alarm('ApproximateNumberOfMessagesVisible', logicalId(stack.queues.forwarderFailures)),
    ).toMatchObject({
      Threshold: 0,
      EvaluationPeriods: 1,
    });
  });

  it('errors of the forwarder, consumer and reconciler', () => {
    for (const key of ['forwarder', 'consumer', 'reconciler'] as const) {
      expect(alarm('Errors', logicalId(stack.functions[key]))).toMatchObject({
        Namespace: 'AWS/Lambda',
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
  });

  it('the summary of operational notices failing for 15 minutes (a failed run is caught up by the next)', () => {
    expect(alarm('Errors', logicalId(stack.functions.noticeSummary))).toMatchObject({
      Namespace: 'AWS/Lambda',
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 3,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('forwarder iterator age above five minutes', () => {
    expect(alarm('IteratorAge', logicalId(stack.functions.forwarder))).toMatchObject({
      Statistic: 'Maximum',
      Threshold: 300_000,
    });
  });

  it('API 5xx, five within five minutes', () => {
    expect(alarm('5XXError')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      Statistic: 'Sum',
      Threshold: 5,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('any webhook endpoint disabled (410 or failing for the auto-disable period)', () => {
    expect(alarm('EndpointDisabled')).toMatchObject({
      Namespace: 'Herald',
      Dimensions: [{ Name: 'service', Value: 'herald' }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('authorizer failures, counted from the access logs (rejected keys are not failures)', () => {
    expect(alarm('AuthorizerFailures')).toMatchObject({
      Namespace: 'Herald',
      Dimensions: [{ Name: 'service', Value: 'herald' }],
      Threshold: 1,
    });
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: logicalId(stack.api.accessLogs) },
      FilterPattern:
        '{ ($.errorResponseType = "AUTHORIZER_FAILURE") || ($.errorResponseType = "AUTHORIZER_CONFIGURATION_ERROR") }',
      MetricTransformations: [
        Match.objectLike({
          MetricNamespace: 'Herald',
          MetricName: 'AuthorizerFailures',
          MetricValue: '1',
          Dimensions: [{ Key: 'service', Value: '$.service' }],
        }),
      ],
    });
  });
});

describe('alarm topic', () => {
  it('is TLS-only, without subscription unless an address is given', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    configured.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
    });
  });

  it('is encrypted without a customer key too, with a rotated key of its own that CloudWatch may use', () => {
    const key = logicalId(stack.node.findChild('Observability').node.findChild('AlarmTopicKey'));
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [key, 'Arn'] } });
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({ Principal: { Service: 'cloudwatch.amazonaws.com' } }),
        ]),
      },
    });
  });

  it('is encrypted with the customer key, which CloudWatch may use', () => {
    const keyId = configured.logicalId(configured.stack.encryptionKey);
    configured.template.hasResourceProperties('AWS::SNS::Topic', {
      KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
    });
    configured.template.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
          }),
        ]),
      },
    });
  });
});

describe('personal data in logs', () => {
  it('log groups use the customer-managed key when there is one, which CloudWatch Logs may use', () => {
    const keyArn = { 'Fn::GetAtt': [configured.logicalId(configured.stack.encryptionKey), 'Arn'] };
    const groups = Object.values(configured.template.findResources('AWS::Logs::LogGroup')) as CfnJson[];
    expect(groups.length).toBeGreaterThan(12);
    for (const group of groups) expect(group.Properties.KmsKeyId).toEqual(keyArn);
    configured.template.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: Match.anyValue() },
            Condition: { ArnLike: { 'kms:EncryptionContext:aws:logs:arn': Match.anyValue() } },
          }),
        ]),
      },
    });
    for (const group of Object.values(template.findResources('AWS::Logs::LogGroup')) as CfnJson[]) {
      expect(group.Properties.KmsKeyId).toBeUndefined();
    }
  });

  it('access logs name the route template, never the raw path or query string', () => {
    const stage = Object.values(template.findResources('AWS::ApiGateway::Stage'))[0] as CfnJson;
    const format = JSON.parse(stage.Properties.AccessLogSetting.Format) as Record<string, string>;
    expect(format.resourcePath).toBe('$context.resourcePath');
    expect(Object.values(format)).not.toContain('$context.path');
    expect(JSON.stringify(format)).not.toMatch(/\$context\.path|querystring|\$input/);
  });
});

describe('dashboard', () => {
  const body = JSON.stringify(
    template.toJSON().Resources[logicalId(stack.node.findChild('Dashboard').node.findChild('Dashboard'))]
      .Properties.DashboardBody,
  );

  it('is one dashboard showing the delivery metrics of the Herald namespace', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    for (const name of Object.values(DELIVERY_METRICS)) {
      expect(body).toContain(`[\\"Herald\\",\\"${name}\\",\\"service\\",\\"herald\\"`);
    }
  });

  it('names changed endpoints by organization and endpoint id, never by an account dimension', () => {
    expect(body).toContain("SEARCH('{Herald,organization,endpoint,service} (MetricName=");
    expect(body).toContain('EndpointDisabled');
    expect(body).not.toContain('\\"account\\"');
  });

  it('shows the alarms and the queues', () => {
    expect(body).toContain('\\"type\\":\\"alarm\\"');
    expect(body).toContain('ApproximateAgeOfOldestMessage');
  });
});

describe('outputs', () => {
  it('name the API, the table, both queues and the alarm topic', () => {
    template.hasOutput('ApiUrl', { Value: Match.anyValue() });
    template.hasOutput('TableName', { Value: { Ref: logicalId(stack.table) } });
    template.hasOutput('QueueUrl', { Value: { Ref: logicalId(stack.queues.queue) } });
    template.hasOutput('DeadLetterQueueUrl', { Value: { Ref: logicalId(stack.queues.deadLetterQueue) } });
    template.hasOutput('AlarmTopicArn', { Value: { Ref: topicId } });
  });
});
