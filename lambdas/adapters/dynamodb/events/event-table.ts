/**
 * What every part of the event store works on: the table, its client, where consumed capacity is counted,
 * and how much one listing may read; and the conditional update they all make.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CapacityCounter } from '#adapters/dynamodb/capacity';
import { MAX_INDEX_ENTRIES_READ, MAX_ITEMS_CHECKED } from '#config/limits';

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
  try {
    const out = await table.client.send(new UpdateCommand({ ...input, ReturnConsumedCapacity: 'TOTAL' }));
    table.count(operation, out.ConsumedCapacity?.CapacityUnits);
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
