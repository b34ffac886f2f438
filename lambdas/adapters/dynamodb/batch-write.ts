import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from './items';

/** BatchWriteItem takes at most 25 requests per call. */
const BATCH_WRITE_LIMIT = 25;
const MAX_UNPROCESSED_ROUNDS = 8;

/**
 * Deletes items by key, 25 per batch, retrying what DynamoDB leaves unprocessed a bounded number of times
 * with exponential backoff (an erasure's deletions; each is idempotent, so a failed call is repeated whole).
 */
export async function deleteKeys(
  client: DynamoDBDocumentClient,
  tableName: string,
  doomed: readonly ItemKey[],
): Promise<void> {
  for (let start = 0; start < doomed.length; start += BATCH_WRITE_LIMIT) {
    let requests = doomed.slice(start, start + BATCH_WRITE_LIMIT).map((Key) => ({ DeleteRequest: { Key } }));
    for (let round = 0; requests.length > 0; round++) {
      if (round === MAX_UNPROCESSED_ROUNDS)
        throw new Error('DynamoDB kept items unprocessed; run the erase again');
      const written = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      requests = (written.UnprocessedItems?.[tableName] ?? []) as typeof requests;
      if (requests.length > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** round));
    }
  }
}
