/**
 * Capacity units per operation, as DynamoDB Local reports them with `ReturnConsumedCapacity: TOTAL`:
 * publish + first-try delivery of one event, and `GET /events` pages over 10,000 events.
 */

import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CapacityListener } from '#adapters/dynamodb/capacity';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { DynamoEventTypeStore } from '#adapters/dynamodb/event-type-store';
import { DynamoEndpointDeliveries } from '#adapters/dynamodb/events/endpoint-deliveries';
import { eventItem } from '#adapters/dynamodb/events/event-items';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { HttpWebhookSender } from '#adapters/http/http-webhook-sender';
import { MAX_ATTEMPTS, PULL_WHEN_HELD } from '#config/delivery';
import { MAX_LIST_DEPTH } from '#config/limits';
import { type BatchDeps, deliverBatch } from '#delivery/deliver-batch';
import { DEFAULT_HEALTH_POLICY } from '#delivery/endpoint-health-rule';
import { pullSettings } from '#delivery/held-invocation-rule';
import { REPLACE_AFTER_AGE_SECONDS, REPLACE_AT_RECEIVE_COUNT } from '#delivery/postponement-rule';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '#delivery/retry-rule';
import { encodeDeliveryMessage, type QueuedDelivery } from '#domain/delivery-message';
import { ValidationError } from '#domain/errors';
import { ibanWithCheckDigits } from '#domain/iban';
import { uuidv7 } from '#domain/ids';
import type { EventRef } from '#domain/model';
import type { QueueMessage } from '#domain/ports';
import { parseListQuery } from '#http/events/list-query';
import { TenantSeeder } from '#local/tenant-seed';
import { CATALOG_HEAD_TTL_MS, createEventTypeCatalog } from '#use-cases/event-types/catalog';
import { recordEvent } from '#use-cases/events/record-event';
import { resetWebhooks } from '#use-cases/events/reset-webhooks';

/** Capacity units summed per operation name. */
export type CapacityTally = Record<string, number>;

export function tally(): { sum: CapacityTally; listener: CapacityListener } {
  const sum: CapacityTally = {};
  return { sum, listener: (op, units) => (sum[op] = (sum[op] ?? 0) + units) };
}

/** A typical `credit_transfer_status_change` payload (≈ 300 bytes), valid for the catalog's version 1. */
export const SAMPLE_PAYLOAD = {
  transfer_id: 'tr_01JD6Z0Q7W3K9V2M8N4P5R6S7T',
  end_to_end_id: 'E2E-2026-11-21-000123',
  status: 'settled',
  status_code: 'ACSC',
  amount: '1250.00',
  currency: 'EUR',
  creditor: { name: 'Example Supplier Ltd', iban: 'GB82WEST12345698765432', bic: 'NWBKGB2LXXX' },
  remittance_information: 'Invoice 2026-0042',
};

/** Messages per consumer batch, as the event source mapping hands them over. */
export const BATCH = 10;

/** Units per event of publish and of first-try deliveries, in batches of ten. */
export interface DeliveryCapacity {
  readonly publish: CapacityTally;
  /** Batches of ten events of one account: the account and its organization read once per batch. */
  readonly deliver: CapacityTally;
  /** Batches of ten events of ten accounts of ten organizations: the most reads a batch can make. */
  readonly deliverSpread: CapacityTally;
  /**
   * As `deliverSpread`, the accounts `delivery_order: ordered`, each event the next of its account (the
   * steady state): the gate lets it go without a read; the settle moves the watermark and looks at the
   * next event of the log.
   */
  readonly deliverOrdered: CapacityTally;
}

/**
 * Units per event of publish and of a first-try delivery through the consumer's batch path (fresh
 * account and organization reads per batch, counted as `… (directory)`), averaged over `batches`
 * batches of ten.
 */
