/**
 * The organization's count of API keys (`api_key_count` on its item), which makes the key limit exact
 * under concurrency: every key is put or deleted in one transaction with the count's increment
 * (conditioned on the limit) or decrement, so no interleaving of creations can pass the limit and the
 * count never drifts from the keys stored. Key items carry their expiry as `key_expires_at`, not the
 * table's TTL attribute: TTL would delete a key without its decrement.
 */
import {
  type CancellationReason,
  ConditionalCheckFailedException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { EVENTS_TABLE } from '#config/storage';
import { BATCH_GET_LIMIT, batchGetItems } from './batch-get';
import { type ItemKey, keys } from './items';

/** Attribute of the organization item: how many API keys the organization holds. */
export const KEY_COUNT = 'api_key_count';
/** Attribute of a key item: epoch seconds after which it is refused. */
export const KEY_EXPIRY = 'key_expires_at';

/** The items of one transaction. */
export type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** How a transaction ended: written, or cancelled with DynamoDB's reason per item (old items unmarshalled). */
export type TransactOutcome =
  | { readonly written: true }
  | { readonly written: false; readonly reasons: readonly Reason[] };

/** Why DynamoDB cancelled one item of a transaction, with the item as it was when a condition failed. */
export interface Reason {
  readonly code: string;
  readonly old?: Record<string, unknown> | undefined;
}

/** Conflicts with concurrent transactions on the same organization item are retried this often. */
const MAX_TRIES = 12;
const RETRYABLE = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

/**
 * Runs a transaction, retrying (with jittered backoff) while it only conflicted with another transaction
 * on the same items; a cancellation by a condition comes back as its reasons.
 */
export async function transact(
  client: DynamoDBDocumentClient,
  items: TransactItems,
): Promise<TransactOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.send(new TransactWriteCommand({ TransactItems: items }));
      return { written: true };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = (error.CancellationReasons ?? []).map(toReason);
      if (!reasons.some((reason) => RETRYABLE.has(reason.code)) || attempt >= MAX_TRIES) {
        if (reasons.some((reason) => reason.code === 'ConditionalCheckFailed'))
          return { written: false, reasons };
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** Math.min(attempt, 7)));
    }
  }
}

function toReason(reason: CancellationReason): Reason {
  return {
    code: reason.Code ?? 'None',
    old: reason.Item ? unmarshall(reason.Item as Parameters<typeof unmarshall>[0]) : undefined,
  };
}

/**
 * Gives an organization that has no count yet (its keys predate it) the count of the keys it holds, once:
 * one listing of its index entries and one consistent batch read per 100 keys. A key still carrying the
 * table's TTL attribute moves its expiry to `key_expires_at` first, so TTL cannot delete it behind the
 * count's back. Until the count exists no key of the organization is created or deleted (both need it),
 * so what is counted stays true; of concurrent starters, the first write wins and the others agree.
 */
export async function ensureKeyCount(
  client: DynamoDBDocumentClient,
  tableName: string,
  orgId: string,
): Promise<void> {
  const itemKeys: ItemKey[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'by-org',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.orgApiKeys(orgId) },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? []) itemKeys.push({ pk: String(item.pk), sk: String(item.sk) });
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  let count = 0;
  for (let start = 0; start < itemKeys.length; start += BATCH_GET_LIMIT) {
    const chunk = itemKeys.slice(start, start + BATCH_GET_LIMIT);
    const { items } = await batchGetItems(client, tableName, chunk, undefined, true);
    for (const item of items) if (await keepsExpiryFromTtl(client, tableName, item)) count++;
  }
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.organization(orgId),
        UpdateExpression: `SET ${KEY_COUNT} = :count`,
        ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(${KEY_COUNT})`,
        ExpressionAttributeValues: { ':count': count },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Moves a key item's expiry off the TTL attribute; whether the key still exists (TTL may have deleted
 * it meanwhile, and then it is not counted).
 */
async function keepsExpiryFromTtl(
  client: DynamoDBDocumentClient,
  tableName: string,
  item: Record<string, unknown>,
): Promise<boolean> {
  const ttl = EVENTS_TABLE.timeToLiveAttribute;
  if (item[ttl] === undefined) return true;
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: `SET ${KEY_EXPIRY} = ${ttl} REMOVE ${ttl}`,
        ConditionExpression: `attribute_exists(${ttl})`,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return true;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // Another starter moved it already (the item is still there), or TTL deleted it.
    return error.Item !== undefined;
  }
}
