/**
 * The first items of a Query, in its order: as many as a listing's page needs with those it skips, and
 * one more that tells whether more follow. DynamoDB cuts an answer at 1 MB, so the Query goes on from
 * where each cut left off until it has them or the range ends.
 */
import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/**
 * Up to `wanted` items of the Query `input`, each of its requests' capacity units handed to `count`.
 * Callers bound `wanted` (a listing's depth), since every item up to it is read.
 */
export async function queryFirst(
  client: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey' | 'ReturnConsumedCapacity'>,
  wanted: number,
  count: (units: number | undefined) => void,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await client.send(
      new QueryCommand({
        ...input,
        Limit: wanted - items.length,
        ExclusiveStartKey: start,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    count(out.ConsumedCapacity?.CapacityUnits);
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start !== undefined && items.length < wanted);
  return items;
}
