import { type DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_LIST_DEPTH, NOTICE_ERASE_CHUNK, NOTICE_RETENTION_DAYS } from '#config/limits';
import { EVENTS_TABLE, ITEM_PREFIXES } from '#config/storage';
import { ValidationError } from '#domain/errors';
import { type Notice, type NoticeRef, noticeSortKey } from '#domain/notices/notice';
import { noticeMinute } from '#domain/notices/notice-minute';
import type { NoticeDeliveries, NoticeDelivery, NoticePage, OperationalLog } from '#domain/notices/ports';
import type { EraseChunk } from '#domain/queries';
import { deleteKeys } from './batch-write';
import type { CapacityListener } from './capacity';
import { conditionally } from './conditional-write';
import { decodeCursor, encodeCursor } from './events/cursor';
import { DeliveryItems, toDelivery } from './events/delivery-items';
import { type ItemKey, keys } from './items';
import { queryFirst } from './query-first';

/** The attributes of a notice's item beside its keys. */
const NOTICE_FIELDS = [
  'id',
  'kind',
  'orgId',
  'account',
  'endpointId',
  'epoch',
  'percent',
  'at',
  'consecutiveFailures',
  'disableAt',
  'reason',
  'lastAnswer',
  'eventId',
  'eventType',
  'sequence',
  'expiresAt',
] as const;

/**
 * Where the notice an item (or a stream image's keys and id) is: undefined for any other item. The
 * forwarder names a created notice's delivery with it.
 */
export function noticeRefOfItem(item: Record<string, unknown>): NoticeRef | undefined {
  const { pk, sk, id } = item;
  if (typeof pk !== 'string' || !pk.startsWith(ITEM_PREFIXES.operational)) return undefined;
  if (typeof sk !== 'string' || typeof id !== 'string') return undefined;
  return { id, orgId: pk.slice(ITEM_PREFIXES.operational.length), sortKey: sk };
}

/**
 * {@link OperationalLog} on the events table: `OPS#<orgId>` / `noticeSortKey`, one item per notice, created
 * with `attribute_not_exists(pk)`: the key is the notice's deterministic id, so whoever observes a
 * transition first stores it and every other observer's put is refused. Notices sort by their
 * transition's epoch, a run's in the order they happen (its recovery last). The same write files the notice
 * in the `by-org` index under its minute (`OPS#MIN#<minute>`), which {@link DynamoNoticeIndex} reads.
 */
export class DynamoOperationalLog implements OperationalLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly onCapacity?: CapacityListener,
  ) {}

  async record(notice: Notice): Promise<boolean> {
    const values: Record<string, unknown> = {
      ...Object.fromEntries(
        NOTICE_FIELDS.filter((field) => notice[field] !== undefined).map((field) => [field, notice[field]]),
      ),
      // Filed by minute for the platform team's summary, in the same write (see `notice-minute.ts`).
      gsi1pk: keys.noticeMinute(noticeMinute(notice.at)),
      gsi1sk: keys.noticeOrder(notice.at, notice.kind, notice.id),
      // Not kept forever (it holds an IBAN and a receiver's answer): the table's TTL removes it, and the
      // stream filters pass no removal of an `OPS#` item.
      [EVENTS_TABLE.timeToLiveAttribute]:
        Math.floor(Date.parse(notice.at) / 1000) + NOTICE_RETENTION_DAYS * 86_400,
      // Its delivery to the operational webhook: pending, no attempt, as its delivery's writes expect.
      webhook_status: 'pending',
      webhook_retries: 0,
      cycle_base: 0,
    };
    const names = Object.keys(values);
    const stored = await conditionally(async () => {
      // An UpdateItem that creates the item only where none is: the consumer needs no PutItem right.
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: keys.operationalLog(notice.orgId), sk: noticeSortKey(notice) },
          UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')}`,
          ConditionExpression: 'attribute_not_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
          ExpressionAttributeValues: Object.fromEntries(names.map((name) => [`:${name}`, values[name]])),
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.count(out.ConsumedCapacity?.CapacityUnits);
    });
    if (!stored) this.count(1);
    return stored;
  }

  async page(orgId: string, offset: number, limit: number): Promise<NoticePage> {
    // Notices are small (well under 1 KB), so a bounded offset's items come in one or a few pages.
    const items = await queryFirst(
      this.client,
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.operationalLog(orgId) },
        ScanIndexForward: false,
      },
      offset + limit + 1,
      (units) => {
        if (this.onCapacity && units !== undefined) this.onCapacity('Query', units);
      },
    );
    const notices = items.slice(offset, offset + limit).map((item) => {
      const { status, retries } = toDelivery(item);
      return { ...toNotice(item), webhookStatus: status, webhookRetries: retries };
    });
    return { notices, hasMore: items.length > offset + limit };
  }

  async find(orgId: string, id: string): Promise<NoticeDelivery | undefined> {
    // The newest notices only, as the listing reaches them: the read is bounded like a listing's.
    let read = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: 'id = :id',
          ExpressionAttributeValues: { ':pk': keys.operationalLog(orgId), ':id': id },
          ScanIndexForward: false,
          Limit: MAX_LIST_DEPTH - read,
          ExclusiveStartKey: start,
        }),
      );
      const [item] = out.Items ?? [];
      if (item !== undefined) return { notice: toNotice(item), delivery: toDelivery(item) };
      read += out.ScannedCount ?? 0;
      start = out.LastEvaluatedKey;
    } while (start !== undefined && read < MAX_LIST_DEPTH);
    return undefined;
  }

  async eraseAccountNotices(orgId: string, account: string, cursor?: string): Promise<EraseChunk> {
    // The organization's partition holds every account's notices, and none is indexed by account (a
    // notice's key is its time): the read is one Query of the partition filtered on `account`, bounded by
    // `Limit` (items read, the filter applies after) and paged on from the last key read, so a request
    // costs the same however many notices other accounts have. The minute index entry is on the item and
    // goes with it; a delivery still queued then finds no notice and is dropped.
    const pk = keys.operationalLog(orgId);
    const out = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: 'account = :account',
        ExpressionAttributeValues: { ':pk': pk, ':account': account },
        ProjectionExpression: 'pk, sk',
        Limit: NOTICE_ERASE_CHUNK,
        ExclusiveStartKey: noticeStart(pk, cursor),
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    if (this.onCapacity && out.ConsumedCapacity?.CapacityUnits !== undefined) {
      this.onCapacity('Query', out.ConsumedCapacity.CapacityUnits);
    }
    const doomed = (out.Items ?? []).map((item) => ({ pk, sk: String(item.sk) }));
    await deleteKeys(this.client, this.tableName, doomed);
    const last = out.LastEvaluatedKey?.sk;
    return {
      erased: doomed.length,
      cursor: typeof last === 'string' ? encodeCursor({ sk: last }) : undefined,
    };
  }

  private count(units: number | undefined): void {
    if (this.onCapacity && units !== undefined) this.onCapacity('UpdateItem', units);
  }
}

