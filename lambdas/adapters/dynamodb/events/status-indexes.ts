/**
 * The sparse `failed-by-org` and `skipped-by-org` indexes, which only failed and skipped events enter:
 * reading the next chunk of them (reset, recovery), a new delivery cycle that takes an event out of them,
 * and putting in the events recorded before the indexes existed. They make reset cost what it returns,
 * not what the organization holds.
 */
import { conditionalUpdate, updateOrRefused } from '#adapters/dynamodb/conditional-write';
import { keys } from '#adapters/dynamodb/items';
import { STATUS_INDEXES } from '#config/storage';
import { MAX_CYCLES } from '#delivery/retry-rule';
import type { EventRef } from '#domain/model';
import type { StatusChunk } from '#domain/ports';
import { cyclesOfItem } from './event-items';
import type { EventTable } from './event-table';
import { readIds } from './index-reads';

/**
 * Up to `limit` ids of the organization's failed and skipped events, from the sparse indexes (their
 * newest first per state), and whether more remain. A reset takes them out of the indexes, so the next
 * chunk starts from the top again. (A recovery, which takes one account's events only, walks the indexes
 * with a cursor instead: `recovery.ts`.)
 */
export async function nextFailedOrSkipped(
  table: EventTable,
  orgId: string,
  limit: number,
): Promise<StatusChunk> {
  const events: EventRef[] = [];
  let more = false;
  for (const index of [STATUS_INDEXES.failed, STATUS_INDEXES.skipped]) {
    const room = limit - events.length;
    if (room <= 0) {
      more = true;
      break;
    }
    // One more than there is room for tells whether more remain, at the price of one small entry.
    const request = { orgId, offset: 0, limit: room };
    const found = await readIds(table, request, room + 1, index);
    events.push(...found.ids.slice(0, room));
    if (found.ids.length > room || found.bounded) more = true;
  }
  return { events, more };
}

/**
 * The condition that the event item has a cycle left: fewer than `MAX_CYCLES` counted, by `new_cycles`,
 * or for an item stored before cycles were counted, read from `cycle_base` (see `cyclesOfItem`).
 * `:added` is `MAX_CYCLES - 1`.
 */
const CYCLE_LEFT = '(new_cycles < :added OR (attribute_not_exists(new_cycles) AND cycle_base < :added))';
const SETTLED = 'webhook_status IN (:failed, :skipped, :success)';
const SETTLED_VALUES = { ':failed': 'failed', ':skipped': 'skipped', ':success': 'success' };
const INDEXES = `${STATUS_INDEXES.failed.attribute}, ${STATUS_INDEXES.skipped.attribute}`;
/**
 * What every new cycle writes; every operand is read before the update (`cycle_base` the old one). A
 * fanned-out event's aggregate starts again (`routes_*`), and its deliveries start the new route cycle
 * when their messages come.
 */
const NEW_CYCLE = 'SET webhook_status = :pending, cycle_base = webhook_retries';
const CLEARED = `ADD route_cycle :one REMOVE lease_until, next_attempt_at, ${INDEXES}, routes_settled, routes_failed, routes_skipped`;

/**
 * Starts a new cycle of a `failed`, `skipped` or `success` event of the organization, taking it out of the
 * status indexes; false when it is pending or has no cycle left (then it leaves the indexes too, or every
 * reset would read it again first). A cycle counts once it made an attempt: the new cycle after one that
 * did is counted (`new_cycles`); one after a cycle that sent nothing (a skipped event) takes its place
 * uncounted, so resetting events whose account has no URL yet never uses up their cycles. That costs a
 * second write, after the refused first, for such events only.
 */
export async function startCycle(table: EventTable, ref: EventRef, orgId: string): Promise<boolean> {
  const org = keys.eventIndexKey({ ...ref, orgId });
  const key = { TableName: table.tableName, Key: keys.eventAt(ref) };
  const { updated, item: old } = await updateOrRefused(table, 'StartCycle', {
    ...key,
    UpdateExpression: `${NEW_CYCLE}, new_cycles = if_not_exists(new_cycles, cycle_base) + :one ${CLEARED}`,
    ConditionExpression: `gsi1pk = :org AND ${SETTLED} AND webhook_retries > cycle_base AND ${CYCLE_LEFT}`,
    ExpressionAttributeValues: {
      ...SETTLED_VALUES,
      ':org': org,
      ':pending': 'pending',
      ':one': 1,
      ':added': MAX_CYCLES - 1,
    },
  });
  if (updated) return true;
  if (old?.gsi1pk !== org || !Object.values(SETTLED_VALUES).includes(String(old.webhook_status))) {
    return false;
  }
  if (Number(old.webhook_retries) === Number(old.cycle_base)) {
    return conditionalUpdate(table, 'RestartEmptyCycle', {
      ...key,
      UpdateExpression: `${NEW_CYCLE} ${CLEARED}`,
      ConditionExpression: `gsi1pk = :org AND ${SETTLED} AND webhook_retries = cycle_base`,
      ExpressionAttributeValues: { ...SETTLED_VALUES, ':org': org, ':pending': 'pending', ':one': 1 },
    });
  }
  const indexed =
    old[STATUS_INDEXES.failed.attribute] !== undefined || old[STATUS_INDEXES.skipped.attribute] !== undefined;
  if (indexed && cyclesOfItem(old) >= MAX_CYCLES) {
    // No cycle is left: the event leaves the status indexes, or every reset would read it again first.
    await conditionalUpdate(table, 'LeaveStatusIndexes', {
      ...key,
      UpdateExpression: `REMOVE ${INDEXES}`,
      ConditionExpression: `gsi1pk = :org AND NOT ${CYCLE_LEFT}`,
      ExpressionAttributeValues: { ':org': org, ':added': MAX_CYCLES - 1 },
    });
  }
  return false;
}

/**
 * Puts a `failed` or `skipped` event into its status index if it is not there (events recorded before
 * the indexes existed); false when the event is in neither state.
 */
export async function indexStatus(table: EventTable, ref: EventRef): Promise<boolean> {
  const set = async (status: 'failed' | 'skipped') =>
    conditionalUpdate(table, 'IndexStatus', {
      TableName: table.tableName,
      Key: keys.eventAt(ref),
      UpdateExpression: `SET ${STATUS_INDEXES[status].attribute} = gsi1pk`,
      ConditionExpression: `webhook_status = :s AND attribute_not_exists(${STATUS_INDEXES[status].attribute})`,
      ExpressionAttributeValues: { ':s': status },
    });
  return (await set('failed')) || (await set('skipped'));
}
