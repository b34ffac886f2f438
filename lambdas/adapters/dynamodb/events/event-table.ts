/**
 * What every part of the event store works on: the table, its client, where consumed capacity is counted,
 * and how much one listing may read; and the last-item read its parts share (their conditional writes are
 * `../conditional-write.ts`).
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { TableAccess } from '#adapters/dynamodb/conditional-write';
import { MAX_INDEX_ENTRIES_READ, MAX_ITEMS_CHECKED } from '#config/limits';
import type { EventReadOptions } from '#domain/ports';

/** How much one listing may read; the defaults come from `#config/limits`, tests lower them. */
export interface ReadBounds {
  /** Most index entries one listing reads: {@link MAX_INDEX_ENTRIES_READ}. */
  readonly indexEntries: number;
  /** Most event items one `pending`/`success` listing reads: {@link MAX_ITEMS_CHECKED}. */
  readonly itemsChecked: number;
}

/** The bounds of `#config/limits`. */
export const DEFAULT_BOUNDS: ReadBounds = {
  indexEntries: MAX_INDEX_ENTRIES_READ,
  itemsChecked: MAX_ITEMS_CHECKED,
};

/** The events table as the event store's parts see it. */
export interface EventTable extends TableAccess {
  readonly bounds: ReadBounds;
}

/**
 * The last item of a key range in sort order (a Query descending, `Limit 1`: one read unit at most, 0.5
 * when eventually consistent), with the attributes `range` projects; undefined when the range is empty.
 */
export async function lastItem(
  table: EventTable,
  range: Pick<
    QueryCommandInput,
    | 'KeyConditionExpression'
    | 'ExpressionAttributeValues'
    | 'ExpressionAttributeNames'
    | 'ProjectionExpression'
  >,
  options: EventReadOptions,
): Promise<Record<string, unknown> | undefined> {
  const out = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      ...range,
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: options.consistent ?? false,
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  table.count('Query', out.ConsumedCapacity?.CapacityUnits);
  return out.Items?.[0];
}
