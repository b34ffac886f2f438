/**
 * An account's event log (`LOG#<org>#<IBAN>`, one item per event, the zero-padded sequence as sort key):
 * its latest sequence, storing an event at the next one, and reading it in sequence order (the catch-up
 * feed). Every read is bounded by its limit and byte budget, whatever the log holds.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { keys } from '#adapters/dynamodb/items';
import type { EventRecord } from '#domain/model';
import type { EventReadOptions, InsertEventResult, LogPage, LogRead, NewEvent } from '#domain/ports';
import { eventItem, refOfItem, toEventRecord } from './event-items';
import type { EventTable } from './event-table';

/** The highest sequence in the account's log, 0 for an empty one: one key read (0.5 read unit). */
export async function latestSequence(
  table: EventTable,
  orgId: string,
  account: string,
  options: EventReadOptions = {},
): Promise<number> {
  const out = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.log(orgId, account) },
      ProjectionExpression: 'sk',
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: options.consistent ?? false,
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  table.count('Query', out.ConsumedCapacity?.CapacityUnits);
  const [last] = out.Items ?? [];
  return last === undefined ? 0 : Number(last.sk);
}

/** Stores the event at its sequence unless that sequence is taken; see `EventLog.insertEvent`. */
export async function insertEvent(table: EventTable, event: NewEvent): Promise<InsertEventResult> {
  const item = eventItem(event);
  try {
    const out = await table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: item,
        ConditionExpression: 'attribute_not_exists(pk)',
        // The occupant's keys come back with the failure: a duplicate publish of the same id sees its own.
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    table.count('PutItem', out.ConsumedCapacity?.CapacityUnits);
    return { created: true, event: toEventRecord(item as unknown as Record<string, unknown>) };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException && error.Item)) throw error;
    return { created: false, occupant: refOfItem(unmarshall(error.Item), event.orgId).id };
  }
}

/**
 * Events of the log after a sequence, ascending; see `EventLog.readLog`. DynamoDB ends a Query's page
 * at 1 MB whatever its `Limit` (ten 100 KB events), so pages are followed until the limit, the byte
 * budget or the end of the partition.
 */
export async function readLog(
  table: EventTable,
  orgId: string,
  account: string,
  read: LogRead,
): Promise<LogPage> {
  const events: EventRecord[] = [];
  let bytes = 0;
  let startKey: Record<string, unknown> | undefined;
  for (;;) {
    const out = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: 'pk = :pk AND sk > :after',
        ExpressionAttributeValues: {
          ':pk': keys.log(orgId, account),
          ':after': keys.sequence(read.afterSequence),
        },
        // Consistent: a receiver catching up after a webhook must find the event that webhook announced.
        ConsistentRead: true,
        Limit: read.limit - events.length,
        ExclusiveStartKey: startKey,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    table.count('Query', out.ConsumedCapacity?.CapacityUnits);
    const items = out.Items ?? [];
    for (const [index, item] of items.entries()) {
      const event = toEventRecord(item);
      bytes += Buffer.byteLength(event.body);
      if (events.length > 0 && read.maxBodyBytes !== undefined && bytes > read.maxBodyBytes) {
        // Read but not returned: the next read starts at it.
        return page(read, events, true);
      }
      events.push(event);
      if (events.length === read.limit) {
        return page(read, events, index < items.length - 1 || out.LastEvaluatedKey !== undefined);
      }
    }
    startKey = out.LastEvaluatedKey;
    if (startKey === undefined) return page(read, events, false);
  }
}

function page(read: LogRead, events: EventRecord[], more: boolean): LogPage {
  return { events, more, nextAfterSequence: events.at(-1)?.sequence ?? read.afterSequence };
}
