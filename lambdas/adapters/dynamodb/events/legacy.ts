/**
 * Events stored before account logs (`EVENT#<id>` items with a `body`): finding an organization's in
 * bounded chunks, oldest first, and moving one into its account's log at a sequence, atomically with the
 * rewrite of its old item into the id's claim. See docs/design.md (account logs, upgrading).
 */

import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#adapters/dynamodb/items';
import { ITEM_PREFIXES } from '#config/storage';
import type { EventRef } from '#domain/model';
import type { LegacyChunk, MoveResult } from '#domain/ports';
import { withSequence } from '#domain/webhook-body';
import { decodeCursor, encodeCursor } from './cursor';
import { refOfItem } from './event-items';
import type { EventTable } from './event-table';
import { ENTRY_PROJECTION } from './index-reads';

/**
 * Up to `limit` of the organization's `by-org` index entries, oldest first from `cursor`: the old-layout
 * events among them (their entries' `pk` is `EVENT#…`), and the cursor of the next chunk.
 */
export async function legacyEvents(
  table: EventTable,
  orgId: string,
  limit: number,
  cursor?: string,
): Promise<LegacyChunk> {
  const out = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      IndexName: 'by-org',
      KeyConditionExpression: 'gsi1pk = :pk',
      FilterExpression: 'begins_with(pk, :legacy)',
      ExpressionAttributeValues: { ':pk': keys.orgEvents(orgId), ':legacy': ITEM_PREFIXES.event },
      ProjectionExpression: ENTRY_PROJECTION,
      ScanIndexForward: true,
      Limit: limit,
      ExclusiveStartKey: decodeCursor(cursor),
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  table.count('Query', out.ConsumedCapacity?.CapacityUnits);
  return {
    events: (out.Items ?? []).map((item) => refOfItem(item, orgId)),
    cursor: encodeCursor(out.LastEvaluatedKey),
  };
}

/**
 * Moves an old-layout event into its account's log at `sequence`, in one transaction: the log item (all
 * its attributes, its body with the sequence) unless the sequence is taken, and its old item replaced by
 * the id's claim while it still is that event and is not pending (a pending one may be under a consumer's
 * lease: it is moved once settled).
 */
export async function moveToLog(table: EventTable, ref: EventRef, sequence: number): Promise<MoveResult> {
  const old = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: keys.event(ref.id), ConsistentRead: true }),
  );
  const item = old.Item;
  if (item?.body === undefined) return 'gone';
  if (item.webhook_status === 'pending') return 'pending';
  const body = withSequence(inflateRawSync(item.body as Uint8Array).toString('utf8'), sequence);
  const at = keys.eventAt({ ...ref, account: String(item.account), sequence });
  try {
    const out = await table.client.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table.tableName,
              Item: {
                ...item,
                ...at,
                ...indexKeys(item, keys.eventIndexKey({ ...ref, sequence })),
                body: deflateRawSync(body, { level: 9 }),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: table.tableName,
              Item: {
                ...keys.event(ref.id),
                org_id: ref.orgId,
                account: item.account,
                seq: sequence,
                owner: 'migration',
                claimed_at: 0,
                ...(item.expires_at === undefined ? {} : { expires_at: item.expires_at }),
              },
              ConditionExpression: 'attribute_exists(body) AND webhook_status <> :pending',
              ExpressionAttributeValues: { ':pending': 'pending' },
            },
          },
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    for (const consumed of out.ConsumedCapacity ?? []) table.count('MoveToLog', consumed.CapacityUnits);
    return 'moved';
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const [log, claim] = error.CancellationReasons ?? [];
    if (log?.Code === 'ConditionalCheckFailed') return 'taken';
    if (claim?.Code === 'ConditionalCheckFailed') return 'gone';
    throw error;
  }
}

/** The moved event's index keys: its shard's, also in the sparse status index it is in. */
function indexKeys(item: Record<string, unknown>, shard: string): Record<string, string> {
  return {
    gsi1pk: shard,
    ...(item.failed_org === undefined ? {} : { failed_org: shard }),
    ...(item.skipped_org === undefined ? {} : { skipped_org: shard }),
  };
}
