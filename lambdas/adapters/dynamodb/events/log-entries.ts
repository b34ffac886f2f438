/**
 * What the order gate reads of an account's log: its events above a sequence with their delivery state
 * only (no body, no attempts). One consistent Query of the log partition, bounded by its `Limit`.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#adapters/dynamodb/items';
import type { LogEntry } from '#domain/ports';
import { refOfItem } from './event-items';
import type { EventTable } from './event-table';

/** See `DeliveryLedger.readLogEntries`. */
export async function readLogEntries(
  table: EventTable,
  orgId: string,
  account: string,
  afterSequence: number,
  limit: number,
): Promise<LogEntry[]> {
  const out = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: 'pk = :pk AND sk > :after',
      ExpressionAttributeValues: { ':pk': keys.log(orgId, account), ':after': keys.sequence(afterSequence) },
      // The read units are billed on whole items whatever the projection: the `Limit` is what bounds the
      // cost; the projection keeps bodies and attempts out of the consumer's memory.
      ProjectionExpression: 'pk, sk, gsi1sk, webhook_status, lease_until, next_attempt_at',
      ConsistentRead: true,
      Limit: limit,
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  table.count('Query', out.ConsumedCapacity?.CapacityUnits);
  return (out.Items ?? []).map((item) => ({
    ...refOfItem({ ...item, account }, orgId),
    account,
    webhookStatus: item.webhook_status ?? 'pending',
    leaseUntil: item.lease_until === undefined ? undefined : Number(item.lease_until),
    nextAttemptAt: item.next_attempt_at === undefined ? undefined : Number(item.next_attempt_at),
  }));
}
