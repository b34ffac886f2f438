import { type DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Notice, noticeSortKey } from '#domain/notices/notice';
import { noticeMinute } from '#domain/notices/notice-minute';
import type { NoticePage, OperationalLog } from '#domain/notices/ports';
import type { CapacityListener } from './capacity';
import { conditionally } from './conditional-write';
import { keys } from './items';

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
    const wanted = offset + limit + 1;
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.operationalLog(orgId) },
          ScanIndexForward: false,
          Limit: wanted - items.length,
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start !== undefined && items.length < wanted);
    const notices = items.slice(offset, offset + limit).map(toNotice);
    return { notices, hasMore: items.length > offset + limit };
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
