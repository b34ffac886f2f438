/**
 * What every handler that starts delivery cycles gives its use-case: redelivery and replay, the reset,
 * enabling with recovery, the dead-letter reconciler and the operators' routes.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { loadEnv } from '#config/env';

/** The event store that holds the cycles, the queue that starts their attempts, and the clock. */
export interface RedeliveryDeps {
  readonly events: DynamoEventStore;
  readonly queue: SqsDeliveryQueue;
  readonly now: () => number;
}

/** The events of `TABLE_NAME` and the delivery queue at `QUEUE_URL`, with the system clock. */
export function redeliveryDeps(
  documents: DynamoDBDocumentClient,
  env: { readonly TABLE_NAME: string; readonly QUEUE_URL: string },
): RedeliveryDeps {
  return {
    events: new DynamoEventStore(documents, env.TABLE_NAME),
    queue: new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL),
    now: Date.now,
  };
}

/** A function that starts cycles and reads nothing but the table and the queue: its parts. */
export interface RedeliveryWiring {
  readonly deps: RedeliveryDeps;
  /** For the one more store of the table such a function may need. */
  readonly documents: DynamoDBDocumentClient;
  readonly tableName: string;
}

/**
 * Wires a function that reads only `TABLE_NAME` and `QUEUE_URL`; called at module scope, so a missing
 * variable fails the cold start.
 */
export function redeliveryWiring(): RedeliveryWiring {
  const env = loadEnv(['TABLE_NAME', 'QUEUE_URL']);
  const documents = createDocumentClient();
  return { deps: redeliveryDeps(documents, env), documents, tableName: env.TABLE_NAME };
}
