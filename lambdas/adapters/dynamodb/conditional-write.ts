/**
 * Writes whose condition may refuse them, where a refusal is an answer (someone else got there first, or
 * the item is not in the state the write expects) rather than an error.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { CapacityCounter } from './capacity';

/** A store's table, its client, and where its requests' capacity units are counted. */
export interface TableAccess {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly count: CapacityCounter;
}

/**
 * Makes a write whose condition may refuse it: true when it was written, false when its condition refused it.
 * A refusal is an answer (someone else got there first, or the item is not in the state the write expects),
 * so it is not thrown; every other failure is.
 */
export function conditionally(write: () => Promise<unknown>): Promise<boolean> {
  return ifRefused(async () => {
    await write();
    return true;
  }, false);
}

/** A write's answer, or `refused` when its condition refused it; every other failure is thrown. */
export async function ifRefused<T, R>(write: () => Promise<T>, refused: R): Promise<T | R> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return refused;
    throw error;
  }
}

/** An update whose condition may fail: true when it was written, false when the condition refused it. */
export async function conditionalUpdate(
  table: TableAccess,
  operation: string,
  input: ConstructorParameters<typeof UpdateCommand>[0],
): Promise<boolean> {
  return conditionally(async () => {
    const out = await table.client.send(new UpdateCommand({ ...input, ReturnConsumedCapacity: 'TOTAL' }));
    table.count(operation, out.ConsumedCapacity?.CapacityUnits);
  });
}

/**
 * What a conditional update answered: the item it wrote (with the attributes its `ReturnValues` asks for),
 * or the item its condition refused (undefined when there is none).
 */
export type UpdateOutcome =
  | { readonly updated: true; readonly item: Record<string, unknown> }
  | { readonly updated: false; readonly item: Record<string, unknown> | undefined };

/**
 * A conditional update that answers the item it found when its condition refused it: that item comes
 * back with the failure, so deciding what to do next costs no read.
 */
export async function updateOrRefused(
  table: TableAccess,
  operation: string,
  input: ConstructorParameters<typeof UpdateCommand>[0],
): Promise<UpdateOutcome> {
  try {
    const out = await table.client.send(
      new UpdateCommand({
        ...input,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    table.count(operation, out.ConsumedCapacity?.CapacityUnits);
    return { updated: true, item: out.Attributes ?? {} };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return { updated: false, item: error.Item ? unmarshall(error.Item) : undefined };
  }
}
