/**
 * What the account logs keep on the account item: an ordered account's watermark `settled_through` (moved
 * on by the order gate, put back by a replay) and the `seq_floor` a log continues above once retention
 * emptied it. Bound into `DynamoDirectoryStore`; each a conditional UpdateItem of the organization's
 * account, never of a tombstone.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CapacityCounter } from './capacity';
import { DELETED_AT, keys } from './items';

/** The table the marks are written to, and where their capacity is counted. */
export interface AccountMarks {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly count: CapacityCounter;
}

/** One conditional update of the account item: true when written, false when the condition refused it. */
async function mark(
  table: AccountMarks,
  operation: string,
  iban: string,
  update: string,
  condition: string,
  values: Record<string, unknown>,
): Promise<boolean> {
  try {
    const out = await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.account(iban),
        UpdateExpression: update,
        ConditionExpression: `org_id = :org AND attribute_not_exists(${DELETED_AT}) AND (${condition})`,
        ExpressionAttributeValues: values,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    table.count(operation, out.ConsumedCapacity?.CapacityUnits);
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** See `DirectoryStore.advanceSettledThrough`; an absent watermark is 0. */
export function advanceSettledThrough(
  table: AccountMarks,
  iban: string,
  orgId: string,
  from: number,
  to: number,
): Promise<boolean> {
  const current =
    from === 0
      ? 'attribute_not_exists(settled_through) OR settled_through = :from'
      : 'settled_through = :from';
  return mark(table, 'AdvanceSettledThrough', iban, 'SET settled_through = :to', current, {
    ':org': orgId,
    ':from': from,
    ':to': to,
  });
}

/** See `DirectoryStore.lowerSettledThrough`. */
export async function lowerSettledThrough(
  table: AccountMarks,
  iban: string,
  orgId: string,
  to: number,
): Promise<void> {
  await mark(table, 'LowerSettledThrough', iban, 'SET settled_through = :to', 'settled_through > :to', {
    ':org': orgId,
    ':to': to,
  });
}

/** See `DirectoryStore.raiseSequenceFloor`. */
export async function raiseSequenceFloor(
  table: AccountMarks,
  iban: string,
  orgId: string,
  floor: number,
): Promise<void> {
  const lower = 'attribute_not_exists(seq_floor) OR seq_floor < :floor';
  await mark(table, 'RaiseSequenceFloor', iban, 'SET seq_floor = :floor', lower, {
    ':org': orgId,
    ':floor': floor,
  });
}
