/**
 * {@link EventStore} on the single events table. This file holds the event's own reads and the writes of
 * its delivery (put, lease, attempt, settle); the other parts are bound from their own files: the listing
 * (`listing.ts`), the sparse status indexes and new cycles (`status-indexes.ts`), a recovery's walk
 * (`recovery.ts`), a delivery summary's attempts (`recent-attempts.ts`) and the operator's chunks
 * (`operator-chunks.ts`), reading through `index-reads.ts`.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type CapacityListener, capacityCounter } from '#adapters/dynamodb/capacity';
import { EVENT_SK, keys } from '#adapters/dynamodb/items';
import { STATUS_INDEXES } from '#config/storage';
import type { DeliveryAttempt, EventRecord, WebhookStatus } from '#domain/model';
import type { EventStore, NewEvent, PutEventResult } from '#domain/ports';
import { attemptItem, eventItem, packSignature, toEventRecord } from './event-items';
import { conditionalUpdate, DEFAULT_BOUNDS, type EventTable, type ReadBounds } from './event-table';
import { listEvents } from './listing';
import { eraseAccountEvents, pageEventIdsByStatus } from './operator-chunks';
import { recentAttempts } from './recent-attempts';
import { recoveryChunk } from './recovery';
import { indexStatus, nextFailedOrSkipped, startCycle } from './status-indexes';

/** {@link EventStore} on the single events table. */
export class DynamoEventStore implements EventStore {
  private readonly table: EventTable;

  /**
   * @param onCapacity - receives the capacity units of each request (`npm run bench`)
   * @param bounds - how much one listing may read; tests lower them
   */
  constructor(
    client: DynamoDBDocumentClient,
    tableName: string,
    onCapacity?: CapacityListener,
    bounds: ReadBounds = DEFAULT_BOUNDS,
  ) {
    this.table = { client, tableName, count: capacityCounter(onCapacity), bounds };
  }

  readonly listEvents: EventStore['listEvents'] = (request) => listEvents(this.table, request);
  readonly nextFailedOrSkipped: EventStore['nextFailedOrSkipped'] = (orgId, limit) =>
    nextFailedOrSkipped(this.table, orgId, limit);
  readonly recoveryChunk: EventStore['recoveryChunk'] = (orgId, filter, limit, cursor) =>
    recoveryChunk(this.table, orgId, filter, limit, cursor);
  readonly recentAttempts: EventStore['recentAttempts'] = (orgId, account, since, limit) =>
    recentAttempts(this.table, orgId, account, since, limit);
  readonly startCycle: EventStore['startCycle'] = (id, orgId) => startCycle(this.table, id, orgId);
  readonly indexStatus: EventStore['indexStatus'] = (id) => indexStatus(this.table, id);
  readonly pageEventIdsByStatus: EventStore['pageEventIdsByStatus'] = (orgId, statuses, cursor, until) =>
    pageEventIdsByStatus(this.table, orgId, statuses, cursor, until);
  readonly eraseAccountEvents: EventStore['eraseAccountEvents'] = (orgId, account, cursor) =>
    eraseAccountEvents(this.table, orgId, account, cursor);

  async getEvent(id: string, options: { consistent?: boolean } = {}): Promise<EventRecord | undefined> {
    const out = await this.table.client.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: keys.event(id),
        ConsistentRead: options.consistent ?? false,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    this.table.count('GetItem', out.ConsumedCapacity?.CapacityUnits);
    return out.Item && out.Item.sk === EVENT_SK ? toEventRecord(out.Item) : undefined;
  }

  async putEvent(event: NewEvent): Promise<PutEventResult> {
    const item = eventItem(event);
    try {
      const out = await this.table.client.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: item,
          ConditionExpression: 'attribute_not_exists(pk)',
          // The existing item comes back with the failure, so a duplicate publish costs no extra read.
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.table.count('PutItem', out.ConsumedCapacity?.CapacityUnits);
      return { created: true, event: toEventRecord(item as unknown as Record<string, unknown>) };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException && error.Item) {
        return { created: false, existing: toEventRecord(unmarshall(error.Item)) };
      }
      throw error;
    }
  }

  async takeLease(
    id: string,
    expectedRetries: number,
    untilEpochMs: number,
    nowEpochMs: number,
    dueByEpochMs: number,
  ) {
    return conditionalUpdate(this.table, 'TakeLease', {
      TableName: this.table.tableName,
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
    const signed = attempt.signature !== undefined;
    const append = {
      TableName: this.table.tableName,
      Key: keys.event(id),
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':a': [attemptItem(attempt)],
        ':empty': [],
        ':one': 1,
        ...(attempt.signature === undefined ? {} : { ':sig': packSignature(attempt.signature) }),
      } as Record<string, unknown>,
      ReturnValues: 'ALL_NEW' as const,
      ReturnConsumedCapacity: 'TOTAL' as const,
    };
    // The event's `signature` is its latest attempt's `X-Signature`: kept in the same write, no extra
    // cost, and an older item's publish-time one goes.
    const appendList = `deliveries = list_append(if_not_exists(deliveries, :empty), :a)${signed ? ', sig = :sig' : ''}`;
    const tail = `ADD webhook_retries :one REMOVE lease_until${signed ? ', signature' : ''}`;
    // The sparse status index follows the status; removing an absent attribute writes no index entry.
    const marks =
      status === 'failed'
        ? { set: `, ${STATUS_INDEXES.failed.attribute} = gsi1pk`, remove: '' }
        : { set: '', remove: status === 'success' ? `, ${STATUS_INDEXES.failed.attribute}` : '' };
    try {
      const out = await this.table.client.send(
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
      this.table.count('UpdateItem', out.ConsumedCapacity?.CapacityUnits);
      return toEventRecord(out.Attributes ?? {});
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // A concurrent consumer settled the event first: the attempt still happened, so it is recorded.
      const out = await this.table.client.send(
        new UpdateCommand({ ...append, UpdateExpression: `SET ${appendList} ${tail}` }),
      );
      this.table.count('UpdateItem', out.ConsumedCapacity?.CapacityUnits);
      return toEventRecord(out.Attributes ?? {});
    }
  }

  async bringForward(id: string, orgId: string, nowEpochMs: number): Promise<boolean> {
    return conditionalUpdate(this.table, 'BringForward', {
      TableName: this.table.tableName,
      Key: keys.event(id),
      // A set `next_attempt_at` also makes the consumer lease a first attempt: the message this sends and
      // the one already queued must not both make it.
      UpdateExpression: 'SET next_attempt_at = :now',
      ConditionExpression:
        'gsi1pk = :org AND webhook_status = :pending AND (attribute_not_exists(lease_until) OR lease_until < :now)',
      ExpressionAttributeValues: { ':org': keys.orgEvents(orgId), ':pending': 'pending', ':now': nowEpochMs },
    });
  }

  async settlePending(id: string, status: 'skipped' | 'failed'): Promise<boolean> {
    return conditionalUpdate(this.table, 'SettlePending', {
      TableName: this.table.tableName,
      Key: keys.event(id),
      UpdateExpression: `SET webhook_status = :s, ${STATUS_INDEXES[status].attribute} = gsi1pk REMOVE lease_until, next_attempt_at`,
      ConditionExpression: 'webhook_status = :pending',
      ExpressionAttributeValues: { ':s': status, ':pending': 'pending' },
    });
  }
}
