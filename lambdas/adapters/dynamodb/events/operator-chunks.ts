/**
 * The operator's chunked reads and writes of an organization's events, each bounded per call and handed
 * on with an opaque cursor: a page of events in some states (requeue, the status-index upgrade), and
 * erasing an account's events (`DELETE /admin/accounts/{iban}?erase=true`, `herald account delete
 * --erase`).
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { BATCH_GET_LIMIT } from '#adapters/dynamodb/batch-get';
import { deleteKeys } from '#adapters/dynamodb/batch-write';
import { keys } from '#adapters/dynamodb/items';
import { ERASE_CHUNK } from '#config/limits';
import type { WebhookStatus } from '#domain/model';
import type { EraseChunk, StatusPage } from '#domain/ports';
import { decodeCursor, encodeCursor } from './cursor';
import { refOfItem } from './event-items';
import type { EventTable } from './event-table';
import { batchGetSummaries, ENTRY_PROJECTION, listingWalk, pageSizeFor } from './index-reads';

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
  // The cursor is the place of the last entry examined: the merged shards go on after it.
  const after = decodeCursor(cursor)?.after;
  const request = { orgId, offset: 0, limit: 0, until };
  const position = typeof after === 'string' ? after : undefined;
  const walk = listingWalk(table, request, pageSizeFor(BATCH_GET_LIMIT), undefined, position);
  const page = await walk.next(BATCH_GET_LIMIT, table.bounds.indexEntries);
  const events = await batchGetSummaries(
    table,
    page.entries.map((entry) => entry.ref),
  );
  const found = events.filter((event) => statuses.includes(event.webhookStatus));
  const last = page.entries.at(-1)?.order;
  return {
    events: found,
    cursor: page.done || last === undefined ? undefined : encodeCursor({ after: last }),
  };
}

/**
 * Deletes the next chunk of `account`'s events of the organization with their id claims: first its log
 * (one Query of its partition, at most {@link ERASE_CHUNK} items, its head and voids included; what is
 * deleted is gone, so each call
 * starts again at its front), then, once the log is empty, its events stored before account logs (the
 * unsharded `by-org` partition, at most {@link ERASE_CHUNK} entries examined from `cursor`); at most two
 * bounded reads per call, deleted in batches of 25.
 */
export async function eraseAccountEvents(
  table: EventTable,
  orgId: string,
  account: string,
  cursor?: string,
): Promise<EraseChunk> {
  const start = decodeCursor(cursor);
  let erased = 0;
  if (start === undefined || start.phase === 'log') {
    const log = await eraseFound(table, orgId, account, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.log(orgId, account) },
    });
    // A full chunk: more of the log may remain; the next call starts at its front again.
    if (log.found === ERASE_CHUNK) return { erased: log.found, cursor: encodeCursor({ phase: 'log' }) };
    erased = log.found;
  }
  const legacy = await eraseFound(table, orgId, account, {
    IndexName: 'by-org',
    KeyConditionExpression: 'gsi1pk = :pk',
    FilterExpression: 'account = :account',
    ExpressionAttributeValues: { ':pk': keys.orgEvents(orgId), ':account': account },
    ExclusiveStartKey: start?.phase === undefined ? start : undefined,
  });
  return { erased: erased + legacy.found, cursor: encodeCursor(legacy.next) };
}

/** Deletes what one bounded Query finds (each log item with its id's claim); how many, and where it stopped. */
async function eraseFound(
  table: EventTable,
  orgId: string,
  account: string,
  query: Omit<QueryCommandInput, 'TableName' | 'ProjectionExpression' | 'Limit'>,
): Promise<{ found: number; next: Record<string, unknown> | undefined }> {
  const { client, tableName } = table;
  const out = await client.send(
    new QueryCommand({
      ...query,
      TableName: tableName,
      // Only the log's items can have been routed (the index does not project `routes`).
      ProjectionExpression: query.IndexName === undefined ? `${ENTRY_PROJECTION}, routes` : ENTRY_PROJECTION,
      Limit: ERASE_CHUNK,
    }),
  );
  // A log item goes with its id's claim (which names the account) and its deliveries at the endpoints
  // it was routed to (a fanned-out event's attempts live there); an old-layout item is its own claim;
  // the log's head and its voids have no id (no index key) and go alone. The deliveries go first: an
  // erasure stopped midway leaves none whose event is gone, and the next call finds the event again.
  const items = out.Items ?? [];
  const deliveries = items.flatMap((item) => {
    const { sequence, ...ref } = refOfItem({ ...item, account }, orgId);
    const routes = Array.isArray(item.routes) ? item.routes.map(String) : [];
    if (item.gsi1sk === undefined || sequence === undefined) return [];
    return routes.map((endpointId) => keys.delivery({ ...ref, sequence, endpointId }));
  });
  const events = items.flatMap((item) => {
    if (item.gsi1sk === undefined) return [{ pk: String(item.pk), sk: String(item.sk) }];
    const ref = refOfItem({ ...item, account }, orgId);
    const at = keys.eventAt(ref);
    return ref.sequence === undefined ? [at] : [at, keys.event(ref.id)];
  });
  await deleteKeys(client, tableName, deliveries);
  await deleteKeys(client, tableName, events);
  return { found: items.length, next: out.LastEvaluatedKey };
}
