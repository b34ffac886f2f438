/**
 * The operator's chunked reads and writes of an organization's events, each bounded per call and handed
 * on with an opaque cursor: a page of events in some states (requeue, the status-index upgrade), and
 * erasing an account's events (`DELETE /admin/accounts/{iban}?erase=true`, `herald account delete
 * --erase`).
 */
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { BATCH_GET_LIMIT } from '#adapters/dynamodb/batch-get';
import { keys } from '#adapters/dynamodb/items';
import type { WebhookStatus } from '#domain/model';
import type { EraseChunk, StatusPage } from '#domain/ports';
import { decodeCursor, encodeCursor } from './cursor';
import { refOfItem } from './event-items';
import type { EventTable } from './event-table';
import { batchGetSummaries, ENTRY_PROJECTION, indexQuery, queryIds } from './index-reads';

/** Index entries one erase call examines. */
export const ERASE_CHUNK = 1_000;
const BATCH_WRITE_LIMIT = 25;
const MAX_UNPROCESSED_ROUNDS = 8;

/**
 * One page of the organization's events (up to 100 examined, newest first) that are in one of
 * `statuses`, triggered at or before `until` when given: one Query and one BatchGet.
 */
export async function pageEventIdsByStatus(
  table: EventTable,
  orgId: string,
  statuses: readonly WebhookStatus[],
  cursor?: string,
  until?: string,
): Promise<StatusPage> {
  const input = indexQuery(table, { orgId, offset: 0, limit: 0, until }, decodeCursor(cursor));
  input.Limit = BATCH_GET_LIMIT;
  const page = await queryIds(table, input, orgId);
  const events = await batchGetSummaries(table, page.ids);
  const found = events.filter((event) => statuses.includes(event.webhookStatus));
  return { events: found, cursor: encodeCursor(page.next) };
}

/**
 * Deletes the next chunk of `account`'s events of the organization: its `by-org` index entries are read
 * at most {@link ERASE_CHUNK} at a time, those of the account deleted in batches of 25.
 */
export async function eraseAccountEvents(
  table: EventTable,
  orgId: string,
  account: string,
  cursor?: string,
): Promise<EraseChunk> {
  const { client, tableName } = table;
  const out = await client.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'by-org',
      KeyConditionExpression: 'gsi1pk = :pk',
      FilterExpression: 'account = :account',
      ExpressionAttributeValues: { ':pk': keys.orgEvents(orgId), ':account': account },
      ProjectionExpression: ENTRY_PROJECTION,
      Limit: ERASE_CHUNK,
      ExclusiveStartKey: decodeCursor(cursor),
    }),
  );
  // A log item goes with its id's claim (which names the account); an old-layout item is its own claim.
  const doomed = (out.Items ?? []).flatMap((item) => {
    const ref = refOfItem(item, orgId);
    const at = keys.eventAt(ref);
    return ref.sequence === undefined ? [at] : [at, keys.event(ref.id)];
  });
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
  return { erased: out.Items?.length ?? 0, cursor: encodeCursor(out.LastEvaluatedKey) };
}
