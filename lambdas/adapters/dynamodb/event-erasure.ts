/**
 * Erasing an account's events (`DELETE /admin/accounts/{iban}?erase=true`, `herald account delete --erase`), one bounded chunk per call: the
 * organization's `by-org` index entries are read at most {@link ERASE_CHUNK} at a time, those of the
 * account deleted in batches of 25, and the position handed back as an opaque cursor.
 */
import { BatchWriteCommand, type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EraseChunk } from '#domain/ports';
import { decodeCursor, encodeCursor } from './cursor';
import { keys } from './items';

/** Index entries one erase call examines. */
export const ERASE_CHUNK = 1_000;
const BATCH_WRITE_LIMIT = 25;
const MAX_UNPROCESSED_ROUNDS = 8;

/** Deletes the next chunk of `account`'s events of the organization; see {@link EraseChunk}. */
export async function eraseAccountEvents(
  client: DynamoDBDocumentClient,
  tableName: string,
  orgId: string,
  account: string,
  cursor?: string,
): Promise<EraseChunk> {
  const out = await client.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'by-org',
      KeyConditionExpression: 'gsi1pk = :pk',
      FilterExpression: 'account = :account',
      ExpressionAttributeValues: { ':pk': keys.orgEvents(orgId), ':account': account },
      ProjectionExpression: 'pk, sk',
      Limit: ERASE_CHUNK,
      ExclusiveStartKey: decodeCursor(cursor),
    }),
  );
  const doomed = (out.Items ?? []).map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
  for (let start = 0; start < doomed.length; start += BATCH_WRITE_LIMIT) {
    let requests = doomed.slice(start, start + BATCH_WRITE_LIMIT).map((Key) => ({ DeleteRequest: { Key } }));
    for (let round = 0; requests.length > 0; round++) {
      if (round === MAX_UNPROCESSED_ROUNDS)
        throw new Error('DynamoDB kept events unprocessed; run the erase again');
      const written = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      requests = (written.UnprocessedItems?.[tableName] ?? []) as typeof requests;
      if (requests.length > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** round));
    }
  }
  return {
    erased: doomed.length,
    cursor: encodeCursor(out.LastEvaluatedKey),
  };
}
