/**
 * What every part of the event store works on: the table, its client, where consumed capacity is counted,
 * and how much one listing may read; and the conditional update and the last-item read its parts share.
 */
import {
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { CapacityCounter } from '#adapters/dynamodb/capacity';
import { conditionally } from '#adapters/dynamodb/conditional-write';
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
export interface EventTable {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly count: CapacityCounter;
  readonly bounds: ReadBounds;
}

/** An update whose condition may fail: true when it was written, false when the condition refused it. */
export async function conditionalUpdate(
  table: EventTable,
  operation: string,
  input: ConstructorParameters<typeof UpdateCommand>[0],
): Promise<boolean> {
  return conditionally(async () => {
    const out = await table.client.send(new UpdateCommand({ ...input, ReturnConsumedCapacity: 'TOTAL' }));
    table.count(operation, out.ConsumedCapacity?.CapacityUnits);
  });
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
