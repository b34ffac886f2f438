import { Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { FunctionKey } from '#config/functions';
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
  /** On the table itself: only the account logs (`LOG#`), whose partition is one account's events. */
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
 *   item action of the kind `log` (its `LeadingKeys` condition: an account log's partition, events only).
 * No function can Scan. PutItem, DeleteItem and BatchWriteItem are granted only where listed: the publish
 * route creates `EVENT#` claims and `LOG#` events; the admin route creates `ORG#`, `APIKEY#` and `PORTAL#` items, deletes API
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

/** The data a function reaches through its own SDK calls (event sources add their own rights). */
export interface FunctionAccess {
  readonly table?: TableAccess;
  readonly queue?: QueueAccess;
}

/**
 * Every function's data rights in one table, so least privilege can be reviewed at a glance. What holds:
 * - `APIKEY#` items: the authorizer reads them (GetItem only); `administer` and the portal's session
 *   function (`portalSession`: sign-in creates session keys, sign-out deletes its own) create, list and
 *   delete them, each in one transaction with the organization's key count (UpdateItem on `ORG#`; once per
 *   organization, UpdateItem on `APIKEY#` moves an old key's expiry off the TTL attribute); `PORTAL#`
 *   items (sign-in links) are created only by `administer` and read-and-deleted only by portal sign-in;
 * - `ORG#` items (webhook tokens): read only by the consumer (each attempt signs with the token),
 *   `manageSettings` (an organization's own token view and rotation), portal sign-in and `administer`; created only by
 *   `administer`, updated only by those two (token rotation) and by the key writers (the key count);
 *   the API readers cannot read them;
 * - `ACCOUNT#` items: written by `manageSettings` (an organization's own webhook URL) and `administer`
 *   (which also replaces a deleted account by its tombstone, PutItem); their endpoint health (`wh_*`)
 *   updated by the consumer and by `enableEndpoint`/`administer` (re-enable); deleted, like events erased
 *   (BatchWriteItem), only by `administer`;
 * - `ENDPOINT#` items (an endpoint's material: payload key, TLS client certificate with its sealed key,
 *   CA certificate): read by the consumer, written (UpdateItem, in one transaction with the account's
 *   summary) by the two account writers `manageSettings` and `administer`, deleted by `administer` with
 *   the account; the API readers cannot read them;
 * - `EVENT#` items: created only by `publishEvent` (PutItem), updated by the delivery paths (redeliver,
 *   reset, enable with `recover_since`, consumer, reconciler, administer); `SETTINGS` is read by the publisher and `administer`;
 * - API readers of one item (`getEvent`, `getAccount`, the authorizer) have GetItem only; the delivery
 *   summary (`getDeliveryStats`) reads its account, the `by-org` index and a batch of events;
 * - writers also enqueue the delivery they cause; the consumer changes visibility to schedule retries;
 *   the consumer also sends (it replaces a long-deferred message); health, openapi and the portal page
 *   touch no data. The forwarder's table stream and the reconciler's DLQ are read by
 *   their event source mappings, which grant exactly that.
 */
export const FUNCTION_ACCESS: Readonly<Record<FunctionKey, FunctionAccess>> = {
  authorizer: { table: { items: { GetItem: ['apiKey'] } } },
  health: {},
  openapi: {},
  portal: {},
  portalSession: {
    table: {
      items: {
        GetItem: ['organization', 'apiKey'],
        BatchGetItem: ['apiKey'],
        PutItem: ['apiKey'],
        UpdateItem: ['organization', 'apiKey'],
        DeleteItem: ['portalLink', 'apiKey'],
      },
      indexes: ['by-org'],
    },
  },
  listEvents: {
    table: {
      items: { BatchGetItem: ['event', 'log'], Query: ['log'] },
      indexes: ['by-org', 'failed-by-org', 'skipped-by-org'],
    },
  },
  getEvent: { table: { items: { GetItem: ['event', 'log'] } } },
  redeliverEvent: {
    table: {
      // Replay reads the account and its log; an ordered account's watermark goes back below a new cycle.
      items: {
        GetItem: ['event', 'log', 'account'],
        UpdateItem: ['event', 'log', 'account'],
        Query: ['log'],
      },
    },
    queue: 'send',
  },
  resetWebhooks: {
    table: { items: { UpdateItem: ['event', 'log'] }, indexes: ['failed-by-org', 'skipped-by-org'] },
    queue: 'send',
  },
  listAccounts: { table: { items: { BatchGetItem: ['account'] }, indexes: ['by-org'] } },
  getAccount: { table: { items: { GetItem: ['account'] } } },
  getDeliveryStats: {
    table: { items: { GetItem: ['account'], BatchGetItem: ['event', 'log'] }, indexes: ['by-org'] },
  },
  enableEndpoint: {
    table: {
      items: { UpdateItem: ['account', 'event', 'log'] },
      indexes: ['failed-by-org', 'skipped-by-org'],
    },
    queue: 'send',
  },
  manageSettings: {
    table: {
      items: {
        GetItem: ['account', 'organization', 'endpointSecrets'],
        UpdateItem: ['account', 'organization', 'endpointSecrets'],
      },
    },
  },
  publishEvent: {
    table: {
      items: {
        GetItem: ['settings', 'account', 'event', 'log'],
        PutItem: ['event', 'log'],
        Query: ['log'],
      },
    },
  },
  administer: {
    table: {
      items: {
        GetItem: ['organization', 'account', 'event', 'log', 'settings', 'endpointSecrets'],
        BatchGetItem: ['apiKey', 'account', 'event', 'log'],
        // The upgrade moves old-layout events into account logs (`EVENT#` claims, `LOG#` items).
        PutItem: ['organization', 'apiKey', 'portalLink', 'account', 'event', 'log'],
        UpdateItem: ['organization', 'apiKey', 'account', 'event', 'log', 'endpointSecrets'],
        DeleteItem: ['apiKey', 'account', 'endpointSecrets'],
        BatchWriteItem: ['event', 'log'],
        // Replay reads an account's log.
        Query: ['log'],
      },
      indexes: ['by-org', 'failed-by-org', 'skipped-by-org'],
    },
    queue: 'send',
  },
  forwarder: {
    // Retention's deletions of a log's last events raise the account's `seq_floor` (read the log first).
    table: { items: { Query: ['log'], UpdateItem: ['account'] } },
    queue: 'send',
  },
  consumer: {
    table: {
      items: {
        GetItem: ['event', 'log', 'account', 'organization', 'endpointSecrets'],
        UpdateItem: ['event', 'log', 'account'],
        // The order gate and its chain read an ordered account's log.
        Query: ['log'],
      },
    },
    queue: 'consume-send',
  },
  reconciler: {
    table: { items: { GetItem: ['event', 'log'], UpdateItem: ['event', 'log'] } },
    queue: 'send',
  },
};
