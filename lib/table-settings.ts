import { Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { SETTINGS_ITEM } from '#config/storage';
import { heraldLogGroup, type LogSettings } from './log-group';

/** Properties of {@link TableSettings}. */
export interface TableSettingsProps extends LogSettings {
  readonly table: dynamodb.ITable;
  /** Days until an event expires; undefined keeps events. */
  readonly eventRetentionDays?: number | undefined;
  /** The API's usage plan, in which the admin function registers each organization's key. */
  readonly usagePlanId?: string;
}

/**
 * Writes the settings item (`SETTINGS_ITEM`) into the events table at every deployment, so that
 * publishers, who run outside the stack with nothing but the table name, apply the stack's retention to
 * every event instead of relying on each caller to pass the same number. It also names the usage plan
 * for the admin function: a variable would make the function depend on the plan, which depends on the
 * API's stage, which depends on the function.
 */
export class TableSettings extends Construct {
  constructor(scope: Construct, id: string, props: TableSettingsProps) {
    super(scope, id);
    const { key, retentionDaysAttribute, usagePlanIdAttribute } = SETTINGS_ITEM;
    const item: Record<string, { S: string } | { N: string }> = { pk: { S: key.pk }, sk: { S: key.sk } };
    if (props.eventRetentionDays !== undefined) {
      item[retentionDaysAttribute] = { N: String(props.eventRetentionDays) };
    }
    if (props.usagePlanId !== undefined) item[usagePlanIdAttribute] = { S: props.usagePlanId };
    const put: cr.AwsSdkCall = {
      service: 'DynamoDB',
      action: 'putItem',
      parameters: { TableName: props.table.tableName, Item: item },
      physicalResourceId: cr.PhysicalResourceId.of(`${Stack.of(this).stackName}-settings`),
    };
    // Like every Herald function: its own log group and a role that writes only there (no managed policy).
    const logGroup = heraldLogGroup(this, 'Logs', props);
    const role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    const writer = new cr.AwsCustomResource(this, 'Writer', {
      onCreate: put,
      onUpdate: put,
      installLatestAwsSdk: false,
      role,
      logGroup,
      policy: cr.AwsCustomResourcePolicy.fromStatements([
        new iam.PolicyStatement({
          actions: ['dynamodb:PutItem'],
          resources: [props.table.tableArn],
          conditions: {
            'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [key.pk] },
            Null: { 'dynamodb:LeadingKeys': 'false' },
          },
        }),
      ]),
    });
    if (props.table.encryptionKey) {
      writer.grantPrincipal.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey'],
          resources: [props.table.encryptionKey.keyArn],
          conditions: {
            StringEquals: { 'kms:ViaService': `dynamodb.${Stack.of(this).region}.amazonaws.com` },
          },
        }),
      );
    }
  }
}
