/**
 * Capacity units per operation, as DynamoDB Local reports them with `ReturnConsumedCapacity: TOTAL`:
 * publish + first-try delivery of one event (and of a fanned-out one, at three endpoints); the listing's
 * are in `list-capacity.ts`.
 */

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CapacityListener } from '#adapters/dynamodb/capacity';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { DynamoEventTypeStore } from '#adapters/dynamodb/event-type-store';
import { DynamoEndpointDeliveries } from '#adapters/dynamodb/events/endpoint-deliveries';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { HttpWebhookSender } from '#adapters/http/http-webhook-sender';
import { MAX_ATTEMPTS, PULL_WHEN_HELD } from '#config/delivery';
import { type BatchDeps, deliverBatch } from '#delivery/deliver-batch';
import { DEFAULT_HEALTH_POLICY } from '#delivery/endpoint-health-rule';
import { pullSettings } from '#delivery/held-invocation-rule';
import { REPLACE_AFTER_AGE_SECONDS, REPLACE_AT_RECEIVE_COUNT } from '#delivery/postponement-rule';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '#delivery/retry-rule';
import { encodeDeliveryMessage, type QueuedDelivery } from '#domain/delivery-message';
import { ibanWithCheckDigits } from '#domain/iban';
import { newEndpointId } from '#domain/ids';
import type { EventRef } from '#domain/model';
import type { QueueMessage } from '#domain/ports';
import { TenantSeeder } from '#local/tenant-seed';
import { CATALOG_HEAD_TTL_MS, createEventTypeCatalog } from '#use-cases/event-types/catalog';
import { recordEvent } from '#use-cases/events/record-event';

/** Capacity units summed per operation name. */
export type CapacityTally = Record<string, number>;

/** A tally and the listener that adds to it. */
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
const BATCH = 10;

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
  /**
   * As `deliverSpread`, each account with two extra endpoints subscribed to every event (three in all):
   * each event's own message fans out, and each endpoint's message is delivered in later batches of ten.
   */
  readonly deliverFanOut: CapacityTally;
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

  const fanOutIbans = Array.from({ length: BATCH }, (_, i) => benchIban(2 * BATCH + i));
  const endpoints = new DynamoEndpointStore(client, tableName);
  for (const [i, iban] of fanOutIbans.entries()) {
    const { orgId } = await seeder.tenant(`bench fan-out ${i}`, [{ iban, webhookUrl }]);
    for (const name of ['orders', 'accounting']) {
      const url = `${receiverUrl}/${name}/herald-webhooks`;
      await endpoints.addEndpoint({
        iban,
        orgId,
        id: newEndpointId(),
        url,
        createdAt: new Date().toISOString(),
      });
    }
  }

  const pub = tally();
  const publishDeps = {
    events: new DynamoEventStore(client, tableName, pub.listener),
    directory: new DynamoDirectoryStore(client, tableName, pub.listener),
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
  const publish = async (account: string) =>
    (
      await recordEvent(publishDeps, {
        account,
        type: 'credit_transfer_status_change',
        payload: SAMPLE_PAYLOAD,
      })
    ).event;
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
  const fanOut = async (): Promise<CapacityTally> => {
    const del = tally();
    const sent: QueuedDelivery[] = [];
    const base = deliveryDeps(client, tableName, del.listener);
    const deps: BatchDeps = {
      ...base,
      // Its units are named `… (endpoints)` by the store.
      endpointStore: new DynamoEndpointStore(client, tableName, del.listener),
      queue: {
        ...base.queue,
        enqueue: async (events) => {
          sent.push(...events);
        },
      },
      observe: (id, outcome) => {
        if (outcome.kind !== 'delivered' && outcome.kind !== 'routed') {
          throw new Error(`bench delivery of ${id}: ${outcome.kind}`);
        }
      },
    };
    for (let b = 0; b < batches; b++) {
      const ids: EventRef[] = [];
      for (let i = 0; i < BATCH; i++) ids.push(await publish(fanOutIbans[i] ?? ''));
      if ((await deliverBatch(deps, ids.map(benchMessage))).length > 0)
        throw new Error('bench fan-out batch kept messages');
      const routed = sent.splice(0);
      for (let k = 0; k < routed.length; k += BATCH) {
        const kept = await deliverBatch(deps, routed.slice(k, k + BATCH).map(benchMessage));
        if (kept.length > 0) throw new Error(`bench batch kept ${kept.length} messages`);
      }
    }
    return perEvent(del.sum, batches * BATCH);
  };
  const deliverFanOut = await fanOut();
  return {
    publish: perEvent(pub.sum, 4 * batches * BATCH),
    deliver,
    deliverSpread,
    deliverOrdered,
    deliverFanOut,
  };
}

/** The consumer's batch dependencies, counting every table request (health writes included). */
function deliveryDeps(
  client: DynamoDBDocumentClient,
  tableName: string,
  listener: CapacityListener,
): BatchDeps {
  return {
    events: new DynamoEventStore(client, tableName, listener),
    deliveries: new DynamoEndpointDeliveries(client, tableName, listener),
    directory: new DynamoDirectoryStore(client, tableName, (op, units) =>
      listener(`${op} (directory)`, units),
    ),
    sender: new HttpWebhookSender('local'),
    schedule: DEFAULT_RETRY_SCHEDULE_SECONDS,
    maxAttempts: MAX_ATTEMPTS,
    urlPolicy: 'local',
    leaseMs: 120_000,
    // Counted with the event's units: a healthy endpoint's first-try success must write nothing here.
    health: new DynamoEndpointHealthStore(client, tableName, listener),
    // As deployed; counted too: a healthy endpoint's delivery must store no notice either.
    notices: new DynamoOperationalLog(client, tableName, (op, units) => listener(`${op} (notices)`, units)),
    healthPolicy: DEFAULT_HEALTH_POLICY,
    now: Date.now,
    queue: { enqueue: async () => undefined, postpone: async () => undefined },
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
      if (outcome.kind !== 'delivered') throw new Error(`bench delivery of ${id}: ${outcome.kind}`);
    },
    observeError: (_messageId, error) => {
      throw error;
    },
  };
}

/** A received message for an event (at one endpoint when it names one), as the queue would hand it over. */
function benchMessage(event: QueuedDelivery): QueueMessage {
  const id = event.endpointId === undefined ? event.id : `${event.id}#${event.endpointId}`;
  return {
    messageId: id,
    receiptHandle: id,
    body: encodeDeliveryMessage(event),
    receiveCount: 1,
    sentAt: Date.now(),
  };
}

/** A valid German test IBAN per index (bank code 37040044, account number from the index). */
function benchIban(index: number): string {
  return ibanWithCheckDigits('DE', `37040044${String(532013000 + index).padStart(10, '0')}`);
}

function perEvent(sum: CapacityTally, events: number): CapacityTally {
  return Object.fromEntries(Object.entries(sum).map(([op, units]) => [op, units / events]));
}
