/**
 * `GET /events` on the table: one page of an organization's events in list order, from the `by-org`
 * index or a sparse status index, reading a bounded number of index entries and items whatever the
 * organization holds (`MAX_INDEX_ENTRIES_READ`, `MAX_ITEMS_CHECKED`); a listing that would need more
 * answers 400 asking for a narrower time window.
 */
import { BATCH_GET_LIMIT } from '#adapters/dynamodb/batch-get';
import { STATUS_INDEXES } from '#config/storage';
import { ValidationError } from '#domain/errors';
import type { EventRef, WebhookStatus } from '#domain/model';
import type { EventListPage, EventListRequest } from '#domain/ports';
import type { EventTable } from './event-table';
import { batchGetSummaries, listingWalk, pageSizeFor, readIds, type StatusIndex } from './index-reads';

/**
 * One page of the organization's events in list order, as summaries.
 *
 * @throws ValidationError when the filters match too sparsely to fill the page within the read bounds
 */
export async function listEvents(table: EventTable, request: EventListRequest): Promise<EventListPage> {
  const wanted = request.offset + request.limit + 1;
  const { status } = request;
  const ids =
    status === 'failed' || status === 'skipped'
      ? await collectIds(table, request, wanted, STATUS_INDEXES[status])
      : status !== undefined
        ? await collectIdsWithStatus(table, request, status, wanted)
        : await collectIds(table, request, wanted);
  const pageIds = ids.slice(request.offset, request.offset + request.limit);
  const events = await batchGetSummaries(table, pageIds);
  return { events, hasMore: ids.length > request.offset + request.limit };
}

/**
 * Ids from an index in list order, until `wanted` matched (filters on projected attributes only),
 * reading at most the bound of index entries.
 */
async function collectIds(
  table: EventTable,
  request: EventListRequest,
  wanted: number,
  index?: StatusIndex,
): Promise<EventRef[]> {
  const found = await readIds(table, request, wanted, index);
  if (found.bounded) throw tooSparse(request, table.bounds.indexEntries);
  return found.ids;
}

/**
 * Like {@link collectIds} but the status is in no index, so each chunk's items are read to check it:
 * at most the bound of items checked and, while `account`/`type` filters skip entries, at most the bound
 * of index entries.
 */
async function collectIdsWithStatus(
  table: EventTable,
  request: EventListRequest,
  status: WebhookStatus,
  wanted: number,
): Promise<EventRef[]> {
  const { indexEntries, itemsChecked } = table.bounds;
  const ids: EventRef[] = [];
  let checked = 0;
  const walk = listingWalk(table, request, pageSizeFor(BATCH_GET_LIMIT));
  for (;;) {
    if (checked >= itemsChecked) throw tooSparse(request, itemsChecked);
    // Entries the filters skipped cost reads too: without this bound a sparse account or type would
    // read the organization's whole index.
    const page = await walk.next(Math.min(BATCH_GET_LIMIT, itemsChecked - checked), indexEntries);
    if (page.bounded) throw tooSparse(request, indexEntries);
    checked += page.entries.length;
    const events = await batchGetSummaries(
      table,
      page.entries.map((entry) => entry.ref),
    );
    for (const event of events) if (event.webhookStatus === status) ids.push(event);
    if (page.done || ids.length >= wanted) return ids;
  }
}

/** The 400 of a listing whose filters match too few of the events one request may read. */
function tooSparse(request: EventListRequest, bound: number): ValidationError {
  const param =
    request.status !== undefined ? 'webhook_status' : request.account !== undefined ? 'account' : 'type';
  return new ValidationError(
    param,
    `one request checks at most ${bound} events against the filters, and this page needs more: ` +
      'narrow the time window with since and until',
  );
}
