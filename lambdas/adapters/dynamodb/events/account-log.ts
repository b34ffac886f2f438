/**
 * An account's event log (`LOG#<org>#<IBAN>`, one item per event, the zero-padded sequence as sort key):
 * its latest sequence, storing an event at the next one, and reading it in sequence order (the catch-up
 * feed). Every read is bounded by its limit and byte budget, whatever the log holds.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { keys } from '#adapters/dynamodb/items';
import { SEQUENCE_DIGITS } from '#config/storage';
import type { EventRecord } from '#domain/model';
import type { EventReadOptions, InsertEventResult, LogPage, LogRead, LogVoid, NewEvent } from '#domain/ports';
import { eventItem, isVoid, refOfItem, toEventRecord, voidOfItem } from './event-items';
import { type EventTable, lastItem } from './event-table';

/** The largest sequence a log item's sort key holds. */
const LAST_SEQUENCE = 10 ** SEQUENCE_DIGITS - 1;

/**
 * The key condition of a log's items after a sequence: its sequence keys only, so the log's head (whose
 * sort key sorts after every sequence's) is never read as an event. Every read of a log's events and
 * voids uses it; only the tail read (`log-head.ts`) and erasure read the whole partition.
 */
export function sequenceKeys(
  orgId: string,
  account: string,
  afterSequence: number,
): Required<Pick<QueryCommandInput, 'KeyConditionExpression' | 'ExpressionAttributeValues'>> {
  return {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': keys.log(orgId, account),
      ':from': keys.sequence(afterSequence + 1),
      ':to': keys.sequence(LAST_SEQUENCE),
    },
  };
}

/**
 * The highest sequence in the account's log (an event or a void), 0 for an empty one: one key read (0.5
 * read unit).
 */
export async function latestSequence(
  table: EventTable,
  orgId: string,
  account: string,
  options: EventReadOptions = {},
): Promise<number> {
  const last = await lastItem(
    table,
    { ...sequenceKeys(orgId, account, 0), ProjectionExpression: 'sk' },
    options,
  );
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
    const occupant = unmarshall(error.Item);
    return isVoid(occupant)
      ? { created: false }
      : { created: false, occupant: refOfItem(occupant, event.orgId).id };
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
  const voids: LogVoid[] = [];
  let bytes = 0;
  let startKey: Record<string, unknown> | undefined;
  for (;;) {
    const out = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        ...sequenceKeys(orgId, account, read.afterSequence),
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
      // A void is a closed sequence, no event: the reader learns it is closed and reads on.
      if (isVoid(item)) {
        voids.push(voidOfItem(item));
        continue;
      }
      const event = toEventRecord(item);
      bytes += Buffer.byteLength(event.body);
      if (events.length > 0 && read.maxBodyBytes !== undefined && bytes > read.maxBodyBytes) {
        // Read but not returned: the next read starts at it.
        return page(read, events, voids, true);
      }
      events.push(event);
      if (events.length === read.limit) {
        return page(read, events, voids, index < items.length - 1 || out.LastEvaluatedKey !== undefined);
      }
    }
    startKey = out.LastEvaluatedKey;
    if (startKey === undefined) return page(read, events, voids, false);
  }
}

function page(read: LogRead, events: EventRecord[], voids: LogVoid[], more: boolean): LogPage {
  return { events, voids, more, nextAfterSequence: events.at(-1)?.sequence ?? read.afterSequence };
}
