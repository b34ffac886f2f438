import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { CONSUMER_EVENT_SOURCE, FORWARDER_EVENT_SOURCE, RECONCILER_EVENT_SOURCE } from '#config/delivery';
import { STREAM_FILTER_PATTERNS } from '#config/storage';
import type { DeliveryQueues } from './delivery-queues';
import { acknowledgeKeyActionFamilies, acknowledgeUnscopedActions } from './herald-function';

/**
 * Attempts at a failing stream batch before Lambda hands it to the failure queue. Unbounded retries
 * (the default) would block the whole shard, every later event included, for up to the stream's
 * 24 hours because of one batch.
 */
export const FORWARDER_RETRY_ATTEMPTS = 10;

/** Properties of {@link DeliveryPipeline}. */
export interface DeliveryPipelineProps {
  readonly table: dynamodb.ITable;
  readonly queues: DeliveryQueues;
  readonly forwarder: lambda.Function;
  readonly consumer: lambda.Function;
  readonly reconciler: lambda.Function;
  /** Upper bound of concurrent consumer invocations (2–1000). */
  readonly consumerMaxConcurrency: number;
}

/**
 * The event sources of delivery: table stream → forwarder → delivery queue → consumer, and
 * dead-letter queue → reconciler. The functions' own data rights are in `FUNCTION_ACCESS`.
 */
export class DeliveryPipeline extends Construct {
  constructor(scope: Construct, id: string, props: DeliveryPipelineProps) {
    super(scope, id);
    const { table, queues, forwarder, consumer, reconciler } = props;

    // Forwarder: only pending event INSERTs reach it; filtered records are not billed.
    forwarder.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition[FORWARDER_EVENT_SOURCE.startingPosition],
        batchSize: FORWARDER_EVENT_SOURCE.batchSize,
        maxBatchingWindow: Duration.seconds(FORWARDER_EVENT_SOURCE.maxBatchingWindowSeconds),
        bisectBatchOnError: FORWARDER_EVENT_SOURCE.bisectBatchOnError,
        reportBatchItemFailures: FORWARDER_EVENT_SOURCE.reportBatchItemFailures,
        retryAttempts: FORWARDER_RETRY_ATTEMPTS,
        filters: STREAM_FILTER_PATTERNS.map((pattern) => lambda.FilterCriteria.filter(pattern)),
        onFailure: new SqsDlq(queues.forwarderFailures),
      }),
    );
    acknowledgeUnscopedActions(forwarder, 'dynamodb:ListStreams (needed by the stream event source mapping)');
    // The failure destination's grant (CDK's) writes under the queue key with the action families.
    if (queues.forwarderFailures.encryptionMasterKey) acknowledgeKeyActionFamilies(forwarder);

    consumer.addEventSource(
      new SqsEventSource(queues.queue, {
        ...CONSUMER_EVENT_SOURCE,
        maxConcurrency: props.consumerMaxConcurrency,
      }),
    );

    // The event source grants the reconciler what it needs on the DLQ, and nothing else touches it.
    reconciler.addEventSource(new SqsEventSource(queues.deadLetterQueue, { ...RECONCILER_EVENT_SOURCE }));
  }
}
