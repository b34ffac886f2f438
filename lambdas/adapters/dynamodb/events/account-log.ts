/**
 * An account's event log (`LOG#<org>#<IBAN>`, one item per event, the zero-padded sequence as sort key):
 * its latest sequence, storing an event at the next one, and reading it in sequence order (the catch-up
 * feed). Every read is one Query of one partition, bounded by its `Limit`, whatever the log holds.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { keys } from '#adapters/dynamodb/items';
import type { EventRecord } from '#domain/model';
import type { EventReadOptions, InsertEventResult, NewEvent } from '#domain/ports';
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

/** Stores the event at its sequence unless that sequence is taken; see `EventStore.insertEvent`. */
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

/** Events of the log after a sequence, ascending; see `EventStore.readLog`. */
export async function readLog(
  table: EventTable,
  orgId: string,
  account: string,
  afterSequence: number,
  limit: number,
): Promise<EventRecord[]> {
  const out = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: 'pk = :pk AND sk > :after',
      ExpressionAttributeValues: {
        ':pk': keys.log(orgId, account),
        ':after': keys.sequence(afterSequence),
      },
      // Consistent: a receiver catching up after a webhook must find the event that webhook announced.
      ConsistentRead: true,
      Limit: limit,
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  table.count('Query', out.ConsumedCapacity?.CapacityUnits);
  return (out.Items ?? []).map((item) => toEventRecord(item));
}
