import { Duration, Validations } from 'aws-cdk-lib';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DEAD_LETTER_QUEUE, DELIVERY_QUEUE, QUEUE_RETENTION_SECONDS } from '#config/delivery';

/** Properties of {@link DeliveryQueues}. */
export interface DeliveryQueuesProps {
  /** Customer-managed key; without it SQS-managed SSE encrypts the queues. */
  readonly encryptionKey?: kms.IKey | undefined;
}

/**
 * The queues of delivery: the delivery queue, its dead-letter queue (`DELIVERY_QUEUE` and
 * `DEAD_LETTER_QUEUE` in `lambdas/config/delivery.ts`), and the forwarder's failure queue. All are encrypted at rest and
 * refuse requests that do not use TLS.
 */
export class DeliveryQueues extends Construct {
  /** Messages `{"id": <event id>}`, one per pending delivery, consumed by the consumer. */
  readonly queue: sqs.Queue;
  /** Messages received `maxReceiveCount` times, consumed by the reconciler. */
  readonly deadLetterQueue: sqs.Queue;
  /**
   * Where Lambda puts the metadata of table-stream batches the forwarder failed on (not the records:
   * shard and sequence numbers). A separate queue, because the reconciler reads the DLQ as delivery
   * messages and must not see these.
   */
  readonly forwarderFailures: sqs.Queue;

  constructor(scope: Construct, id: string, props: DeliveryQueuesProps) {
    super(scope, id);
    const { encryptionKey } = props;
    const secured = {
      ...(encryptionKey === undefined
        ? { encryption: sqs.QueueEncryption.SQS_MANAGED }
        : { encryption: sqs.QueueEncryption.KMS, encryptionMasterKey: encryptionKey }),
      enforceSSL: true,
    } satisfies sqs.QueueProps;

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      ...secured,
      retentionPeriod: Duration.seconds(DEAD_LETTER_QUEUE.retentionPeriodSeconds),
      visibilityTimeout: Duration.seconds(DEAD_LETTER_QUEUE.visibilityTimeoutSeconds),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      ...secured,
      retentionPeriod: Duration.seconds(DELIVERY_QUEUE.retentionPeriodSeconds),
      visibilityTimeout: Duration.seconds(DELIVERY_QUEUE.visibilityTimeoutSeconds),
      receiveMessageWaitTime: Duration.seconds(DELIVERY_QUEUE.receiveWaitTimeSeconds),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: DELIVERY_QUEUE.maxReceiveCount },
    });
    this.forwarderFailures = new sqs.Queue(this, 'ForwarderFailures', {
      ...secured,
      retentionPeriod: Duration.seconds(QUEUE_RETENTION_SECONDS),
    });
    Validations.of(this.forwarderFailures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter destination (the on-failure destination of the forwarder stream ' +
        'mapping). Nothing consumes it automatically; an alarm fires on its first message for an operator.',
    });
  }
}
