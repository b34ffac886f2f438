/**
 * What the order gate reads of an account's log: its events above a sequence with their delivery state
 * only (no body, no attempts), and the voids between them. One consistent Query of the log's sequence keys,
 * bounded by its `Limit`; a page DynamoDB ended first (1 MB processed) is said to be cut, and the gate
 * reads on from its last item.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { LogWindow } from '#domain/ports';
import { sequenceKeys } from './account-log';
import { isVoid, refOfItem, VOIDED_AT, voidOfItem } from './event-items';
import type { EventTable } from './event-table';

/** See `DeliveryLedger.readLogEntries`. */
export async function readLogEntries(
  table: EventTable,
  orgId: string,
  account: string,
  afterSequence: number,
  limit: number,
): Promise<LogWindow> {
  const out = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      ...sequenceKeys(orgId, account, afterSequence),
      // The read units are billed on whole items whatever the projection: the `Limit` is what bounds the
      // cost; the projection keeps bodies and attempts out of the consumer's memory.
      ProjectionExpression: `pk, sk, gsi1sk, webhook_status, lease_until, next_attempt_at, rt, routes, ${VOIDED_AT}`,
      ConsistentRead: true,
      Limit: limit,
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  table.count('Query', out.ConsumedCapacity?.CapacityUnits);
  const items = out.Items ?? [];
  return {
    entries: items
      .filter((item) => !isVoid(item))
      .map((item) => ({
        ...refOfItem({ ...item, account }, orgId),
        account,
        webhookStatus: item.webhook_status ?? 'pending',
        leaseUntil: item.lease_until === undefined ? undefined : Number(item.lease_until),
        nextAttemptAt: item.next_attempt_at === undefined ? undefined : Number(item.next_attempt_at),
        ticketedAt: item.rt === undefined ? undefined : Number(item.rt),
        routes: Array.isArray(item.routes) ? item.routes.map(String) : undefined,
      })),
    voids: items.filter(isVoid).map(voidOfItem),
    // A key to go on from with fewer items than asked for: the page ended before the limit did.
    cut: out.LastEvaluatedKey !== undefined && items.length < limit,
  };
}
