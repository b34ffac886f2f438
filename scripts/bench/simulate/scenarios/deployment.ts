/**
 * Herald as deployed, in virtual time: the events table (with its `by-org` and status indexes) as a
 * DynamoDB throughput model, the delivery queue and its dead-letter queue as SQS models, and Herald's
 * in-memory stores (`lambdas/adapters/memory/`) behind metered ports. Each Lambda environment gets its own
 * SDK clients from {@link Deployment.ports}, as the handler modules build theirs at module scope.
 */

import type { SQSClient } from '@aws-sdk/client-sqs';
import { InMemoryDirectoryStore } from '#adapters/memory/directory-store';
import { InMemoryEndpointDeliveries, keyOf } from '#adapters/memory/endpoint-deliveries';
import { InMemoryEndpointHealthStore } from '#adapters/memory/endpoint-health-store';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { InMemoryEventStore } from '#adapters/memory/event-store';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { DEAD_LETTER_QUEUE, DELIVERY_QUEUE } from '#config/delivery';
import { STATUS_INDEXES } from '#config/storage';
import type { EndpointHealthStore } from '#delivery/endpoint-health-port';
import type { EndpointDeliveries } from '#domain/endpoints/deliveries-port';
import type { EventRecord } from '#domain/model';
import type { DirectoryStore, EndpointStore, EventLog } from '#domain/ports';
import { DynamoClient, type DynamoClientOptions } from '../aws/dynamodb/client';
import { DynamoMeter } from '../aws/dynamodb/meter';
import { PUBLISH_SDK_RETRY } from '../aws/dynamodb/sdk-retry';
import { DynamoTable, type TableConfig } from '../aws/dynamodb/table';
import { StandardQueue } from '../aws/sqs/standard-queue';
import type { Latency } from '../engine/random';
import type { Scheduler } from '../engine/scheduler';
import { meter } from '../ports/metered';
import { SimSqsClient } from '../ports/sim-sqs-client';
import {
  directoryCharges,
  EventItemSizes,
  type EventStoreRoles,
  eventStoreCharges,
  healthCharges,
} from './consumer-charges';
import { deliveryCharges, endpointStoreCharges } from './delivery-charges';

export const QUEUE_URL = 'https://sqs.eu-central-1.amazonaws.com/000000000000/herald-delivery';
export const DLQ_URL = 'https://sqs.eu-central-1.amazonaws.com/000000000000/herald-delivery-dlq';

/** The in-memory event store with the table's stream: listeners see every event as it is inserted. */
export class StreamedEventStore extends InMemoryEventStore {
  private readonly listeners: ((event: EventRecord) => void)[] = [];

  /** Calls `listener` with every inserted event (the stream's INSERT records). */
  onInsert(listener: (event: EventRecord) => void): void {
    this.listeners.push(listener);
  }

  override insertEvent: EventLog['insertEvent'] = async (event) => {
    const result = await this.log.insertEvent(event);
    if (result.created) for (const listener of this.listeners) listener(result.event);
    return result;
  };
}

/** How the deployment is set up. */
export interface DeploymentOptions {
  /** Table throughput settings (default on-demand, every partition key value its own partition). */
  readonly table?: Partial<Omit<TableConfig, 'name' | 'indexes'>>;
  /**
   * Write shards of an organization's index entries the charges assume: Herald's `EVENT_INDEX_SHARDS`
   * by default; 1 models the layout before sharding (every entry of an organization on one partition).
   */
  readonly indexShards?: number;
  /** Round trip of one DynamoDB request (default the client's). */
  readonly dynamoLatency?: DynamoClientOptions['latency'];
  /** Round trip of one SQS request (default the SQS client stand-in's). */
  readonly sqsLatency?: Latency;
}

/** The function an environment belongs to. */
export type Role = 'api' | 'consumer' | 'reconciler';

/** The ports one Lambda environment uses, over its own SDK client. */
export interface EnvironmentPorts {
  readonly client: DynamoClient;
  readonly events: EventStoreRoles;
  readonly directory: DirectoryStore;
  readonly health: EndpointHealthStore;
  /** The routed endpoints' delivery items (a fanned-out event's deliveries). */
  readonly deliveries: EndpointDeliveries;
  /** The accounts' extra endpoints, as the consumer reads them. */
  readonly endpointStore: Pick<EndpointStore, 'listEndpoints'>;
  readonly queue: SqsDeliveryQueue;
}

