/**
 * {@link EndpointDeliveries} on the events table: an event's delivery at an extra endpoint is an item of
 * the endpoint's partition (`DLV#<org>#<IBAN>#<ep_id>`, the event's sequence as sort key), created by its
 * first write (every write sets what an untouched delivery holds with `if_not_exists`, so the fan-out
 * writes nothing), holding the event's id (a stale message of an erased and re-created log finds another
 * id and writes nothing), its status, attempts (the event item's attempt shape), cycle base, lease and
 * next attempt. No index: the event item carries the aggregate the listings filter on.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '#adapters/dynamodb/batch-get';
import type { CapacityListener } from '#adapters/dynamodb/capacity';
import { keys } from '#adapters/dynamodb/items';
import { queryFirst } from '#adapters/dynamodb/query-first';
import { MAX_CYCLES } from '#delivery/retry-rule';
import type {
  DeliveryPage,
  DeliveryRef,
  EndpointDeliveries,
  EndpointDelivery,
} from '#domain/endpoints/deliveries-port';
import type { EventRef } from '#domain/model';
import type { ListWindow } from '#domain/ports';
import { create, DeliveryItems, expiry, PENDING, toDelivery } from './delivery-items';

/** {@link EndpointDeliveries} on the single events table. */
export class DynamoEndpointDeliveries extends DeliveryItems<DeliveryRef> implements EndpointDeliveries {
  constructor(client: DynamoDBDocumentClient, tableName: string, onCapacity?: CapacityListener) {
    super(client, tableName, keys.delivery, 'delivery', onCapacity);
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
    window: ListWindow,
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
}