export async function measureDeliveryCapacity(
  client: DynamoDBDocumentClient,
  tableName: string,
  receiverUrl: string,
  batches: number,
): Promise<DeliveryCapacity> {
  const seeder = new TenantSeeder(client, tableName);
  // A customer's URL is longer than the local receiver's: the attempt records it, so it counts in the item.
  const webhookUrl = `${receiverUrl}/payments/herald-webhooks`;
  const ibans = Array.from({ length: BATCH }, (_, i) => benchIban(i));
  for (const [i, iban] of ibans.entries()) await seeder.tenant(`bench ${i}`, [{ iban, webhookUrl }]);
  const orderedIbans = Array.from({ length: BATCH }, (_, i) => benchIban(BATCH + i));
  for (const [i, iban] of orderedIbans.entries()) {
    await seeder.tenant(`bench ordered ${i}`, [{ iban, webhookUrl, deliveryOrder: 'ordered' }]);
  }

  const pub = tally();
  const publish = publisherOf(client, tableName, pub.listener);
  const measure = async (accountOf: (i: number) => string): Promise<CapacityTally> => {
    const del = tally();
    const deps = deliveryDeps(client, tableName, del.listener);
    for (let b = 0; b < batches; b++) {
      const ids: EventRef[] = [];
      for (let i = 0; i < BATCH; i++) ids.push(await publish(accountOf(i)));
      const kept = await deliverBatch(deps, ids.map(benchMessage));
      if (kept.length > 0) throw new Error(`bench batch kept ${kept.length} messages`);
    }
    return perEvent(del.sum, batches * BATCH);
  };
  const deliver = await measure(() => ibans[0] ?? '');
  const deliverSpread = await measure((i) => ibans[i] ?? '');
  const deliverOrdered = await measure((i) => orderedIbans[i] ?? '');
  return { publish: perEvent(pub.sum, 3 * batches * BATCH), deliver, deliverSpread, deliverOrdered };
}

/** Publishes a sample event to an account through the real use-case, counting the table's units. */
export function publisherOf(
  client: DynamoDBDocumentClient,
  tableName: string,
  listener: CapacityListener,
): (account: string) => Promise<EventRef> {
  const publishDeps = {
    events: new DynamoEventStore(client, tableName, listener),
    directory: new DynamoDirectoryStore(client, tableName, listener),
    // A real execute-api base URL: the two links in every body are part of the item size.
    baseUrl: 'https://a1b2c3d4e5.execute-api.eu-central-1.amazonaws.com/prod',
    // Retention is read once per publisher, not per event: it adds nothing per event.
    retentionDays: async () => undefined,
    // As the publish function builds it: a built-in type's publish reads nothing of the catalog.
    catalog: createEventTypeCatalog({
      store: new DynamoEventTypeStore(client, tableName),
      now: Date.now,
      headTtlMs: CATALOG_HEAD_TTL_MS,
    }),
  };
  return async (account) =>
    (
      await recordEvent(publishDeps, {
        account,
        type: 'credit_transfer_status_change',
        payload: SAMPLE_PAYLOAD,
      })
    ).event;
}

/**
 * The consumer's batch dependencies, counting every table request (health writes included). With
 * `routed`, a fanned-out event's own message may answer `routed`, and the messages it sends to its
 * endpoints are kept there; without, every message must be delivered.
 */
export function deliveryDeps(
  client: DynamoDBDocumentClient,
  tableName: string,
  listener: CapacityListener,
  routed?: QueuedDelivery[],
): BatchDeps {
  return {
    events: new DynamoEventStore(client, tableName, listener),
    deliveries: new DynamoEndpointDeliveries(client, tableName, listener),
    directory: new DynamoDirectoryStore(client, tableName, (op, units) =>
      listener(`${op} (directory)`, units),
    ),
    // Read once per batch, and only for an account that counts extra endpoints.
    endpointStore: new DynamoEndpointStore(client, tableName, listener),
    sender: new HttpWebhookSender('local'),
    schedule: DEFAULT_RETRY_SCHEDULE_SECONDS,
    maxAttempts: MAX_ATTEMPTS,
    urlPolicy: 'local',
    leaseMs: 120_000,
    // Counted with the event's units: a healthy endpoint's first-try success must write nothing here.
    health: new DynamoEndpointHealthStore(client, tableName, listener),
    healthPolicy: DEFAULT_HEALTH_POLICY,
    now: Date.now,
    queue: {
      enqueue: async (events) => void routed?.push(...events),
      postpone: async () => undefined,
    },
    // As deployed, a held invocation would pull; a healthy batch must never be held, so a pull fails the bench.
    pull: {
      queue: {
        receive: () => Promise.reject(new Error('a healthy first-try batch pulled more messages')),
        delete: () => Promise.reject(new Error('a healthy first-try batch deleted pulled messages')),
      },
      settings: pullSettings(PULL_WHEN_HELD, 10_000),
      pollMs: PULL_WHEN_HELD.pollMs,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      remainingMs: () => 120_000,
    },
    replaceAtReceiveCount: REPLACE_AT_RECEIVE_COUNT,
    replaceAfterAgeSeconds: REPLACE_AFTER_AGE_SECONDS,
    observe: (id, outcome) => {
      if (outcome.kind === 'routed' && routed) return;
      if (outcome.kind !== 'delivered') throw new Error(`bench delivery of ${id}: ${outcome.kind}`);
    },
    observeError: (_messageId, error) => {
      throw error;
    },
  };
}

