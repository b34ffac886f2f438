/**
 * The read-many side of `DynamoEventStore`: listing an organization's events from the `by-org` index or
 * a sparse status index, and batch-reading their list view. Every method reads a bounded number of index
 * entries and items, whatever the organization holds: see {@link MAX_INDEX_ENTRIES_READ} and
 * {@link MAX_ITEMS_CHECKED}.
 */
import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { MAX_INDEX_ENTRIES_READ, MAX_ITEMS_CHECKED } from '#config/limits';
import { STATUS_INDEXES } from '#config/storage';
import { ValidationError } from '#domain/errors';
import type { EventRecord, WebhookStatus } from '#domain/model';
import type { EventIdFilter, EventListPage, EventListRequest, StatusChunk, StatusPage } from '#domain/ports';
import { BATCH_GET_LIMIT, batchGetItems } from './batch-get';
import { decodeCursor, encodeCursor } from './cursor';
import { eventIdOfKey, keys, toEventRecord } from './items';

/** Receives the capacity units one request consumed, if DynamoDB reported them. */
export type CapacityCounter = (operation: string, units: number | undefined) => void;

const BY_ORG = 'by-org';
/** Attributes of the list view: everything but the body and the attempts. */
const SUMMARY_PROJECTION = 'pk, gsi1pk, gsi1sk, account, #type, signature, webhook_status, webhook_retries';

/** How much one listing may read; the defaults come from `#config/limits`, tests lower them. */
export interface ReadBounds {
  /** Most index entries one listing reads: {@link MAX_INDEX_ENTRIES_READ}. */
  readonly indexEntries: number;
  /** Most event items one `pending`/`success` listing reads: {@link MAX_ITEMS_CHECKED}. */
  readonly itemsChecked: number;
}

const DEFAULT_BOUNDS: ReadBounds = { indexEntries: MAX_INDEX_ENTRIES_READ, itemsChecked: MAX_ITEMS_CHECKED };

