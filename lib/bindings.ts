import { Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { FunctionKey } from '#config/functions';
import { EVENTS_TABLE } from '#config/storage';
import { acknowledgeKeyActionFamilies } from './herald-function';

/**
 * What a function may do with the events table: exactly the operations the functions' adapters
 * issue, on the table and its named indexes only.
 * - `read`: GetItem, BatchGetItem, Query.
 * - `readWrite`: `read` plus UpdateItem.
 * - `publish`: `read` plus PutItem (conditional on a new id): the publish route creates events only.
 * - `admin`: `readWrite` plus PutItem and DeleteItem: the operator routes create organizations, keys and
 *   portal links, revoke keys and delete accounts.
 * - `credentials`: the portal's sign-in: `read`, plus PutItem and DeleteItem on portal-link and API-key
 *   items only (`dynamodb:LeadingKeys`), so it can neither touch events nor overwrite an organization.
 * No function can BatchWriteItem or Scan.
 */
export type TableAccess = 'read' | 'readWrite' | 'publish' | 'admin' | 'credentials';

const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const TABLE_ACTIONS: Readonly<Record<TableAccess, readonly string[]>> = {
  read: READ_ACTIONS,
  readWrite: [...READ_ACTIONS, 'dynamodb:UpdateItem'],
  publish: [...READ_ACTIONS, 'dynamodb:PutItem'],
  admin: [...READ_ACTIONS, 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
  credentials: READ_ACTIONS,
};

/** The partition keys the `credentials` access may create and delete (see `items.ts`). */
const CREDENTIAL_KEY_PATTERNS = ['PORTAL#*', 'APIKEY#*'];

const KEY_WRITE_ACTIONS = [
  'kms:Decrypt',
  'kms:DescribeKey',
  'kms:Encrypt',
  'kms:ReEncrypt*',
  'kms:GenerateDataKey*',
];

/** What a customer-managed table key must allow for each access: the sets of CDK's own table grants. */
const KEY_ACTIONS: Readonly<Record<TableAccess, readonly string[]>> = {
  read: ['kms:Decrypt', 'kms:DescribeKey'],
  readWrite: KEY_WRITE_ACTIONS,
  publish: KEY_WRITE_ACTIONS,
  admin: KEY_WRITE_ACTIONS,
  credentials: KEY_WRITE_ACTIONS,
};

/**
 * What a function may do with a queue.
 * - `send`: SendMessage (and GetQueueAttributes/GetQueueUrl).
 * - `consume`: ReceiveMessage, DeleteMessage, ChangeMessageVisibility (and the attribute reads). An SQS
 *   event source grants the same; binding it states that the handler itself calls the queue (the
 *   consumer changes message visibility to schedule retries).
 * - `consume-send`: both: the consumer also replaces a long-deferred message by a fresh one.
 */
export type QueueAccess = 'send' | 'consume' | 'consume-send';

/**
 * Grants `fn` the `access` to the events table and tells it the table's name in `TABLE_NAME`, in one
 * call so that no function learns a name it has no rights on, or has rights it was not told about.
 */
export function bindTable(fn: lambda.Function, table: dynamodb.ITable, access: TableAccess): void {
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: [...TABLE_ACTIONS[access]],
      // Named indexes instead of CDK's `index/*`: a future index is not readable until granted.
      resources: [
        table.tableArn,
        ...EVENTS_TABLE.indexes.map((index) => `${table.tableArn}/index/${index.name}`),
      ],
    }),
  );
  if (access === 'credentials') {
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': CREDENTIAL_KEY_PATTERNS } },
      }),
    );
  }
  if (table.encryptionKey) {
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [...KEY_ACTIONS[access]],
        resources: [table.encryptionKey.keyArn],
        // Only through DynamoDB: the role cannot use the key to decrypt anything else directly.
        conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${Stack.of(fn).region}.amazonaws.com` } },
      }),
    );
    if (access !== 'read') acknowledgeKeyActionFamilies(fn);
  }
  fn.addEnvironment('TABLE_NAME', table.tableName);
}

/** Grants `fn` the `access` to the delivery queue and sets `QUEUE_URL`; see {@link bindTable}. */
export function bindQueue(fn: lambda.Function, queue: sqs.Queue, access: QueueAccess): void {
  if (access !== 'consume') {
    queue.grants.sendMessages(fn);
    if (queue.encryptionMasterKey) acknowledgeKeyActionFamilies(fn);
  }
  if (access !== 'send') queue.grants.consumeMessages(fn);
  fn.addEnvironment('QUEUE_URL', queue.queueUrl);
}

/** The data a function reaches through its own SDK calls (event sources add their own rights). */
export interface FunctionAccess {
  readonly table?: TableAccess;
  readonly queue?: QueueAccess;
}

/**
 * Every function's data rights in one table, so least privilege can be reviewed at a glance. Readers
 * read; writers also enqueue the delivery they cause; the consumer changes visibility to schedule
 * retries; portal sign-in writes only credential items; health, openapi and the portal page touch no
 * data. The forwarder's table stream and the reconciler's DLQ
 * are read by their event source mappings, which grant exactly that.
 */
export const FUNCTION_ACCESS: Readonly<Record<FunctionKey, FunctionAccess>> = {
  authorizer: { table: 'read' },
  health: {},
  openapi: {},
  portal: {},
  openPortalSession: { table: 'credentials' },
  listEvents: { table: 'read' },
  getEvent: { table: 'read' },
  redeliverEvent: { table: 'readWrite', queue: 'send' },
  resetWebhooks: { table: 'readWrite', queue: 'send' },
  listAccounts: { table: 'read' },
  getAccount: { table: 'read' },
  enableEndpoint: { table: 'readWrite', queue: 'send' },
  manageSettings: { table: 'readWrite' },
  publishEvent: { table: 'publish' },
  administer: { table: 'admin', queue: 'send' },
  forwarder: { queue: 'send' },
  consumer: { table: 'readWrite', queue: 'consume-send' },
  reconciler: { table: 'readWrite', queue: 'send' },
};
