/**
 * What the `DynamoEventStore` integration tests share: a store on this file's own table in DynamoDB
 * Local, and helpers to build, store, read back and attempt events.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import type { CapacityListener } from '#adapters/dynamodb/capacity';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { uuidv7 } from '#domain/ids';
import type { DeliveryAttempt, EventRecord } from '#domain/model';
import type { NewEvent } from '#domain/ports';
import { storeInLog } from '#use-cases/events/store-in-log';
import { testIban } from './delivery-queue-helpers';
import { isolatedResources } from './resources';

/** A store on a freshly provisioned table, with the helpers that need it. */
export interface EventStoreFixture {
  readonly store: DynamoEventStore;
  /** The document client of the store, for arrangements the store cannot make. */
  readonly documents: DynamoDBDocumentClient;
  readonly tableName: string;
  /** Stores the event at the next sequence of its log (`storeInLog`), expects it to be new, and returns it. */
  stored(event: NewEvent): Promise<NewEvent>;
  /** Reads the event back consistently; fails unless it is stored with as many retries as deliveries. */
  read(id: string): Promise<EventRecord>;
  /** Closes the client and deletes the table and queues. */
  stop(): Promise<void>;
}

/**
 * Provisions this file's table (call in `beforeAll`, and `stop` in `afterAll`); `onCapacity` hears the
 * capacity units of every request of the store.
 */
export async function startEventStoreFixture(
  label: string,
  onCapacity?: CapacityListener,
): Promise<EventStoreFixture> {
  const resources = await isolatedResources({ label });
  // The same marshalling as the functions' client (lambdas/adapters/aws-clients.ts).
  const documents = DynamoDBDocumentClient.from(resources.dynamodb, {
    marshallOptions: { removeUndefinedValues: true },
  });
  const store = new DynamoEventStore(documents, resources.tableName, onCapacity);

  async function stored(event: NewEvent): Promise<NewEvent> {
    // The publish protocol itself: concurrent events of one account get consecutive sequences.
    const { sequence: _any, body, ...draft } = event;
    const result = await storeInLog(
      { events: store, now: Date.now },
      { ...draft, sequenceFloor: 0 },
      () => body,
    );
    expect(result.created).toBe(true);
    return { ...event, sequence: result.created ? (result.event.sequence ?? 0) : 0 };
  }

  async function read(id: string): Promise<EventRecord> {
    const event = await store.getEvent(id, { consistent: true });
    if (!event) throw new Error(`event ${id} is not stored`);
    expect(event.webhookRetries, 'webhook_retries vs deliveries').toBe(event.deliveries.length);
    return event;
  }

  return {
    store,
    documents,
    tableName: resources.tableName,
    stored,
    read,
    stop: async () => {
      documents.destroy();
      await resources.destroy();
    },
  };
}

export function newEvent(overrides: Partial<NewEvent> = {}): NewEvent {
  const id = overrides.id ?? uuidv7();
  const body = overrides.body ?? `{"id":"${id}","payload":{"note":"Grüße €"}}`;
  return {
    id,
    orgId: randomUUID(),
    account: testIban(),
    type: 'credit_transfer_status_change',
    triggeredAt: new Date().toISOString(),
    body,
    sequence: 1,
    webhookStatus: 'pending',
    ...overrides,
  };
}

export function attempt(status: number, body = `answer ${status}`): DeliveryAttempt {
  return {
    deliveredAt: new Date().toISOString(),
    responseStatus: status,
    responseBody: body,
    responseTimeMs: 7,
  };
}
