import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { EVENTS_TABLE } from '#config/storage';
import { synth } from './fixture';

const byDefault = synth();
const configured = synth({
  encryption: { kind: 'customer-managed' },
  eventRetentionDays: 400,
  tableCapacity: { mode: 'provisioned', read: { min: 5, max: 50 }, write: { min: 2, max: 100 } },
});
const keyArn = 'arn:aws:kms:eu-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const imported = synth({ encryption: { kind: 'customer-managed', keyArn } });
const TABLE = 'AWS::DynamoDB::Table';

describe('events table', () => {
  it('has the keys, the INCLUDE indexes (by-org and the sparse status ones) and the NEW_IMAGE stream', () => {
    byDefault.template.resourceCountIs(TABLE, 1);
    byDefault.template.hasResourceProperties(TABLE, {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'gsi1pk', AttributeType: 'S' },
        { AttributeName: 'gsi1sk', AttributeType: 'S' },
        { AttributeName: 'failed_org', AttributeType: 'S' },
        { AttributeName: 'skipped_org', AttributeType: 'S' },
      ]),
      GlobalSecondaryIndexes: EVENTS_TABLE.indexes.map((index) =>
        Match.objectLike({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['account', 'type'] },
        }),
      ),
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
  });

  it('is protected: deletion protection, point-in-time recovery, retained on stack deletion', () => {
    byDefault.template.hasResource(TABLE, {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        DeletionProtectionEnabled: true,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    });
  });

  it('by default: AWS-managed key, on demand, no TTL, no KMS key of its own (only the alarm topic and the secrets have one)', () => {
    byDefault.template.hasResourceProperties(TABLE, {
      SSESpecification: { SSEEnabled: true, KMSMasterKeyId: Match.absent() },
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: Match.absent(),
    });
    // The alarm topic's key and the secrets key (test/infra/secrets-key.test.ts), none for the table.
    byDefault.template.resourceCountIs('AWS::KMS::Key', 2);
    expect(byDefault.stack.encryptionKey).toBeUndefined();
  });

  it('customer-managed: creates a rotated, retained key and encrypts with it', () => {
    configured.template.hasResource('AWS::KMS::Key', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({ EnableKeyRotation: true }),
    });
    configured.template.hasResourceProperties(TABLE, {
      SSESpecification: {
        SSEEnabled: true,
        SSEType: 'KMS',
        KMSMasterKeyId: { 'Fn::GetAtt': [configured.logicalId(configured.stack.encryptionKey), 'Arn'] },
      },
    });
  });

  it('customer-managed with a key ARN: uses that key and creates only the secrets key', () => {
    // Only the secrets key, which seals signing and client keys whatever encrypts the table.
    imported.template.resourceCountIs('AWS::KMS::Key', 1);
    imported.template.hasResourceProperties(TABLE, {
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: keyArn },
    });
  });

  it('expires items at expires_at only when event retention is on', () => {
    configured.template.hasResourceProperties(TABLE, {
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
    });
  });

  it('provisioned: starts at the minimums and autoscales table and index to 70 % utilisation', () => {
    configured.template.hasResourceProperties(TABLE, {
      BillingMode: Match.absent(), // CloudFormation's default is PROVISIONED
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 2 },
      GlobalSecondaryIndexes: EVENTS_TABLE.indexes.map(() =>
        Match.objectLike({ ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 2 } }),
      ),
    });
    const targets = configured.template.findResources('AWS::ApplicationAutoScaling::ScalableTarget');
    const ranges = Object.values(targets).map((t) => [
      t.Properties.ScalableDimension,
      t.Properties.MinCapacity,
      t.Properties.MaxCapacity,
    ]);
    expect(ranges).toEqual(
      expect.arrayContaining([
        ['dynamodb:table:ReadCapacityUnits', 5, 50],
        ['dynamodb:table:WriteCapacityUnits', 2, 100],
        ['dynamodb:index:ReadCapacityUnits', 5, 50],
        ['dynamodb:index:WriteCapacityUnits', 2, 100],
      ]),
    );
    configured.template.resourcePropertiesCountIs(
      'AWS::ApplicationAutoScaling::ScalingPolicy',
      { TargetTrackingScalingPolicyConfiguration: Match.objectLike({ TargetValue: 70 }) },
      2 * (1 + EVENTS_TABLE.indexes.length),
    );
  });
});
