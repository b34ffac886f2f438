import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { MAX_ATTEMPTS } from '#config/delivery';
import { STATUS_INDEXES } from '#config/storage';
import { MAX_ATTEMPTS_PER_EVENT } from '#domain/delivery/policy';
import type { DeliveryAttempt, EventRecord, WebhookStatus } from '#domain/model';
import type {
  EraseChunk,
  EventIdFilter,
  EventListPage,
  EventListRequest,
  EventStore,
  NewEvent,
  PutEventResult,
  StatusChunk,
  StatusPage,
} from '#domain/ports';
import { eraseAccountEvents } from './event-erasure';
import { EventQueries } from './event-queries';
import { attemptItem, EVENT_SK, eventItem, keys, toEventRecord } from './items';

/** Receives the capacity units each request consumed (for cost measurements). */
export type CapacityListener = (operation: string, units: number) => void;

/** {@link EventStore} on the single events table; the list queries live in {@link EventQueries}. */
export class DynamoEventStore implements EventStore {
  private readonly queries: EventQueries;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly onCapacity?: CapacityListener,
  ) {
    this.queries = new EventQueries(client, tableName, (operation, units) => this.count(operation, units));
  }

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
    return this.queries.listEvents(request);
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
    // The sparse status index follows the status; removing an absent attribute writes no index entry.
    const marks =
      status === 'failed'
        ? { set: `, ${STATUS_INDEXES.failed.attribute} = gsi1pk`, remove: '' }
        : { set: '', remove: status === 'success' ? `, ${STATUS_INDEXES.failed.attribute}` : '' };
    try {
      const out = await this.client.send(
        new UpdateCommand({
          ...append,
          UpdateExpression:
            nextAttemptAt === undefined
              ? `SET ${appendList}, webhook_status = :s${marks.set} ${tail}, next_attempt_at${marks.remove}`
              : `SET ${appendList}, webhook_status = :s, next_attempt_at = :next${marks.set} ${tail}${marks.remove}`,
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
      UpdateExpression: `SET webhook_status = :s, ${STATUS_INDEXES[status].attribute} = gsi1pk REMOVE lease_until, next_attempt_at`,
      ConditionExpression: 'webhook_status = :pending',
      ExpressionAttributeValues: { ':s': status, ':pending': 'pending' },
    });
  }

  async startCycle(id: string, orgId: string): Promise<boolean> {
    const indexes = `${STATUS_INDEXES.failed.attribute}, ${STATUS_INDEXES.skipped.attribute}`;
    const values = { ':org': keys.orgEvents(orgId), ':lastStart': MAX_ATTEMPTS_PER_EVENT - MAX_ATTEMPTS };
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.event(id),
          UpdateExpression: `SET webhook_status = :pending, cycle_base = webhook_retries REMOVE lease_until, next_attempt_at, ${indexes}`,
          ConditionExpression:
            'gsi1pk = :org AND webhook_status IN (:failed, :skipped) AND webhook_retries <= :lastStart',
          ExpressionAttributeValues: {
            ...values,
            ':pending': 'pending',
            ':failed': 'failed',
            ':skipped': 'skipped',
          },
          // The refused item comes back with the failure, so only a used-up event costs a second write.
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.count('StartCycle', out.ConsumedCapacity?.CapacityUnits);
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const old = error.Item ? unmarshall(error.Item) : undefined;
      const indexed =
        old?.[STATUS_INDEXES.failed.attribute] !== undefined ||
        old?.[STATUS_INDEXES.skipped.attribute] !== undefined;
      if (indexed && old?.gsi1pk === values[':org'] && Number(old.webhook_retries) > values[':lastStart']) {
        // No cycle is left: the event leaves the status indexes, or every reset would read it again first.
        await this.conditionalUpdate('LeaveStatusIndexes', {
          TableName: this.tableName,
          Key: keys.event(id),
          UpdateExpression: `REMOVE ${indexes}`,
          ConditionExpression: 'gsi1pk = :org AND webhook_retries > :lastStart',
          ExpressionAttributeValues: values,
        });
      }
      return false;
    }
  }

  async nextFailedOrSkipped(orgId: string, limit: number, filter?: EventIdFilter): Promise<StatusChunk> {
    return this.queries.nextFailedOrSkipped(orgId, limit, filter);
  }

  async indexStatus(id: string): Promise<boolean> {
    const set = async (status: 'failed' | 'skipped') =>
      this.conditionalUpdate('IndexStatus', {
        TableName: this.tableName,
        Key: keys.event(id),
        UpdateExpression: `SET ${STATUS_INDEXES[status].attribute} = gsi1pk`,
        ConditionExpression: `webhook_status = :s AND attribute_not_exists(${STATUS_INDEXES[status].attribute})`,
        ExpressionAttributeValues: { ':s': status },
      });
    return (await set('failed')) || (await set('skipped'));
  }

  async eraseAccountEvents(orgId: string, account: string, cursor?: string): Promise<EraseChunk> {
    return eraseAccountEvents(this.client, this.tableName, orgId, account, cursor);
  }

  async pageEventIdsByStatus(
    orgId: string,
    statuses: readonly WebhookStatus[],
    cursor?: string,
    until?: string,
  ): Promise<StatusPage> {
    return this.queries.pageEventIdsByStatus(orgId, statuses, cursor, until);
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
