/**
 * The fan-out against DynamoDB Local (issue 32): an event routed to an extra endpoint is sent as one
 * message per routed endpoint; concurrent handlings of one endpoint's message (copies SQS may deliver)
 * send it once, the delivery item's lease deciding; each delivery keeps its attempts on its own item,
 * and the event's item the aggregate, counting each endpoint's attempts once. The write units of one
 * fanned-out event are those the capacity bench states.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { DynamoEndpointDeliveries } from '#adapters/dynamodb/events/endpoint-deliveries';
import type { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { keys } from '#adapters/dynamodb/items';
import type { BatchDeps } from '#delivery/deliver-batch';
import { deliverMessage } from '#delivery/deliver-event';
import { DeliveryContext } from '#delivery/delivery-context';
import { DEFAULT_HEALTH_POLICY } from '#delivery/endpoint-health-rule';
import { decodeDeliveryMessage } from '#domain/delivery-message';
import { newEndpointId } from '#domain/ids';
import { TenantSeeder } from '#local/tenant-seed';
import { testIban } from '../support/delivery-queue-helpers';
import { type EventStoreFixture, newEvent, startEventStoreFixture } from '../support/event-store-fixture';
import { TEST_SCHEDULE } from '../support/fakes/delivery-deps';
import { FakeDeliveryQueue } from '../support/fakes/delivery-queue';
import { FakeWebhookSender } from '../support/fakes/webhook-sender';
import { useFixture } from '../support/use-fixture';

/** A retention's end (epoch seconds) far enough ahead that DynamoDB Local's TTL never acts on it. */
const EXPIRES_AT = Math.floor(Date.now() / 1000) + 30 * 86_400;
const writes: string[] = [];
let fixture: EventStoreFixture;
let store: DynamoEventStore;

useFixture(
  () => startEventStoreFixture('fan-out', (operation) => writes.push(operation)),
  (started) => {
    fixture = started;
    store = started.store;
  },
);

describe('the fan-out in DynamoDB', () => {
  it("sends each endpoint's delivery once under concurrent copies, keeps the aggregate exact, and its deliveries go with the event", async () => {
    const { documents, tableName } = fixture;
    const iban = testIban();
    const seeder = new TenantSeeder(documents, tableName);
    const { orgId } = await seeder.tenant('Fan-out', [{ iban, webhookUrl: 'http://127.0.0.1:9/default' }]);
    const endpoints = new DynamoEndpointStore(documents, tableName);
    const extraId = newEndpointId();
    await endpoints.addEndpoint({
      iban,
      orgId,
      id: extraId,
      url: 'http://127.0.0.1:9/credits',
      eventTypes: ['credit_received'],
      createdAt: new Date().toISOString(),
    });
    const directory = new DynamoDirectoryStore(documents, tableName);
    const deliveries = new DynamoEndpointDeliveries(documents, tableName, (operation) =>
      writes.push(operation),
    );
    const sender = new FakeWebhookSender();
    const queue = new FakeDeliveryQueue();
    const deps: BatchDeps = {
      events: store,
      deliveries,
      directory,
      endpointStore: endpoints,
      health: new DynamoEndpointHealthStore(documents, tableName),
      healthPolicy: DEFAULT_HEALTH_POLICY,
      sender,
      queue,
      schedule: TEST_SCHEDULE,
      maxAttempts: 20,
      urlPolicy: 'local',
      leaseMs: 120_000,
      now: Date.now,
      random: () => 0,
      replaceAtReceiveCount: 18,
      replaceAfterAgeSeconds: 13 * 24 * 3600,
      observe: () => undefined,
      observeError: () => undefined,
    };
    const context = () => new DeliveryContext(directory, undefined, undefined, endpoints);
    const event = await fixture.stored(
      newEvent({
        orgId,
        account: iban,
        type: 'credit_received',
        body: '{"id":"x","payload":{}}',
        expiresAt: EXPIRES_AT,
      }),
    );
    const account = await directory.getAccount(iban, { consistent: true });
    const defaultId = account?.endpointId ?? '';

    writes.length = 0;
    expect((await deliverMessage(deps, { id: event.id, at: event }, 1, context())).kind).toBe('routed');
    const targets = queue.bodies.map((body) => decodeDeliveryMessage(body));
    expect(targets.map((target) => target?.endpointId)).toEqual([defaultId, extraId]);
    // Three concurrent copies of each endpoint's message, each in its own consumer's batch.
    const outcomes = await Promise.all(
      targets.flatMap((target) =>
        target ? [1, 2, 3].map(() => deliverMessage(deps, target, 1, context())) : [],
      ),
    );
    expect(outcomes.filter((outcome) => outcome.kind === 'delivered')).toHaveLength(2);
    expect(sender.requests.map((request) => request.url).sort()).toEqual([
      'http://127.0.0.1:9/credits',
      'http://127.0.0.1:9/default',
    ]);
    for (const endpointId of [defaultId, extraId]) {
      const delivery = await deliveries.readDelivery({ ...event, sequence: event.sequence ?? 0, endpointId });
      expect(delivery).toMatchObject({ status: 'success', retries: 1 });
      expect(delivery.deliveries).toHaveLength(1);
    }
    const aggregate = await store.readEvent(event, { consistent: true });
    expect(aggregate).toMatchObject({
      webhookStatus: 'success',
      webhookRetries: 2,
      routes: [defaultId, extraId],
    });
    // Per endpoint a lease, an attempt and its count in the aggregate; the last count settles the event.
    const fanOutWrites = writes.filter(
      (operation) => !operation.startsWith('GetItem') && operation !== 'Query',
    );
    expect(fanOutWrites.filter((operation) => operation === 'RecordRoutes')).toHaveLength(1);
    expect(fanOutWrites.filter((operation) => operation === 'RecordAttempt (delivery)')).toHaveLength(2);
    expect(fanOutWrites.filter((operation) => operation === 'SettleRoute')).toHaveLength(2);
    expect(fanOutWrites.filter((operation) => operation === 'SettleRouteLast')).toHaveLength(1);

    // Each delivery carries its event's retention (the table's TTL attribute) and is erased with it.
    const deliveryKeys = [defaultId, extraId].map((endpointId) =>
      keys.delivery({ ...event, sequence: event.sequence ?? 0, endpointId }),
    );
    for (const Key of deliveryKeys) {
      const item = await documents.send(new GetCommand({ TableName: tableName, Key }));
      expect(item.Item?.expires_at).toBe(EXPIRES_AT);
    }
    expect(await store.eraseAccountEvents(orgId, iban)).toMatchObject({ erased: 1 });
    for (const Key of deliveryKeys) {
      const item = await documents.send(new GetCommand({ TableName: tableName, Key }));
      expect(item.Item).toBeUndefined();
    }
  });
});
