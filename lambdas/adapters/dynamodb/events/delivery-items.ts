/**
 * A delivery item: an extra endpoint's (`DLV#<org>#<IBAN>#<ep_id>`, the event's sequence as sort key), or
 * an operational notice's (its own item): what every write sets on an untouched one, the values its
 * expressions name, the conditions of its writes, the delivery an item holds, and its reads and writes
 * ({@link DeliveryItems}).
 */
import {
  type DynamoDBDocumentClient,
  GetCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { type CapacityListener, capacityCounter } from '#adapters/dynamodb/capacity';
import { conditionalUpdate, ifRefused, type TableAccess } from '#adapters/dynamodb/conditional-write';
import type { ItemKey } from '#adapters/dynamodb/items';
import type { LeaseClaim } from '#domain/delivery-ledger-port';
import { type EndpointDelivery, UNTOUCHED } from '#domain/endpoints/deliveries-port';
import type { DeliveryAttempt, WebhookStatus } from '#domain/model';
import { attemptItem, toAttempts } from './event-items';

/** What names a delivery's item: the id of what it delivers, and the expiry its item takes on. */
export interface DeliveryItemRef {
  readonly id: string;
  readonly expiresAt?: number | undefined;
}

/**
 * What every write sets on an untouched delivery: the event it belongs to, and its event's expiry (the
 * table's TTL attribute) when it has one, so the delivery goes with its event's retention.
 */
export function create(ref: DeliveryItemRef): string {
  return `id = :id, cycle_base = if_not_exists(cycle_base, :zero)${expiry(ref)}`;
}

/** The event's expiry, set once (an item written before it carried none takes it too). */
export function expiry(ref: DeliveryItemRef): string {
  return ref.expiresAt === undefined ? '' : ', expires_at = if_not_exists(expires_at, :exp)';
}

/**
 * The values a write's expressions name of the event's id, `:zero` and its expiry: DynamoDB refuses a
 * value no expression uses, and a write on an existing delivery (a new cycle) creates nothing.
 */
export function createValues(ref: DeliveryItemRef, expressions: string): Record<string, unknown> {
  const values: Record<string, unknown> = {
    ':id': ref.id,
    ':zero': 0,
    ...(ref.expiresAt === undefined ? {} : { ':exp': ref.expiresAt }),
  };
  return Object.fromEntries(
    Object.entries(values).filter(([name]) => new RegExp(`${name}\\b`).test(expressions)),
  );
}

/** The item is this event's delivery. */
const ITS = 'id = :id';
/** The item is this event's pending delivery. */
const ITS_PENDING = '(id = :id AND webhook_status = :pending)';

/** The item is this event's delivery, or none yet. */
export const OWN = `(attribute_not_exists(pk) OR ${ITS})`;

/** A pending delivery (an untouched one is). */
export const PENDING = `(attribute_not_exists(pk) OR ${ITS_PENDING})`;

/** The delivery an item holds. */
export function toDelivery(item: Record<string, unknown>): EndpointDelivery {
  return {
    status: (item.webhook_status as WebhookStatus | undefined) ?? 'pending',
    retries: Number(item.webhook_retries ?? 0),
    cycleBase: Number(item.cycle_base ?? 0),
    deliveries: toAttempts(item.deliveries),
    leaseUntil: item.lease_until === undefined ? undefined : Number(item.lease_until),
    nextAttemptAt: item.next_attempt_at === undefined ? undefined : Number(item.next_attempt_at),
    cycles: 1 + Number(item.new_cycles ?? 0),
    ...(item.route_cycle === undefined ? {} : { routeCycle: Number(item.route_cycle) }),
  };
}

/**
 * A delivery's reads and writes on its own item, at the key `keyOf` gives: a routed endpoint's delivery
 * (`endpoint-deliveries.ts`) and an operational notice's (on the notice's item, `operational-log.ts`).
 */
export class DeliveryItems<R extends DeliveryItemRef> {
  protected readonly table: TableAccess;

  /**
   * @param keyOf - where a ref's item is
   * @param label - what the capacity counts name the item (`TakeLease (<label>)`)
   * @param created - `whole`: the item is created whole before its delivery is written (a notice's), so
   *   no write creates it: one on an item gone meanwhile (an erased notice) is refused rather than
   *   leaving a partial item behind; `lazily`: the first write creates it (a routed endpoint's)
   */
  constructor(
    client: DynamoDBDocumentClient,
    tableName: string,
    private readonly keyOf: (ref: R) => ItemKey,
    private readonly label: string,
    onCapacity?: CapacityListener,
    private readonly created: 'whole' | 'lazily' = 'lazily',
  ) {
    this.table = { client, tableName, count: capacityCounter(onCapacity) };
  }

  async readDelivery(ref: R): Promise<EndpointDelivery> {
    const out = await this.table.client.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: this.keyOf(ref),
        ConsistentRead: true,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    this.table.count(`GetItem (${this.label})`, out.ConsumedCapacity?.CapacityUnits);
    const item = out.Item;
    return item && item.id === ref.id ? toDelivery(item) : UNTOUCHED;
  }

  async takeLease(ref: R, claim: LeaseClaim): Promise<boolean> {
    const { expectedRetries, untilEpochMs, nowEpochMs, dueByEpochMs } = claim;
    const free =
      'webhook_status = :pending AND webhook_retries = :expected' +
      ' AND (attribute_not_exists(lease_until) OR lease_until < :now)' +
      ' AND (attribute_not_exists(next_attempt_at) OR next_attempt_at <= :due)';
    return this.update(`TakeLease (${this.label})`, ref, {
      UpdateExpression: `SET ${create(ref)}, webhook_status = if_not_exists(webhook_status, :pending), webhook_retries = if_not_exists(webhook_retries, :zero), lease_until = :until`,
      // An untouched delivery has no attempt: only a claim of the first one takes it.
      ConditionExpression:
        expectedRetries === 0 && this.created === 'lazily'
          ? `attribute_not_exists(pk) OR (id = :id AND ${free})`
          : `id = :id AND ${free}`,
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
    ref: R,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EndpointDelivery> {
    const next = nextAttemptAt === undefined ? '' : ', next_attempt_at = :next';
    const removed = nextAttemptAt === undefined ? ', next_attempt_at' : '';
    const withStatus = {
      TableName: this.table.tableName,
      Key: this.keyOf(ref),
      UpdateExpression:
        `SET ${create(ref)}, deliveries = list_append(if_not_exists(deliveries, :empty), :a), ` +
        `webhook_status = :s${next} ADD webhook_retries :one REMOVE lease_until${removed}`,
      // A failure may only move a pending delivery; a success always wins.
      ConditionExpression: this.condition(status === 'success' ? 'own' : 'pending'),
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
      Key: this.keyOf(ref),
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
    this.table.count(`RecordAttempt (${this.label})`, out.ConsumedCapacity?.CapacityUnits);
    return toDelivery(out.Attributes ?? {});
  }

  settlePending(ref: R, status: 'skipped' | 'failed'): Promise<boolean> {
    return this.update(`SettlePending (${this.label})`, ref, {
      UpdateExpression: `SET ${create(ref)}, webhook_retries = if_not_exists(webhook_retries, :zero), webhook_status = :s REMOVE lease_until, next_attempt_at`,
      ConditionExpression: this.condition('pending'),
      ExpressionAttributeValues: { ':zero': 0, ':s': status, ':pending': 'pending' },
    });
  }

  /** A write's condition on the item: {@link OWN} or {@link PENDING}, an absent item allowed only lazily. */
  private condition(expected: 'own' | 'pending'): string {
    if (this.created === 'lazily') return expected === 'own' ? OWN : PENDING;
    return expected === 'own' ? ITS : ITS_PENDING;
  }

  /** A conditional update of the delivery's item; false when its condition fails. */
  protected update(
    operation: string,
    ref: R,
    input: {
      UpdateExpression: string;
      ConditionExpression: string;
      ExpressionAttributeValues: Record<string, unknown>;
    },
  ): Promise<boolean> {
    return conditionalUpdate(this.table, operation, {
      TableName: this.table.tableName,
      Key: this.keyOf(ref),
      ...input,
      ExpressionAttributeValues: {
        ...createValues(ref, `${input.UpdateExpression} ${input.ConditionExpression}`),
        ...input.ExpressionAttributeValues,
      },
    });
  }
}
