/**
 * The read-many side of `DynamoEventStore`: listing an organization's events from the `by-org`
 * index and batch-reading their list view. Kept apart from the store's single-item writes because paging
 * through a sparse index with filters is its own concern.
 */
import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { EventRecord, WebhookStatus } from '#domain/model';
import type { EventIdFilter, EventListPage, EventListRequest } from '#domain/ports';
import { BATCH_GET_LIMIT, batchGetItems } from './batch-get';
import { eventIdOfKey, keys, toEventRecord } from './items';

/** Receives the capacity units one request consumed, if DynamoDB reported them. */
export type CapacityCounter = (operation: string, units: number | undefined) => void;

const INDEX = 'by-org';
/** Attributes of the list view: everything but the body and the attempts. */
const SUMMARY_PROJECTION = 'pk, gsi1pk, gsi1sk, account, #type, signature, webhook_status, webhook_retries';

/** The list and paging queries on the events table, which `DynamoEventStore` delegates to. */
export class EventQueries {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly count: CapacityCounter,
  ) {}

  /** One page of the organization's events in list order, as summaries. */
  async listEvents(request: EventListRequest): Promise<EventListPage> {
    const wanted = request.offset + request.limit + 1;
    const ids = request.status
      ? await this.collectIdsWithStatus(request, [request.status], wanted)
      : await this.collectIds(request, wanted);
    const pageIds = ids.slice(request.offset, request.offset + request.limit);
    const events = await this.batchGetSummaries(pageIds);
    return { events, hasMore: ids.length > request.offset + request.limit };
  }

  /**
   * Every id of the organization's events in one of `statuses`, triggered at or before `until`, and,
   * when given, of one account and triggered at or after `since`.
   */
  async listEventIdsByStatus(
    orgId: string,
    statuses: readonly WebhookStatus[],
    until?: string,
    filter: EventIdFilter = {},
  ): Promise<string[]> {
    return this.collectIdsWithStatus(
      { orgId, offset: 0, limit: 0, until, account: filter.account, since: filter.since },
      statuses,
      Number.POSITIVE_INFINITY,
    );
  }

  /** Ids from the index in list order, until `wanted` matched (filters on projected attributes only). */
  private async collectIds(request: EventListRequest, wanted: number): Promise<string[]> {
    const ids: string[] = [];
    const filtered = request.account !== undefined || request.type !== undefined;
    let startKey: Record<string, unknown> | undefined;
    do {
      const input = this.indexQuery(request, startKey);
      // Without a filter every evaluated item matches, so Limit stops the read exactly where the page ends.
      if (!filtered) input.Limit = Math.min(wanted - ids.length, 1000);
      const out = await this.client.send(new QueryCommand(input));
      this.count('Query', out.ConsumedCapacity?.CapacityUnits);
      for (const item of out.Items ?? []) ids.push(eventIdOfKey(String(item.pk)));
      startKey = out.LastEvaluatedKey;
    } while (startKey && ids.length < wanted);
    return ids;
  }

  /** Like {@link collectIds} but the status is not in the index, so each chunk is read to filter it. */
  private async collectIdsWithStatus(
    request: EventListRequest,
    statuses: readonly WebhookStatus[],
    wanted: number,
  ): Promise<string[]> {
    const ids: string[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const input = this.indexQuery(request, startKey);
      input.Limit = BATCH_GET_LIMIT;
      const out = await this.client.send(new QueryCommand(input));
      this.count('Query', out.ConsumedCapacity?.CapacityUnits);
      const chunk = (out.Items ?? []).map((item) => eventIdOfKey(String(item.pk)));
      const events = await this.batchGetSummaries(chunk);
      for (const event of events) if (statuses.includes(event.webhookStatus)) ids.push(event.id);
      startKey = out.LastEvaluatedKey;
    } while (startKey && ids.length < wanted);
    return ids;
  }

  private indexQuery(
    request: EventListRequest,
    startKey: Record<string, unknown> | undefined,
  ): QueryCommandInput {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':pk': keys.orgEvents(request.orgId) };
    let condition = 'gsi1pk = :pk';
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
      IndexName: INDEX,
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
