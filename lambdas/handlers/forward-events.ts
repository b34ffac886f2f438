import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { createSqsClient } from '#adapters/aws-clients';
import { eventIdOfKey } from '#adapters/dynamodb/events/event-items';
import { logger } from '#adapters/observability';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { loadEnv } from '#config/env';

const env = loadEnv(['QUEUE_URL']);
const queue = new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL);
/** SendMessageBatch takes ten entries: forwarding in chunks of ten lets a failure name where to resume. */
const CHUNK = 10;

/**
 * Table stream → delivery queue. The event-source filter already dropped everything but INSERTs of
 * pending events; this only turns them into `{"id"}` messages, ten per SQS request.
 */
export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>()
  .use(injectLambdaContext(logger))
  .handler(async (event) => {
    const records = event.Records;
    for (let start = 0; start < records.length; start += CHUNK) {
      const chunk = records.slice(start, start + CHUNK);
      const ids = chunk.flatMap((r) => eventIdOfKey(r.dynamodb?.NewImage?.pk?.S ?? '') || []);
      try {
        await queue.enqueue(ids);
      } catch (error) {
        // Lambda retries from the first unsent record; earlier chunks are not sent twice.
        logger.error('Forwarding to the delivery queue failed', { error, firstId: ids[0] });
        return { batchItemFailures: [{ itemIdentifier: chunk[0]?.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
    return { batchItemFailures: [] };
  });