/** The deployed pieces a scenario runs on. */
export interface Deployment {
  readonly events: StreamedEventStore;
  readonly directory: InMemoryDirectoryStore;
  readonly health: InMemoryEndpointHealthStore;
  /** The accounts' extra endpoints (a scenario adds them before it runs). */
  readonly endpoints: InMemoryEndpointStore;
  readonly table: DynamoTable;
  /** Every environment's DynamoDB usage. */
  readonly dynamo: DynamoMeter;
  readonly queue: StandardQueue;
  readonly deadLetters: StandardQueue;
  readonly sqs: SQSClient;
  /**
   * A new environment's ports (call it in the environment's init); `role` prefixes the meter's operation
   * names (`consumer.events.readEvent`), so each function's usage is told apart.
   */
  ports(role: Role): EnvironmentPorts;
}

/** Builds the deployment on `engine`. */
export function deploy(engine: Scheduler, options: DeploymentOptions = {}): Deployment {
  const events = new StreamedEventStore();
  const health = new InMemoryEndpointHealthStore();
  const directory = new InMemoryDirectoryStore(health);
  const deliveries = new InMemoryEndpointDeliveries();
  const endpoints = new InMemoryEndpointStore(directory);
  const table = new DynamoTable(
    {
      name: 'herald-events',
      mode: { kind: 'on-demand' },
      ...options.table,
      indexes: { 'by-org': {}, [STATUS_INDEXES.failed.name]: {}, [STATUS_INDEXES.skipped.name]: {} },
    },
    engine.now,
  );
  const dynamo = new DynamoMeter();
  const deadLetters = new StandardQueue(engine, {
    name: 'herald-delivery-dlq',
    retentionSeconds: DEAD_LETTER_QUEUE.retentionPeriodSeconds,
    visibilityTimeoutSeconds: DEAD_LETTER_QUEUE.visibilityTimeoutSeconds,
  });
  const queue = new StandardQueue(engine, {
    name: 'herald-delivery',
    visibilityTimeoutSeconds: DELIVERY_QUEUE.visibilityTimeoutSeconds,
    retentionSeconds: DELIVERY_QUEUE.retentionPeriodSeconds,
    receiveWaitSeconds: DELIVERY_QUEUE.receiveWaitTimeSeconds,
    redrive: { deadLetter: deadLetters, maxReceiveCount: DELIVERY_QUEUE.maxReceiveCount },
  });
  const sqs = new SimSqsClient(
    engine,
    new Map([
      [QUEUE_URL, queue],
      [DLQ_URL, deadLetters],
    ]),
    options.sqsLatency === undefined ? {} : { latency: options.sqsLatency },
  ) as unknown as SQSClient;
  const eventCharges = eventStoreCharges((id) => events.events.get(id), new EventItemSizes(), {
    indexShards: options.indexShards,
  });
  const deliveryRules = deliveryCharges((ref) => deliveries.items.get(keyOf(ref)));
  return {
    events,
    directory,
    health,
    endpoints,
    table,
    dynamo,
    queue,
    deadLetters,
    sqs,
    ports(role) {
      const client = new DynamoClient(engine, table, {
        meter: dynamo,
        // The publish path's client retries as `createPublishDocumentClient` configures it.
        ...(role === 'api' ? { retry: PUBLISH_SDK_RETRY } : {}),
        ...(options.dynamoLatency === undefined ? {} : { latency: options.dynamoLatency }),
      });
      return {
        client,
        events: meter<EventStoreRoles>(events, client, `${role}.events`, eventCharges),
        directory: meter<DirectoryStore>(directory, client, `${role}.directory`, directoryCharges),
        health: meter<EndpointHealthStore>(health, client, `${role}.health`, healthCharges),
        deliveries: meter<EndpointDeliveries>(deliveries, client, `${role}.deliveries`, deliveryRules),
        endpointStore: meter<Pick<EndpointStore, 'listEndpoints'>>(
          endpoints,
          client,
          `${role}.endpoints`,
          endpointStoreCharges,
        ),
        queue: new SqsDeliveryQueue(sqs, QUEUE_URL),
      };
    },
  };
}
