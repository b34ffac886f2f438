import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from './items';

/** BatchGetItem takes at most 100 keys per call. */
export const BATCH_GET_LIMIT = 100;
const MAX_ROUNDS = 8;

/** What a batch read returns: the items found (any order) and the read units consumed. */
export interface BatchGetResult {
  readonly items: Record<string, unknown>[];
  readonly capacityUnits: number;
}

/**
 * Reads up to {@link BATCH_GET_LIMIT} items of one table, re-requesting unprocessed keys with
 * exponential backoff as DynamoDB asks. Missing items are simply absent from the result.
 *
 * @param consistent - strongly consistent reads (twice the read units), for a count that must be exact
 */
export async function batchGetItems(
  client: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly ItemKey[],
  projection?: { readonly expression: string; readonly names?: Record<string, string> },
  consistent = false,
): Promise<BatchGetResult> {
  const items: Record<string, unknown>[] = [];
  let capacityUnits = 0;
  let pending: Record<string, unknown>[] = keys.map((key) => ({ ...key }));
  for (let round = 0; pending.length > 0; round++) {
    if (round >= MAX_ROUNDS) throw new Error('BatchGetItem kept returning unprocessed keys');
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** round));
    const out = await client.send(
      new BatchGetCommand({
        RequestItems: {
          [tableName]: {
            Keys: pending,
            ...(consistent ? { ConsistentRead: true } : {}),
            ...(projection
              ? { ProjectionExpression: projection.expression, ExpressionAttributeNames: projection.names }
              : {}),
          },
        },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    for (const consumed of out.ConsumedCapacity ?? []) capacityUnits += consumed.CapacityUnits ?? 0;
    items.push(...(out.Responses?.[tableName] ?? []));
    pending = out.UnprocessedKeys?.[tableName]?.Keys ?? [];
  }
  return { items, capacityUnits };
}
