/**
 * What the account logs keep on the endpoints' items: an ordered endpoint's watermark `settled_through`
 * (moved on by the order gate, put back by a replay; on the account item for its default endpoint, on an
 * extra endpoint's own item) and, on the account item, the `seq_floor` a log continues above once
 * retention emptied it. Bound into `DynamoDirectoryStore`; each a conditional UpdateItem of the
 * organization's account or endpoint, never of a tombstone, except the floor: it stays with the IBAN's
 * tombstone, so that an account created again continues above it.
 */
import { conditionalUpdate, type TableAccess } from '#adapters/dynamodb/conditional-write';
import type { EndpointAddress } from '#domain/endpoints/address';
import type { WatermarkMove } from '#domain/ports';
import { DELETED_AT, keys } from './items';

/** The organization's live account; with `orTombstone`, its tombstone too. */
function owned(orTombstone: boolean): string {
  return orTombstone ? 'org_id = :org' : `org_id = :org AND attribute_not_exists(${DELETED_AT})`;
}

/**
 * One conditional update of the endpoint's item (the account item for the default endpoint): true when
 * written, false when the condition refused it.
 */
async function mark(
  table: TableAccess,
  operation: string,
  endpoint: EndpointAddress,
  update: string,
  condition: string,
  values: Record<string, unknown>,
  orTombstone = false,
): Promise<boolean> {
  return conditionalUpdate(table, operation, {
    TableName: table.tableName,
    Key: keys.endpointAt(endpoint),
    UpdateExpression: update,
    ConditionExpression: `${owned(orTombstone)} AND (${condition})`,
    ExpressionAttributeValues: values,
  });
}

/** See `DirectoryStore.advanceSettledThrough`; an absent watermark is 0. */
export function advanceSettledThrough(
  table: TableAccess,
  endpoint: EndpointAddress,
  { from, to, epoch }: WatermarkMove,
): Promise<boolean> {
  const current = `(${orAbsent('settled_through', ':from', from)}) AND (${orAbsent('order_epoch', ':epoch', epoch)})`;
  return mark(table, 'AdvanceSettledThrough', endpoint, 'SET settled_through = :to', current, {
    ':org': endpoint.orgId,
    ':from': from,
    ':to': to,
    ':epoch': epoch,
  });
}

/** The condition that a number attribute is `value` (named `name`), where absent means 0. */
function orAbsent(attribute: string, name: string, value: number): string {
  return value === 0
    ? `attribute_not_exists(${attribute}) OR ${attribute} = ${name}`
    : `${attribute} = ${name}`;
}

/** See `DirectoryStore.restartOrder`: one write, a second only when the watermark was not above `to`. */
export async function restartOrder(table: TableAccess, endpoint: EndpointAddress, to: number): Promise<void> {
  const restart = 'SET settled_through = :to ADD order_epoch :one';
  const values = { ':org': endpoint.orgId, ':to': to, ':one': 1 };
  if (await mark(table, 'RestartOrder', endpoint, restart, 'settled_through > :to', values)) return;
  await mark(table, 'RestartOrder', endpoint, 'ADD order_epoch :one', 'attribute_exists(pk)', {
    ':org': endpoint.orgId,
    ':one': 1,
  });
}

/** See `DirectoryStore.startOrder`. */
export async function startOrder(
  table: TableAccess,
  endpoint: EndpointAddress,
  through: number,
): Promise<void> {
  const lower =
    'delivery_order = :ordered AND (attribute_not_exists(settled_through) OR settled_through < :through)';
  await mark(table, 'StartOrder', endpoint, 'SET settled_through = :through', lower, {
    ':org': endpoint.orgId,
    ':ordered': 'ordered',
    ':through': through,
  });
}

/**
 * See `DirectoryStore.raiseSequenceFloor`: on the organization's account or its tombstone, whose floor the
 * account takes again when re-created (retention keeps deleting a deleted account's events).
 */
export async function raiseSequenceFloor(
  table: TableAccess,
  iban: string,
  orgId: string,
  floor: number,
): Promise<void> {
  const lower = 'attribute_not_exists(seq_floor) OR seq_floor < :floor';
  const values = { ':org': orgId, ':floor': floor };
  await mark(table, 'RaiseSequenceFloor', { iban, orgId }, 'SET seq_floor = :floor', lower, values, true);
}
