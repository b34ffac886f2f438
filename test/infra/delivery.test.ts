import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { CONSUMER_TIMEOUT_SECONDS } from '#config/delivery';
import { EXPIRY_FILTER_PATTERN, NOTICE_FILTER_PATTERN, STREAM_FILTER_PATTERN } from '#config/storage';
import { FORWARDER_RETRY_ATTEMPTS } from '../../lib/delivery-pipeline';
import { synth } from './fixture';

const byDefault = synth();
const withKey = synth({ encryption: { kind: 'customer-managed' }, consumerMaxConcurrency: 50 });
const { stack, template } = byDefault;
const queueId = byDefault.logicalId(stack.queues.queue);
const dlqId = byDefault.logicalId(stack.queues.deadLetterQueue);
const failuresId = byDefault.logicalId(stack.queues.forwarderFailures);
const FOURTEEN_DAYS = 14 * 24 * 3600;

function queue(id: string) {
  return template.toJSON().Resources[id].Properties;
}

function mapping(fnKey: 'forwarder' | 'consumer' | 'reconciler', from = byDefault) {
  const fnId = from.logicalId(from.stack.functions[fnKey]);
  const found = Object.values(from.template.findResources('AWS::Lambda::EventSourceMapping')).filter(
    (m) => m.Properties.FunctionName.Ref === fnId,
  );
  expect(found).toHaveLength(1);
  return found[0]?.Properties;
}

describe('delivery queues', () => {
  it('redrive to the DLQ after 20 receives, both kept 14 days', () => {
    expect(queue(queueId).RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      maxReceiveCount: 20,
    });
    expect(queue(queueId).MessageRetentionPeriod).toBe(FOURTEEN_DAYS);
    expect(queue(dlqId).MessageRetentionPeriod).toBe(FOURTEEN_DAYS);
    expect(queue(failuresId).MessageRetentionPeriod).toBe(FOURTEEN_DAYS);
    expect(queue(queueId).ReceiveMessageWaitTimeSeconds).toBe(20);
  });

  it('give the consumer at least six times its timeout of visibility', () => {
    const timeout = byDefault.fn('consumer').Properties.Timeout as number;
    expect(timeout).toBe(CONSUMER_TIMEOUT_SECONDS);
    expect(queue(queueId).VisibilityTimeout).toBeGreaterThanOrEqual(6 * timeout);
    const reconcilerTimeout = byDefault.fn('reconciler').Properties.Timeout as number;
    expect(queue(dlqId).VisibilityTimeout).toBeGreaterThanOrEqual(6 * reconcilerTimeout);
  });

  it('are encrypted by SQS by default and with the customer key when asked to', () => {
    for (const id of [queueId, dlqId, failuresId]) {
      expect(queue(id).SqsManagedSseEnabled).toBe(true);
      expect(queue(id).KmsMasterKeyId).toBeUndefined();
    }
    const keyId = withKey.logicalId(withKey.stack.encryptionKey);
    withKey.template.resourcePropertiesCountIs(
      'AWS::SQS::Queue',
      { KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } },
      3,
    );
  });

  it('refuse every request without TLS', () => {
    for (const id of [queueId, dlqId, failuresId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 'sqs:*',
              Principal: { AWS: '*' },
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
      });
    }
  });
});

describe('event sources', () => {
  it('forwarder: the table stream, filtered to pending inserts and the TTL deletions of log items, failures to their queue', () => {
    const m = mapping('forwarder');
    expect(m.EventSourceArn).toEqual({ 'Fn::GetAtt': [byDefault.logicalId(stack.table), 'StreamArn'] });
    expect(m.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern))).toEqual([
      STREAM_FILTER_PATTERN,
      EXPIRY_FILTER_PATTERN,
      NOTICE_FILTER_PATTERN,
    ]);
    expect(m).toMatchObject({
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 1,
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: FORWARDER_RETRY_ATTEMPTS,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failuresId, 'Arn'] } } },
    });
  });

  it('consumer: the delivery queue, batches of 10, batch item failures, bounded concurrency', () => {
    const m = mapping('consumer');
    expect(m).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 20 },
    });
    expect(mapping('consumer', withKey).ScalingConfig).toEqual({ MaximumConcurrency: 50 });
  });

  it('reconciler: the dead-letter queue, batches of 10, batch item failures', () => {
    expect(mapping('reconciler')).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });
});