/** The notice a stored item holds (its keys and index attributes left out). */
export function toNotice(item: Record<string, unknown>): Notice {
  const notice: Record<string, unknown> = {};
  for (const field of NOTICE_FIELDS) if (item[field] !== undefined) notice[field] = item[field];
  return notice as unknown as Notice;
}

/**
 * Where an erasure's cursor goes on in the organization's notices: only the sort key travels, the
 * partition is the organization's own, so no cursor can lead into another organization's notices.
 *
 * @throws ValidationError (`cursor`) for a cursor this log did not hand out
 */
function noticeStart(pk: string, cursor: string | undefined): ItemKey | undefined {
  const start = decodeCursor(cursor);
  if (start === undefined) return undefined;
  if (typeof start.sk !== 'string' || Object.keys(start).length !== 1) {
    throw new ValidationError('cursor', 'must be the cursor the previous answer returned');
  }
  return { pk, sk: start.sk };
}

/** Where a notice's item is. */
function noticeKey(ref: NoticeRef): ItemKey {
  return { pk: keys.operationalLog(ref.orgId), sk: ref.sortKey };
}

/**
 * {@link NoticeDeliveries} on the notices' items: the delivery's attributes (`webhook_status`,
 * `webhook_retries`, `deliveries`, `cycle_base`, `lease_until`, `next_attempt_at`) beside the notice's,
 * written as a routed endpoint's delivery is. The notice's creation set it pending with no attempt.
 */
export class DynamoNoticeDeliveries extends DeliveryItems<NoticeRef> implements NoticeDeliveries {
  constructor(client: DynamoDBDocumentClient, tableName: string, onCapacity?: CapacityListener) {
    // A notice's item is created whole with its delivery pending: a write on one erased meanwhile (a
    // message in flight when its account was erased) is refused, and leaves nothing behind.
    super(client, tableName, noticeKey, 'notice', onCapacity, 'whole');
  }

  async readNotice(ref: NoticeRef): Promise<NoticeDelivery | undefined> {
    const out = await this.table.client.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: noticeKey(ref),
        ConsistentRead: true,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    this.table.count('GetItem (notice)', out.ConsumedCapacity?.CapacityUnits);
    const item = out.Item;
    // A notice is whole from its creation: an item without its kind is no notice (nothing to send).
    if (item?.id !== ref.id || typeof item.kind !== 'string') return undefined;
    return { notice: toNotice(item), delivery: toDelivery(item) };
  }
}
