/**
 * {@link EndpointDeliveries} on the events table: an event's delivery at an extra endpoint is an item of
 * the endpoint's partition (`DLV#<org>#<IBAN>#<ep_id>`, the event's sequence as sort key), created by its
 * first write (every write sets what an untouched delivery holds with `if_not_exists`, so the fan-out
 * writes nothing), holding the event's id (a stale message of an erased and re-created log finds another
 * id and writes nothing), its status, attempts (the event item's attempt shape), cycle base, lease and
 * next attempt. No index: the event item carries the aggregate the listings filter on.
 */
import {
  type DynamoDBDocumentClient,
  GetCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '#adapters/dynamodb/batch-get';
import { type CapacityListener, capacityCounter } from '#adapters/dynamodb/capacity';
import { conditionalUpdate, ifRefused, type TableAccess } from '#adapters/dynamodb/conditional-write';
import { keys } from '#adapters/dynamodb/items';
import { queryFirst } from '#adapters/dynamodb/query-first';
import { MAX_CYCLES } from '#delivery/retry-rule';
import type { LeaseClaim } from '#domain/delivery-ledger-port';
import {
  type DeliveryPage,
  type DeliveryRef,
  type EndpointDeliveries,
  type EndpointDelivery,
  UNTOUCHED,
} from '#domain/endpoints/deliveries-port';
import type { DeliveryAttempt, EventRef, WebhookStatus } from '#domain/model';
import { create, createValues, expiry, OWN, PENDING, toDelivery } from './delivery-items';
import { attemptItem } from './event-items';

/** {@link EndpointDeliveries} on the single events table. */
export class DynamoEndpointDeliveries implements EndpointDeliveries {
  private readonly table: TableAccess;

  constructor(client: DynamoDBDocumentClient, tableName: string, onCapacity?: CapacityListener) {
    this.table = { client, tableName, count: capacityCounter(onCapacity) };
  }

  async readDelivery(ref: DeliveryRef): Promise<EndpointDelivery> {
    const out = await this.table.client.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: keys.delivery(ref),
        ConsistentRead: true,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    this.table.count('GetItem (delivery)', out.ConsumedCapacity?.CapacityUnits);
    const item = out.Item;
    return item && item.id === ref.id ? toDelivery(item) : UNTOUCHED;
  }

  async takeLease(ref: DeliveryRef, claim: LeaseClaim): Promise<boolean> {
    const { expectedRetries, untilEpochMs, nowEpochMs, dueByEpochMs } = claim;
    const free =
      'webhook_status = :pending AND webhook_retries = :expected' +
      ' AND (attribute_not_exists(lease_until) OR lease_until < :now)' +
      ' AND (attribute_not_exists(next_attempt_at) OR next_attempt_at <= :due)';
    return this.update('TakeLease (delivery)', ref, {
      UpdateExpression: `SET ${create(ref)}, webhook_status = if_not_exists(webhook_status, :pending), webhook_retries = if_not_exists(webhook_retries, :zero), lease_until = :until`,
      // An untouched delivery has no attempt: only a claim of the first one takes it.
      ConditionExpression:
        expectedRetries === 0 ? `attribute_not_exists(pk) OR (id = :id AND ${free})` : `id = :id AND ${free}`,
      ExpressionAttributeValues: {
        ':zero': 0,
        ':pending': 'pending',
        ':expected': expectedRetries,
        ':until': untilEpochMs,
        ':now': nowEpochMs,
        ':due': dueByEpochMs,
      },
    });
  }

  async recordAttempt(
    ref: DeliveryRef,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EndpointDelivery> {
    const next = nextAttemptAt === undefined ? '' : ', next_attempt_at = :next';
    const removed = nextAttemptAt === undefined ? ', next_attempt_at' : '';
    const withStatus = {
      TableName: this.table.tableName,
      Key: keys.delivery(ref),
      UpdateExpression:
        `SET ${create(ref)}, deliveries = list_append(if_not_exists(deliveries, :empty), :a), ` +
        `webhook_status = :s${next} ADD webhook_retries :one REMOVE lease_until${removed}`,
      // A failure may only move a pending delivery; a success always wins.
      ConditionExpression: status === 'success' ? OWN : PENDING,
      ExpressionAttributeValues: {
        ...createValues(ref, create(ref)),
        ':empty': [],
        ':a': [attemptItem(attempt)],
        ':s': status,
        ':one': 1,
        ...(status === 'success' ? {} : { ':pending': 'pending' }),
        ...(nextAttemptAt === undefined ? {} : { ':next': nextAttemptAt }),
      },
      ReturnValues: 'ALL_NEW' as const,
      ReturnConsumedCapacity: 'TOTAL' as const,
    };
    // Settled meanwhile (a concurrent success): the attempt is still recorded, the status kept.
    const attemptAlone = {
      TableName: this.table.tableName,
      Key: keys.delivery(ref),
      UpdateExpression:
        'SET deliveries = list_append(deliveries, :a) ADD webhook_retries :one REMOVE lease_until',
      ConditionExpression: 'id = :id',
      ExpressionAttributeValues: { ':id': ref.id, ':a': [attemptItem(attempt)], ':one': 1 },
      ReturnValues: 'ALL_NEW' as const,
      ReturnConsumedCapacity: 'TOTAL' as const,
    };
    const send = (input: UpdateCommandInput) => () => this.table.client.send(new UpdateCommand(input));
    // A success refused, or the attempt alone refused: the item is another event's (a stale ref), and
    // nothing is recorded.
    const out =
      (await ifRefused(send(withStatus), undefined)) ??
      (status === 'success' ? undefined : await ifRefused(send(attemptAlone), undefined));
    if (out === undefined) return UNTOUCHED;
    this.table.count('RecordAttempt (delivery)', out.ConsumedCapacity?.CapacityUnits);
    return toDelivery(out.Attributes ?? {});
  }

  settlePending(ref: DeliveryRef, status: 'skipped' | 'failed'): Promise<boolean> {
    return this.update('SettlePending (delivery)', ref, {
      UpdateExpression: `SET ${create(ref)}, webhook_retries = if_not_exists(webhook_retries, :zero), webhook_status = :s REMOVE lease_until, next_attempt_at`,
      ConditionExpression: PENDING,
      ExpressionAttributeValues: { ':zero': 0, ':s': status, ':pending': 'pending' },
    });
  }

  startCycle(ref: DeliveryRef, routeCycle: number, settled: boolean): Promise<boolean> {
    const earlier = '(attribute_not_exists(route_cycle) OR route_cycle < :rc)';
    return this.update('StartCycle (delivery)', ref, {
      UpdateExpression: settled
        ? `SET webhook_status = :pending, cycle_base = if_not_exists(webhook_retries, :zero), route_cycle = :rc${expiry(ref)} REMOVE lease_until, next_attempt_at`
        : `SET ${create(ref)}, webhook_status = if_not_exists(webhook_status, :pending), webhook_retries = if_not_exists(webhook_retries, :zero), route_cycle = :rc`,
      ConditionExpression: settled
        ? `id = :id AND webhook_status <> :pending AND ${earlier}`
        : `${PENDING} AND ${earlier}`,
      ExpressionAttributeValues: { ':zero': 0, ':pending': 'pending', ':rc': routeCycle },
    });
  }

  async startOwnCycle(ref: DeliveryRef): Promise<boolean> {
    // A cycle that made an attempt is counted (`new_cycles`, the cycles after the first), within the cap.
    const counted = await this.update('StartOwnCycle (delivery)', ref, {
      UpdateExpression:
        'SET webhook_status = :pending, cycle_base = webhook_retries ADD new_cycles :one REMOVE lease_until, next_attempt_at',
      ConditionExpression:
        'id = :id AND webhook_status <> :pending AND webhook_retries > cycle_base' +
        ' AND (attribute_not_exists(new_cycles) OR new_cycles < :more)',
      ExpressionAttributeValues: { ':pending': 'pending', ':one': 1, ':more': MAX_CYCLES - 1 },
    });
    if (counted) return true;
    // One that sent nothing (a skipped delivery) is replaced, uncounted: a second write, rarely made.
    return this.update('RestartEmptyCycle (delivery)', ref, {
      UpdateExpression: 'SET webhook_status = :pending REMOVE lease_until, next_attempt_at',
      ConditionExpression: 'id = :id AND webhook_status <> :pending AND webhook_retries = cycle_base',
      ExpressionAttributeValues: { ':pending': 'pending' },
    });
  }

  async readDeliveries(
    ref: EventRef & { readonly sequence: number },
    endpointIds: readonly string[],
  ): Promise<ReadonlyMap<string, EndpointDelivery>> {
    const found = new Map<string, EndpointDelivery>();
    if (endpointIds.length === 0) return found;
    const read = await batchGetItems(
      this.table.client,
      this.table.tableName,
      endpointIds.map((endpointId) => keys.delivery({ ...ref, endpointId })),
    );
    this.table.count('BatchGetItem (deliveries)', read.capacityUnits);
    for (const item of read.items) {
      // The key's last part is the endpoint; another event's item at that place (a re-created log) is not this one's.
      const endpointId = String(item.pk).split('#').at(-1) ?? '';
      if (item.id === ref.id && endpointIds.includes(endpointId)) found.set(endpointId, toDelivery(item));
    }
    return found;
  }

  async listDeliveries(
    orgId: string,
    account: string,
    endpointId: string,
    window: { readonly offset: number; readonly limit: number },
  ): Promise<DeliveryPage> {
    const wanted = window.offset + window.limit + 1;
    const items = await queryFirst(
      this.table.client,
      {
        TableName: this.table.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: {
          ':pk': keys.delivery({ id: '', orgId, account, endpointId, sequence: 0 }).pk,
        },
        // Only where each event is: the attempts stay unread on the wire (the read units count the items).
        ProjectionExpression: 'id, sk',
        ScanIndexForward: false,
      },
      wanted,
      (units) => this.table.count('Query (deliveries)', units),
    );
    const found = items.map((item) => ({ id: String(item.id), sequence: Number(item.sk) }));
    return {
      deliveries: found.slice(window.offset, window.offset + window.limit),
      hasMore: found.length > window.offset + window.limit,
    };
  }

  /** A conditional update of the delivery's item; false when its condition fails. */
  private update(
    operation: string,
    ref: DeliveryRef,
    input: {
      UpdateExpression: string;
      ConditionExpression: string;
      ExpressionAttributeValues: Record<string, unknown>;
    },
  ): Promise<boolean> {
    return conditionalUpdate(this.table, operation, {
      TableName: this.table.tableName,
      Key: keys.delivery(ref),
      ...input,
      ExpressionAttributeValues: {
        ...createValues(ref, `${input.UpdateExpression} ${input.ConditionExpression}`),
        ...input.ExpressionAttributeValues,
      },
    });
  }
}
