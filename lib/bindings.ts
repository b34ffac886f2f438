import { Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { type EVENTS_TABLE, ITEM_PREFIXES, type ItemKind } from '#config/storage';
import { acknowledgeKeyActionFamilies } from './herald-function';

/** An operation a function issues on items of the events table. */
export type ItemAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'UpdateItem'
  | 'PutItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  /**
   * On the table itself: only the account logs (`LOG#`), whose partition is one account's events, and
   * the account partitions (`ACCOUNT#`), which hold one account and its extra endpoints.
   */
  | 'Query';
/** An index of the events table. */
export type IndexName = (typeof EVENTS_TABLE.indexes)[number]['name'];

/**
 * What a function may do with the events table: exactly the operations its adapters issue.
 * - Each item action on the table itself is its own statement, allowed only on items whose partition key
 *   starts with the prefix of one of the kinds listed (`dynamodb:LeadingKeys`, every key of the request,
 *   keys required). `UpdateItem` creates a missing item too, so its kinds are also all a function could
 *   create with it.
 * - `Query` on the `indexes` named: the indexes project keys, `account` and `type`, so a query cannot
 *   reveal an organization's webhook token or an API key's organization. `Query` on the table only as an
 *   item action of the kinds `log` (its `LeadingKeys` condition: an account log's partition, events only)
 *   and `endpoint` (an account's extra endpoints, no material).
 * No function can Scan. PutItem, DeleteItem and BatchWriteItem are granted only where listed: the publish
 * route creates `EVENT#` claims and `LOG#` events; the two account writers remove extra endpoints
 * (`EP#` items, their material `ENDPOINT#`); the admin route creates `ORG#`, `APIKEY#` and `PORTAL#` items
 * and the operators' event types (`EVENT_TYPES`), deletes API
 * keys and accounts, and erases events; portal sign-in creates `APIKEY#` items and deletes `PORTAL#` and
 * `APIKEY#` items (its own expired session keys). The one other writer is the deploy-time custom resource of
 * `table-settings.ts`: PutItem on the `SETTINGS` item only.
 */
export interface TableAccess {
  readonly items: Readonly<Partial<Record<ItemAction, readonly ItemKind[]>>>;
  readonly indexes?: readonly IndexName[];
}

/** What a customer-managed table key must allow: the sets of CDK's own table grants. */
const KEY_ACTIONS = {
  read: ['kms:Decrypt', 'kms:DescribeKey'],
  readWrite: ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:ReEncrypt*', 'kms:GenerateDataKey*'],
} as const;

/** The item actions that write. */
const WRITE_ACTIONS: readonly ItemAction[] = ['UpdateItem', 'PutItem', 'DeleteItem', 'BatchWriteItem'];

/**
 * What a function may do with a queue.
 * - `send`: SendMessage (and GetQueueAttributes/GetQueueUrl).
 * - `consume`: ReceiveMessage, DeleteMessage, ChangeMessageVisibility (and the attribute reads). An SQS
 *   event source grants the same; binding it states that the handler itself calls the queue (the
 *   consumer changes message visibility to schedule retries).
 *
 * The key grants written here and in {@link bindTable} hold only through the service (`kms:ViaService`).
 * The SQS event sources of the consumer and the reconciler add CDK's own grant (`kms:Decrypt` on the
 * queue key, without that condition) for the Lambda poller, which reads with the function's role, and the
 * forwarder's failure destination adds CDK's send grant on the failure queue (key action families).
 * - `consume-send`: both: the consumer also replaces a long-deferred message by a fresh one.
 */
export type QueueAccess = 'send' | 'consume' | 'consume-send';

/**
 * Grants `fn` the `access` to the events table and tells it the table's name in `TABLE_NAME`, in one
 * call so that no function learns a name it has no rights on, or has rights it was not told about.
 */
export function bindTable(fn: lambda.Function, table: dynamodb.ITable, access: TableAccess): void {
  for (const [action, kinds = []] of Object.entries(access.items)) {
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [`dynamodb:${action}`],
        resources: [table.tableArn],
        conditions: {
          // Every key of the request (all of a BatchGetItem's) must start with an allowed prefix…
          'ForAllValues:StringLike': {
            'dynamodb:LeadingKeys': kinds.map((kind) => `${ITEM_PREFIXES[kind]}*`),
          },
          // …and a request must name its keys: `ForAllValues` alone would also pass an empty set.
          Null: { 'dynamodb:LeadingKeys': 'false' },
        },
      }),
    );
  }
  if (access.indexes && access.indexes.length > 0) {
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:Query'],
        // Named indexes instead of CDK's `index/*`: a future index is not readable until granted.
        resources: access.indexes.map((index) => `${table.tableArn}/index/${index}`),
      }),
    );
  }
  if (table.encryptionKey) {
    const writes = WRITE_ACTIONS.some((action) => access.items[action] !== undefined);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [...KEY_ACTIONS[writes ? 'readWrite' : 'read']],
        resources: [table.encryptionKey.keyArn],
        // Only through DynamoDB: the role cannot use the key to decrypt anything else directly.
        conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${Stack.of(fn).region}.amazonaws.com` } },
      }),
    );
    if (writes) acknowledgeKeyActionFamilies(fn);
  }
  fn.addEnvironment('TABLE_NAME', table.tableName);
}

/** The SQS actions and, for a customer-managed queue key, the KMS actions of each queue access. */
const QUEUE_ACTIONS = {
  send: {
    sqs: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'],
    kms: ['kms:GenerateDataKey', 'kms:Decrypt'],
  },
  consume: {
    sqs: [
      'sqs:ReceiveMessage',
      'sqs:DeleteMessage',
      'sqs:ChangeMessageVisibility',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
    ],
    kms: ['kms:Decrypt'],
  },
  'consume-send': {
    sqs: [
      'sqs:SendMessage',
      'sqs:ReceiveMessage',
      'sqs:DeleteMessage',
      'sqs:ChangeMessageVisibility',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
    ],
    kms: ['kms:GenerateDataKey', 'kms:Decrypt'],
  },
} as const;

/**
 * Grants `fn` the `access` to the delivery queue and sets `QUEUE_URL`; see {@link bindTable}. Written out
 * rather than CDK's queue grants so that the key statement carries `kms:ViaService` (SQS only) and names
 * exact KMS actions.
 */
export function bindQueue(fn: lambda.Function, queue: sqs.Queue, access: QueueAccess): void {
  fn.addToRolePolicy(
    new iam.PolicyStatement({ actions: [...QUEUE_ACTIONS[access].sqs], resources: [queue.queueArn] }),
  );
  if (queue.encryptionMasterKey) {
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [...QUEUE_ACTIONS[access].kms],
        resources: [queue.encryptionMasterKey.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `sqs.${Stack.of(fn).region}.amazonaws.com` } },
      }),
    );
  }
  fn.addEnvironment('QUEUE_URL', queue.queueUrl);
}
