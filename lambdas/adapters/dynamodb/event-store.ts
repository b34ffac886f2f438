import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { MAX_ATTEMPTS, MAX_ATTEMPTS_PER_EVENT } from '../../../lib/shapes';
import type { DeliveryAttempt, EventRecord, WebhookStatus } from '../../domain/model';
import type {
  EventListPage,
  EventListRequest,
  EventStore,
  NewEvent,
  PutEventResult,
} from '../../domain/ports';
import { BATCH_GET_LIMIT, batchGetItems } from './batch-get';
import { attemptItem, EVENT_SK, eventIdOfKey, eventItem, keys, toEventRecord } from './items';

/** Receives the capacity units each request consumed (for cost measurements). */
export type CapacityListener = (operation: string, units: number) => void;

const INDEX = 'by-org';
/** Attributes of the list view: everything but the body and the attempts. */
const SUMMARY_PROJECTION = 'pk, gsi1pk, gsi1sk, account, #type, signature, webhook_status, webhook_retries';

/** {@link EventStore} on the single events table. */
export class DynamoEventStore implements EventStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly onCapacity?: CapacityListener,
  ) {}

  async getEvent(id: string, options: { consistent?: boolean } = {}): Promise<EventRecord | undefined> {
    const out = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.event(id),
        ConsistentRead: options.consistent ?? false,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    this.count('GetItem', out.ConsumedCapacity?.CapacityUnits);
    return out.Item && out.Item.sk === EVENT_SK ? toEventRecord(out.Item) : undefined;
  }

  async putEvent(event: NewEvent): Promise<PutEventResult> {
    const item = eventItem(event);
    try {
      const out = await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: 'attribute_not_exists(pk)',
          // The existing item comes back with the failure, so a duplicate publish costs no extra read.
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.count('PutItem', out.ConsumedCapacity?.CapacityUnits);
      return { created: true, event: toEventRecord(item as unknown as Record<string, unknown>) };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException && error.Item) {
        return { created: false, existing: toEventRecord(unmarshall(error.Item)) };
      }
      throw error;
    }
  }

  async listEvents(request: EventListRequest): Promise<EventListPage> {
    const wanted = request.offset + request.limit + 1;
    const ids = request.status
      ? await this.collectIdsWithStatus(request, [request.status], wanted)
      : await this.collectIds(request, wanted);
    const pageIds = ids.slice(request.offset, request.offset + request.limit);
    const events = await this.batchGetSummaries(pageIds);
    return { events, hasMore: ids.length > request.offset + request.limit };
  }

  async takeLease(
    id: string,
    expectedRetries: number,
    untilEpochMs: number,
    nowEpochMs: number,
    dueByEpochMs: number,
  ) {
    return this.conditionalUpdate('TakeLease', {
      TableName: this.tableName,
      Key: keys.event(id),
      UpdateExpression: 'SET lease_until = :until',
      ConditionExpression: [
        'webhook_status = :pending AND webhook_retries = :n',
        '(attribute_not_exists(lease_until) OR lease_until < :now)',
        // A duplicate message must not bring a scheduled retry forward.
        '(attribute_not_exists(next_attempt_at) OR next_attempt_at <= :due)',
      ].join(' AND '),
      ExpressionAttributeValues: {
        ':until': untilEpochMs,
        ':pending': 'pending',
        ':n': expectedRetries,
        ':now': nowEpochMs,
        ':due': dueByEpochMs,
      },
    });
  }

  async recordAttempt(
    id: string,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EventRecord> {
    const append = {
      TableName: this.tableName,
      Key: keys.event(id),
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':a': [attemptItem(attempt)], ':empty': [], ':one': 1 } as Record<
        string,
        unknown
      >,
      ReturnValues: 'ALL_NEW' as const,
      ReturnConsumedCapacity: 'TOTAL' as const,
    };
    const appendList = 'deliveries = list_append(if_not_exists(deliveries, :empty), :a)';
    const tail = 'ADD webhook_retries :one REMOVE lease_until';
    try {
      const out = await this.client.send(
        new UpdateCommand({
          ...append,
          UpdateExpression:
            nextAttemptAt === undefined
              ? `SET ${appendList}, webhook_status = :s ${tail}, next_attempt_at`
              : `SET ${appendList}, webhook_status = :s, next_attempt_at = :next ${tail}`,
          // A failure may only move a pending event; a success always wins.
          ConditionExpression:
            status === 'success'
              ? 'attribute_exists(pk)'
              : 'attribute_exists(pk) AND webhook_status = :pending',
          ExpressionAttributeValues: {
            ...append.ExpressionAttributeValues,
            ':s': status,
            ...(status === 'success' ? {} : { ':pending': 'pending' }),
            ...(nextAttemptAt === undefined ? {} : { ':next': nextAttemptAt }),
          },
        }),
      );
      this.count('UpdateItem', out.ConsumedCapacity?.CapacityUnits);
      return toEventRecord(out.Attributes ?? {});
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // A concurrent consumer settled the event first: the attempt still happened, so it is recorded.
      const out = await this.client.send(
        new UpdateCommand({ ...append, UpdateExpression: `SET ${appendList} ${tail}` }),
      );
      this.count('UpdateItem', out.ConsumedCapacity?.CapacityUnits);
      return toEventRecord(out.Attributes ?? {});
    }
  }

  async settlePending(id: string, status: 'skipped' | 'failed'): Promise<boolean> {
    return this.conditionalUpdate('SettlePending', {
      TableName: this.tableName,
      Key: keys.event(id),
      UpdateExpression: 'SET webhook_status = :s REMOVE lease_until, next_attempt_at',
      ConditionExpression: 'webhook_status = :pending',
      ExpressionAttributeValues: { ':s': status, ':pending': 'pending' },
    });
  }

  async startCycle(id: string, orgId: string): Promise<boolean> {
    return this.conditionalUpdate('StartCycle', {
      TableName: this.tableName,
      Key: keys.event(id),
      UpdateExpression:
        'SET webhook_status = :pending, cycle_base = webhook_retries REMOVE lease_until, next_attempt_at',
      ConditionExpression:
        'gsi1pk = :org AND webhook_status IN (:failed, :skipped) AND webhook_retries <= :lastStart',
      ExpressionAttributeValues: {
        ':pending': 'pending',
        ':org': keys.orgEvents(orgId),
        ':failed': 'failed',
        ':skipped': 'skipped',
        ':lastStart': MAX_ATTEMPTS_PER_EVENT - MAX_ATTEMPTS,
      },
    });
  }

  async listEventIdsByStatus(
    orgId: string,
    statuses: readonly WebhookStatus[],
    until?: string,
  ): Promise<string[]> {
    return this.collectIdsWithStatus(
      { orgId, offset: 0, limit: 0, until },
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

  private async conditionalUpdate(operation: string, input: ConstructorParameters<typeof UpdateCommand>[0]) {
    try {
      const out = await this.client.send(new UpdateCommand({ ...input, ReturnConsumedCapacity: 'TOTAL' }));
      this.count(operation, out.ConsumedCapacity?.CapacityUnits);
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  private count(operation: string, units: number | undefined): void {
    if (this.onCapacity && units !== undefined) this.onCapacity(operation, units);
  }
}
