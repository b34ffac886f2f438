/**
 * An event's aggregate over its routed endpoints (`DeliveryLedger.settleRoute`): the event item counts
 * each endpoint's settled delivery in the string set `routes_settled` (`failed` and `skipped` ones also
 * in `routes_failed`, `routes_skipped`), conditioned on the endpoint not being in it yet, so a delivery
 * counted twice (a retried write, a duplicate message) changes nothing, and on an endpoint the event was
 * routed to only. A failure makes the event `failed` in that same write; the write that counts the last
 * endpoint is answered with every count and a second write, conditioned on the event still pending,
 * settles it. A count found made already with every endpoint counted and the event still pending (a crash
 * between the two writes) makes that second write again. The sparse status indexes follow.
 */
import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { conditionalUpdate, updateOrRefused } from '#adapters/dynamodb/conditional-write';
import { keys } from '#adapters/dynamodb/items';
import { STATUS_INDEXES } from '#config/storage';
import type { EventRef, WebhookStatus } from '#domain/model';
import type { EventTable } from './event-table';

/** See {@link DeliveryLedger.settleRoute}. */
export async function settleRoute(
  table: EventTable,
  ref: EventRef,
  endpointId: string,
  status: 'success' | 'failed' | 'skipped',
  attempts: number,
): Promise<WebhookStatus | undefined> {
  const mark = status === 'success' ? '' : `, routes_${status} :ep`;
  const fails =
    status === 'failed'
      ? ` SET webhook_status = :failed, ${STATUS_INDEXES.failed.attribute} = gsi1pk REMOVE lease_until, next_attempt_at`
      : '';
  const { updated, item } = await updateOrRefused(table, 'SettleRoute', {
    TableName: table.tableName,
    Key: keys.eventAt(ref),
    UpdateExpression: `ADD routes_settled :ep, webhook_retries :n${mark}${fails}`,
    ConditionExpression:
      'attribute_exists(routes) AND contains(routes, :id) AND NOT contains(routes_settled, :id)',
    ExpressionAttributeValues: {
      ':ep': new Set([endpointId]),
      ':id': endpointId,
      ':n': attempts,
      ...(status === 'failed' ? { ':failed': 'failed' } : {}),
    },
    ReturnValues: 'ALL_NEW',
  });
  if (updated) return settleLast(table, ref, item);
  // Counted before (or gone, or never routed, or not to this endpoint): the status it holds, settled now
  // if every endpoint was counted and the write that settles it was lost.
  if (item?.routes === undefined) return undefined;
  if (!(item.routes_settled instanceof Set && item.routes_settled.has(endpointId))) {
    return item.webhook_status as WebhookStatus;
  }
  return settleLast(table, ref, item);
}

/** The second write: settles a pending event whose every routed endpoint was counted. */
async function settleLast(
  table: EventTable,
  ref: EventRef,
  counted: Record<string, unknown>,
): Promise<WebhookStatus | undefined> {
  const routes: unknown[] = Array.isArray(counted.routes) ? counted.routes : [];
  const settledSet = counted.routes_settled instanceof Set ? counted.routes_settled : new Set();
  const settled = routes.filter((route) => settledSet.has(route)).length;
  const current = counted.webhook_status as WebhookStatus;
  if (current !== 'pending' || settled < routes.length) return current;
  // A skipped delivery (a disabled or removed endpoint) does not make the others' success `skipped`.
  const final = sizeOf(counted.routes_skipped) >= routes.length ? 'skipped' : 'success';
  const { updated, item } = await updateOrRefused(table, 'SettleRouteLast', {
    TableName: table.tableName,
    Key: keys.eventAt(ref),
    UpdateExpression: `SET webhook_status = :final${final === 'skipped' ? `, ${STATUS_INDEXES.skipped.attribute} = gsi1pk` : ''} REMOVE lease_until, next_attempt_at`,
    ConditionExpression: 'webhook_status = :pending',
    ExpressionAttributeValues: { ':final': final, ':pending': 'pending' },
  });
  return updated ? final : (item?.webhook_status as WebhookStatus | undefined);
}

/** The size of a stored string set (absent: empty). */
function sizeOf(set: unknown): number {
  return set instanceof Set ? set.size : 0;
}

/** See {@link DeliveryLedger.reopenRoute}. */
export async function reopenRoute(table: EventTable, ref: EventRef, endpointId: string): Promise<boolean> {
  const uncount = 'DELETE routes_settled :ep, routes_failed :ep, routes_skipped :ep';
  const values = { ':ep': new Set([endpointId]) };
  // No other endpoint failed for good (a set left empty is removed): the event is pending again.
  const noOtherFailure =
    'attribute_not_exists(routes_failed) OR (size(routes_failed) = :one AND contains(routes_failed, :id))';
  if (
    await reopen(table, 'ReopenRoute', ref, {
      UpdateExpression: `${uncount} SET webhook_status = :pending REMOVE ${STATUS_INDEXES.failed.attribute}, ${STATUS_INDEXES.skipped.attribute}`,
      ConditionExpression: `attribute_exists(routes) AND (${noOtherFailure})`,
      ExpressionAttributeValues: { ...values, ':id': endpointId, ':one': 1, ':pending': 'pending' },
    })
  ) {
    return true;
  }
  // Another endpoint failed for good: the event stays failed, this endpoint alone uncounted.
  return reopen(table, 'ReopenRouteFailed', ref, {
    UpdateExpression: uncount,
    ConditionExpression: 'attribute_exists(routes)',
    ExpressionAttributeValues: values,
  });
}

/** One conditional update of the event's item; false when its condition fails. */
function reopen(
  table: EventTable,
  operation: string,
  ref: EventRef,
  input: Pick<UpdateCommandInput, 'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeValues'>,
): Promise<boolean> {
  return conditionalUpdate(table, operation, {
    TableName: table.tableName,
    Key: keys.eventAt(ref),
    ...input,
  });
}