/** A received message for an event (or one of its routed endpoints), as the queue would hand it over. */
export function benchMessage(event: QueuedDelivery): QueueMessage {
  const messageId = event.endpointId === undefined ? event.id : `${event.id}#${event.endpointId}`;
  return {
    messageId,
    receiptHandle: messageId,
    body: encodeDeliveryMessage(event),
    receiveCount: 1,
    sentAt: Date.now(),
  };
}

/** A valid German test IBAN per index (bank code 37040044, account number from the index). */
export function benchIban(index: number): string {
  return ibanWithCheckDigits('DE', `37040044${String(532013000 + index).padStart(10, '0')}`);
}

export function perEvent(sum: CapacityTally, events: number): CapacityTally {
  return Object.fromEntries(Object.entries(sum).map(([op, units]) => [op, units / events]));
}

/** Every 50th of the 10,000 listed events failed (200 in all); the others were delivered. */
const FAILED_EVERY = 50;

/**
 * Writes `count` delivered events of one organization and account straight into the table (one second
 * apart from 2026-01-01, BatchWriteItem of 25), bypassing the stream filter, which drops non-pending items.
 * With `failedEvery`, every such event failed instead (and is in the `failed` status index).
 */
export async function seedDeliveredEvents(
  client: DynamoDBDocumentClient,
  tableName: string,
  orgId: string,
  account: string,
  count: number,
  failedEvery = 0,
): Promise<void> {
  const start = Date.parse('2026-01-01T00:00:00Z');
  const items = Array.from({ length: count }, (_, i) => {
    const id = uuidv7(start + i * 1000);
    const triggeredAt = new Date(start + i * 1000).toISOString();
    const failed = failedEvery > 0 && i % failedEvery === 0;
    const item = eventItem({
      id,
      orgId,
      account,
      type: 'credit_transfer_status_change',
      triggeredAt,
      sequence: i + 1,
      body: JSON.stringify({ id, payload: SAMPLE_PAYLOAD }),
      webhookStatus: 'pending',
    });
    return failed
      ? { ...item, failed_org: item.gsi1pk, webhook_status: 'failed', webhook_retries: 20 }
      : { ...item, webhook_status: 'success', webhook_retries: 1 };
  });
  for (let i = 0; i < items.length; i += 25) {
    const chunk = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: chunk } }));
  }
}

/**
 * Units of `GET /events` page 1, the deepest page and page 50 (per_page 100), of
 * `?webhook_status=failed` page 1 and of one `POST /management/webhooks/reset` request, with 10,000
 * events in one organization, 200 of them failed.
 */
export async function measureListCapacity(
  client: DynamoDBDocumentClient,
  tableName: string,
): Promise<Record<string, CapacityTally>> {
  const orgId = 'bench-list-org';
  await seedDeliveredEvents(client, tableName, orgId, 'DE89370400440532013000', 10_000, FAILED_EVERY);
  const result: Record<string, CapacityTally> = {};
  for (const page of [1, MAX_LIST_DEPTH / 100]) {
    const t = tally();
    const store = new DynamoEventStore(client, tableName, t.listener);
    const out = await store.listEvents({ orgId, offset: (page - 1) * 100, limit: 100 });
    if (out.events.length !== 100) throw new Error(`page ${page} returned ${out.events.length} events`);
    result[`page ${page}`] = t.sum;
  }
  // Page 50 is past the listing depth: the API answers 400 before reading anything.
  try {
    parseListQuery({ page: ['50'], per_page: ['100'] });
    throw new Error('page 50 was accepted');
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    result['page 50 (400, nothing read)'] = {};
  }
  const filter = tally();
  const filtered = await new DynamoEventStore(client, tableName, filter.listener).listEvents({
    orgId,
    offset: 0,
    limit: 100,
    status: 'failed',
  });
  if (filtered.events.length !== 100) throw new Error(`failed filter returned ${filtered.events.length}`);
  result['webhook_status=failed page 1'] = filter.sum;
  const reset = tally();
  const queue = { enqueue: async () => undefined, postpone: async () => undefined };
  const { queued } = await resetWebhooks(
    { events: new DynamoEventStore(client, tableName, reset.listener), queue },
    orgId,
  );
  result[`reset (one request, ${queued.length} queued)`] = reset.sum;
  return result;
}
