/**
 * What an endpoint's delivery summary is drawn from: the attempts of an account's latest events in a
 * window, at a bounded cost whatever the organization holds: one Query of the `by-org` index (the window
 * in the key condition, the account a filter, at most the read bound of entries) and one batch read of at
 * most 100 events projecting their attempts only.
 */
import { batchGetItems } from '#adapters/dynamodb/batch-get';
import { keys } from '#adapters/dynamodb/items';
import type { RecentAttempts } from '#domain/ports';
import { toAttempts } from './event-items';
import type { EventTable } from './event-table';
import { listingWalk, pageSizeFor } from './index-reads';

/** The attempts of the account's latest `limit` events since `since`; see `EventQueries.recentAttempts`. */
export async function recentAttempts(
  table: EventTable,
  orgId: string,
  account: string,
  since: string,
  limit: number,
): Promise<RecentAttempts> {
  // Newest first, the account a filter: at most the bound of entries evaluated.
  const walk = listingWalk(table, { orgId, account, since, offset: 0, limit }, pageSizeFor(limit + 1));
  const found = await walk.next(limit + 1, table.bounds.indexEntries);
  const ids = found.entries.slice(0, limit).map((entry) => entry.ref);
  const complete = found.entries.length <= limit && found.done;
  if (ids.length === 0) return { attempts: [], events: 0, complete };
  const { items, capacityUnits } = await batchGetItems(table.client, table.tableName, ids.map(keys.eventAt), {
    expression: 'pk, deliveries',
  });
  table.count('BatchGetItem', capacityUnits);
  const attempts = items.flatMap((item) => toAttempts(item.deliveries));
  return { attempts, events: items.length, complete };
}
