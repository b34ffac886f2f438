import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { createSqsClient } from '#adapters/aws-clients';
import { orgOfItem, refOfItem } from '#adapters/dynamodb/events/event-items';
import { logger } from '#adapters/observability';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { loadEnv } from '#config/env';

const env = loadEnv(['QUEUE_URL']);
const queue = new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL);
/** SendMessageBatch takes ten entries: forwarding in chunks of ten lets a failure name where to resume. */
const CHUNK = 10;

/**
 * Table stream → delivery queue. The event-source filter already dropped everything but INSERTs of
 * pending events; this only turns them into delivery messages (`{"id","log","seq"}`), ten per SQS request.
 */
export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>()
  .use(injectLambdaContext(logger))
  .handler(async (event) => {
    const records = event.Records;
    for (let start = 0; start < records.length; start += CHUNK) {
      const chunk = records.slice(start, start + CHUNK);
      const events = chunk.flatMap((r) => {
        const image = r.dynamodb?.NewImage;
        if (image === undefined) return [];
        // Only the keys name the event; the rest of the image (the deflated body) is not needed.
        const item = Object.fromEntries(
          ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'account'].map((name) => [name, image[name]?.S]),
        );
        return [refOfItem(item, orgOfItem(item))];
      });
      try {
        await queue.enqueue(events);
      } catch (error) {
        // Lambda retries from the first unsent record; earlier chunks are not sent twice.
        logger.error('Forwarding to the delivery queue failed', { error, firstId: events[0]?.id });
        return { batchItemFailures: [{ itemIdentifier: chunk[0]?.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
    return { batchItemFailures: [] };
  });