/** The list and paging queries on the events table, which `DynamoEventStore` delegates to. */
export class EventQueries {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly count: CapacityCounter,
    private readonly bounds: ReadBounds = DEFAULT_BOUNDS,
  ) {}

  /**
   * One page of the organization's events in list order, as summaries.
   *
   * @throws ValidationError when the filters match too sparsely to fill the page within the read bounds
   */
  async listEvents(request: EventListRequest): Promise<EventListPage> {
    const wanted = request.offset + request.limit + 1;
    const { status } = request;
    const ids =
      status === 'failed' || status === 'skipped'
        ? await this.collectIds(request, wanted, STATUS_INDEXES[status])
        : status !== undefined
          ? await this.collectIdsWithStatus(request, status, wanted)
          : await this.collectIds(request, wanted);
    const pageIds = ids.slice(request.offset, request.offset + request.limit);
    const events = await this.batchGetSummaries(pageIds);
    return { events, hasMore: ids.length > request.offset + request.limit };
  }

  /**
   * Up to `limit` ids of the organization's failed and skipped events, from the sparse indexes (their
   * newest first per state), and whether more remain. A reset takes them out of the indexes, so the next
   * chunk starts from the top again. With `filter` (one account, since a time) the `since` bound is part
   * of the key condition and the account a filter, and each index read stops at
   * {@link MAX_INDEX_ENTRIES_READ} entries (then `more` is true).
   */
  async nextFailedOrSkipped(orgId: string, limit: number, filter: EventIdFilter = {}): Promise<StatusChunk> {
    const ids: string[] = [];
    let more = false;
    for (const index of [STATUS_INDEXES.failed, STATUS_INDEXES.skipped]) {
      const room = limit - ids.length;
      if (room <= 0) {
        more = true;
        break;
      }
      // One more than there is room for tells whether more remain, at the price of one small entry.
      const request = { orgId, offset: 0, limit: room, account: filter.account, since: filter.since };
      const found = await this.readIds(request, room + 1, index);
      ids.push(...found.ids.slice(0, room));
      if (found.ids.length > room || found.bounded) more = true;
    }
    return { ids, more };
  }

  /** One page of the organization's events in `statuses`: one Query and one BatchGet of at most 100. */
  async pageEventIdsByStatus(
    orgId: string,
    statuses: readonly WebhookStatus[],
    cursor?: string,
    until?: string,
  ): Promise<StatusPage> {
    const page = await this.statusPage(orgId, statuses, decodeCursor(cursor), until);
    return { ids: page.ids, cursor: encodeCursor(page.next) };
  }

  private async statusPage(
    orgId: string,
    statuses: readonly WebhookStatus[],
    startKey: Record<string, unknown> | undefined,
    until?: string,
  ): Promise<{ ids: string[]; next: Record<string, unknown> | undefined }> {
    const input = this.indexQuery({ orgId, offset: 0, limit: 0, until }, startKey);
    input.Limit = BATCH_GET_LIMIT;
    const out = await this.client.send(new QueryCommand(input));
    this.count('Query', out.ConsumedCapacity?.CapacityUnits);
    const events = await this.batchGetSummaries(
      (out.Items ?? []).map((item) => eventIdOfKey(String(item.pk))),
    );
    const ids = events.filter((event) => statuses.includes(event.webhookStatus)).map((event) => event.id);
    return { ids, next: out.LastEvaluatedKey };
  }

  /**
   * Ids from an index in list order, until `wanted` matched (filters on projected attributes only),
   * reading at most {@link MAX_INDEX_ENTRIES_READ} entries.
   */
  private async collectIds(
    request: EventListRequest,
    wanted: number,
    index?: { readonly name: string; readonly attribute: string },
  ): Promise<string[]> {
    const found = await this.readIds(request, wanted, index);
    if (found.bounded) throw tooSparse(request, this.bounds.indexEntries);
    return found.ids;
  }

  /**
   * Ids from an index in list order, until `wanted` matched or {@link MAX_INDEX_ENTRIES_READ} entries
   * were read; `bounded` when the read stopped at that bound with entries left.
   */
  private async readIds(
    request: EventListRequest,
    wanted: number,
    index?: { readonly name: string; readonly attribute: string },
  ): Promise<{ ids: string[]; bounded: boolean }> {
    const ids: string[] = [];
    let read = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      if (read >= this.bounds.indexEntries) return { ids, bounded: true };
      const input = this.indexQuery(request, startKey, index);
      // Without a filter every evaluated item matches, so Limit stops the read exactly where the page ends;
      // with one, Limit caps what a call evaluates.
      input.Limit = Math.min(wanted - ids.length, this.bounds.indexEntries - read);
      if (input.FilterExpression) input.Limit = this.bounds.indexEntries - read;
      const out = await this.client.send(new QueryCommand(input));
      this.count('Query', out.ConsumedCapacity?.CapacityUnits);
      read += out.ScannedCount ?? 0;
      for (const item of out.Items ?? []) ids.push(eventIdOfKey(String(item.pk)));
      startKey = out.LastEvaluatedKey;
    } while (startKey && ids.length < wanted);
    return { ids, bounded: false };
  }

  /**
   * Like {@link collectIds} but the status is in no index, so each chunk's items are read to check it:
   * at most {@link MAX_ITEMS_CHECKED} items and, while `account`/`type` filters skip entries, at most
   * {@link MAX_INDEX_ENTRIES_READ} index entries.
   */
  private async collectIdsWithStatus(
    request: EventListRequest,
    status: WebhookStatus,
    wanted: number,
  ): Promise<string[]> {
    const { indexEntries, itemsChecked } = this.bounds;
    const ids: string[] = [];
    let checked = 0;
    let read = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      if (checked >= itemsChecked) throw tooSparse(request, itemsChecked);
      // Entries the filters skipped cost reads too: without this bound a sparse account or type would
      // read the organization's whole index.
      if (read >= indexEntries) throw tooSparse(request, indexEntries);
      const input = this.indexQuery(request, startKey);
      input.Limit = Math.min(BATCH_GET_LIMIT, itemsChecked - checked, indexEntries - read);
      const out = await this.client.send(new QueryCommand(input));
      this.count('Query', out.ConsumedCapacity?.CapacityUnits);
      read += out.ScannedCount ?? 0;
      const chunk = (out.Items ?? []).map((item) => eventIdOfKey(String(item.pk)));
      checked += chunk.length;
      const events = await this.batchGetSummaries(chunk);
      for (const event of events) if (event.webhookStatus === status) ids.push(event.id);
      startKey = out.LastEvaluatedKey;
    } while (startKey && ids.length < wanted);
    return ids;
  }

  private indexQuery(
    request: EventListRequest,
    startKey: Record<string, unknown> | undefined,
    index?: { readonly name: string; readonly attribute: string },
  ): QueryCommandInput {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':pk': keys.orgEvents(request.orgId) };
    let condition = `${index?.attribute ?? 'gsi1pk'} = :pk`;
    // `#` sorts before every id character and `~` after, so both bounds are inclusive.
    if (request.since !== undefined) values[':lo'] = `${request.since}#`;
    if (request.until !== undefined) values[':hi'] = `${request.until}#~`;
    if (request.since !== undefined && request.until !== undefined)
      condition += ' AND gsi1sk BETWEEN :lo AND :hi';
    else if (request.since !== undefined) condition += ' AND gsi1sk >= :lo';
    else if (request.until !== undefined) condition += ' AND gsi1sk <= :hi';
    const filters: string[] = [];
    if (request.account !== undefined) {
      filters.push('account = :account');
      values[':account'] = request.account;
    }
    if (request.type !== undefined) {
      filters.push('#type = :type');
      names['#type'] = 'type';
      values[':type'] = request.type;
    }
    return {
      TableName: this.tableName,
      IndexName: index?.name ?? BY_ORG,
      KeyConditionExpression: condition,
      ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
      // DynamoDB rejects an empty ExpressionAttributeNames map.
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
      ProjectionExpression: 'pk',
      ScanIndexForward: false,
      ExclusiveStartKey: startKey,
      ReturnConsumedCapacity: 'TOTAL',
    };
  }

  /** Reads the list view of up to 100 events, in the order of `ids`; vanished ids are skipped. */
  private async batchGetSummaries(ids: readonly string[]): Promise<EventRecord[]> {
    if (ids.length === 0) return [];
    const { items, capacityUnits } = await batchGetItems(this.client, this.tableName, ids.map(keys.event), {
      expression: SUMMARY_PROJECTION,
      names: { '#type': 'type' },
    });
    this.count('BatchGetItem', capacityUnits);
    const found = new Map(items.map((item) => [eventIdOfKey(String(item.pk)), toEventRecord(item)]));
    return ids.flatMap((id) => found.get(id) ?? []);
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
