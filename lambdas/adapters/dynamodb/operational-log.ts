import { type DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Notice, noticeSortKey } from '#domain/notices/notice';
import type { NoticePage, OperationalLog } from '#domain/notices/ports';
import type { CapacityListener } from './capacity';
import { conditionally } from './conditional-write';
import { keys } from './items';

/** The attributes of a notice's item beside its keys. */
const FIELDS = [
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
 * transition's epoch, a run's in the order they happen (its recovery last).
 */
export class DynamoOperationalLog implements OperationalLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly onCapacity?: CapacityListener,
  ) {}

  async record(notice: Notice): Promise<boolean> {
    const fields = FIELDS.filter((field) => notice[field] !== undefined);
    const stored = await conditionally(async () => {
      // An UpdateItem that creates the item only where none is: the consumer needs no PutItem right.
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: keys.operationalLog(notice.orgId), sk: noticeSortKey(notice) },
          UpdateExpression: `SET ${fields.map((field) => `#${field} = :${field}`).join(', ')}`,
          ConditionExpression: 'attribute_not_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(fields.map((field) => [`#${field}`, field])),
          ExpressionAttributeValues: Object.fromEntries(fields.map((field) => [`:${field}`, notice[field]])),
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
    const notices = items.slice(offset, offset + limit).map((item) => {
      const notice: Record<string, unknown> = {};
      for (const field of FIELDS) if (item[field] !== undefined) notice[field] = item[field];
      return notice as unknown as Notice;
    });
    return { notices, hasMore: items.length > offset + limit };
  }

  private count(units: number | undefined): void {
    if (this.onCapacity && units !== undefined) this.onCapacity('UpdateItem', units);
  }
}
