/**
 * Capacity units per event of an account with three endpoints (its default one and two extra, all
 * subscribed to every type), every delivery first-try: the publish, the event's own message (routing it
 * and sending one message per endpoint), then the three endpoints' deliveries, as DynamoDB Local reports
 * them with `ReturnConsumedCapacity: TOTAL`.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { deliverBatch } from '#delivery/deliver-batch';
import type { QueuedDelivery } from '#domain/delivery-message';
import type { EventRef } from '#domain/model';
import { TenantSeeder } from '#local/tenant-seed';
import {
  BATCH,
  benchIban,
  benchMessage,
  type CapacityTally,
  deliveryDeps,
  perEvent,
  publisherOf,
  tally,
} from './capacity';

/** The endpoints of the measured account: its default one and two extra. */
export const FAN_OUT_ENDPOINTS = 3;

/** Units per event, by phase and operation. */
export interface FanOutCapacity {
  readonly endpoints: number;
  readonly publish: CapacityTally;
  /** The event's own message: the routing decision recorded, one message per endpoint sent. */
  readonly route: CapacityTally;
  /** Every endpoint's delivery together (their messages in batches of ten), the aggregate's settlements included. */
  readonly deliver: CapacityTally;
}

/**
 * Publishes `batches` × 10 events to one account with three endpoints at `receiverUrl`, hands their own
 * messages to the consumer in batches of ten, then the messages they send to the endpoints, in batches of
 * ten; fails unless every endpoint's delivery succeeds at its first attempt.
 */
export async function measureFanOutCapacity(
  client: DynamoDBDocumentClient,
  tableName: string,
  receiverUrl: string,
  batches: number,
): Promise<FanOutCapacity> {
  const seeder = new TenantSeeder(client, tableName);
  // As in the one-endpoint rows: a customer's URL is longer than the local receiver's, and counts in the item.
  const webhookUrl = `${receiverUrl}/payments/herald-webhooks`;
  // After the one-endpoint rows' twenty accounts.
  const iban = benchIban(4 * BATCH);
  const { orgId } = await seeder.tenant('bench fan-out', [{ iban, webhookUrl }]);
  for (let extra = 1; extra < FAN_OUT_ENDPOINTS; extra++) {
    await seeder.endpoint(orgId, iban, `${webhookUrl}/system-${extra}`);
  }
  const pub = tally();
  const route = tally();
  const deliver = tally();
  const publish = publisherOf(client, tableName, pub.listener);
  const routed: QueuedDelivery[] = [];
  const routeDeps = deliveryDeps(client, tableName, route.listener, routed);
  const deliverDeps = deliveryDeps(client, tableName, deliver.listener);
  for (let b = 0; b < batches; b++) {
    const ids: EventRef[] = [];
    for (let i = 0; i < BATCH; i++) ids.push(await publish(iban));
    routed.length = 0;
    const kept = await deliverBatch(routeDeps, ids.map(benchMessage));
    if (kept.length > 0) throw new Error(`bench routing batch kept ${kept.length} messages`);
    if (routed.length !== BATCH * FAN_OUT_ENDPOINTS) {
      throw new Error(`bench routing sent ${routed.length} messages, not ${BATCH * FAN_OUT_ENDPOINTS}`);
    }
    for (let start = 0; start < routed.length; start += BATCH) {
      const batch = routed.slice(start, start + BATCH).map(benchMessage);
      const left = await deliverBatch(deliverDeps, batch);
      if (left.length > 0) throw new Error(`bench endpoint batch kept ${left.length} messages`);
    }
  }
  const events = batches * BATCH;
  return {
    endpoints: FAN_OUT_ENDPOINTS,
    publish: perEvent(pub.sum, events),
    route: perEvent(route.sum, events),
    deliver: perEvent(deliver.sum, events),
  };
}
