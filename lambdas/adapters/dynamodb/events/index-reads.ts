/**
 * Bounded reads of an organization's events through the `by-org` index or a sparse status index: the
 * query of one page of index entries, collecting ids up to the read bound, and batch-reading the list
 * view of the events they name. The listing, the status indexes and the operator's chunks build on them.
 */
import { batchGetItems } from '#adapters/dynamodb/batch-get';
import { keys } from '#adapters/dynamodb/items';
import { EVENT_INDEX_SHARDS } from '#config/storage';
import type { EventRecord, EventRef } from '#domain/model';
import type { EventListRequest } from '#domain/ports';
import { toEventRecord } from './event-items';
import type { EventTable } from './event-table';
import { MergedIndex, type StatusIndex } from './merged-index';

export type { StatusIndex } from './merged-index';

/** Attributes of the list view: everything but the body and the attempts. */
const SUMMARY_PROJECTION =
  'pk, sk, gsi1pk, gsi1sk, account, #type, tv, sig, signature, webhook_status, webhook_retries';
/** What an index entry must carry to name its event: the table's keys, its order and its account. */
export const ENTRY_PROJECTION = 'pk, sk, gsi1sk, account';

/** The walk of a listing's filters and window through an index (newest first). */
export function listingWalk(
  table: EventTable,
  request: EventListRequest,
  pageSize: number,
  index?: StatusIndex,
  after?: string,
): MergedIndex {
  // `#` sorts before every id character and `~` after, so both bounds are inclusive.
  return new MergedIndex(table, {
    orgId: request.orgId,
    index,
    lo: request.since === undefined ? undefined : `${request.since}#`,
    hi: request.until === undefined ? undefined : `${request.until}#~`,
    account: request.account,
    type: request.type,
    after,
    pageSize,
  });
}

/** Entries each partition's Query reads for a walk that wants `wanted` in all: a share, and a few more. */
export function pageSizeFor(wanted: number): number {
  return Math.max(10, Math.ceil((2 * wanted) / EVENT_INDEX_SHARDS));
}

/**
 * Events from an index in list order, until `wanted` matched or the table's bound of index entries was
 * read; `bounded` when the read stopped at that bound with entries left.
 */
export async function readIds(
  table: EventTable,
  request: EventListRequest,
  wanted: number,
  index?: StatusIndex,
): Promise<{ ids: EventRef[]; bounded: boolean }> {
  const walk = listingWalk(table, request, pageSizeFor(wanted), index);
  const { entries, bounded } = await walk.next(wanted, table.bounds.indexEntries);
  return { ids: entries.map((entry) => entry.ref), bounded };
}

/** Reads the list view of up to 100 events, in the order of `refs`; vanished ones are skipped. */
export async function batchGetSummaries(
  table: EventTable,
  refs: readonly EventRef[],
): Promise<EventRecord[]> {
  if (refs.length === 0) return [];
  const { items, capacityUnits } = await batchGetItems(
    table.client,
    table.tableName,
    refs.map(keys.eventAt),
    {
      expression: SUMMARY_PROJECTION,
      names: { '#type': 'type' },
    },
  );
  table.count('BatchGetItem', capacityUnits);
  const found = new Map(items.map((item) => [toEventRecord(item).id, toEventRecord(item)]));
  return refs.flatMap((ref) => found.get(ref.id) ?? []);
}
