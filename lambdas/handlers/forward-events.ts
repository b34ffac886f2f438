import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { orgOfItem, refOfItem } from '#adapters/dynamodb/events/event-items';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { logger } from '#adapters/observability';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { loadEnv } from '#config/env';
import { ITEM_PREFIXES } from '#config/storage';
import type { EventRef } from '#domain/model';
import { keepFloorAfterExpiry } from '#use-cases/events/sequence-floor';

const env = loadEnv(['QUEUE_URL', 'TABLE_NAME']);
const queue = new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL);
const documents = createDocumentClient();
const floor = {
  events: new DynamoEventStore(documents, env.TABLE_NAME),
  directory: new DynamoDirectoryStore(documents, env.TABLE_NAME),
};
/** SendMessageBatch takes ten entries: forwarding in chunks of ten lets a failure name where to resume. */
const CHUNK = 10;

/** The event a record's image or keys name (only the keys, the order and the account are read). */
function eventOf(record: DynamoDBRecord): EventRef | undefined {
  const image = record.dynamodb?.NewImage ?? record.dynamodb?.Keys;
  if (image === undefined) return undefined;
  const item = Object.fromEntries(
    ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'account'].map((name) => [name, image[name]?.S]),
  );
  if (record.eventName !== 'REMOVE') return refOfItem(item, orgOfItem(item));
  // A TTL deletion carries the keys only: `LOG#<org>#<IBAN>` and the sequence name the log.
  const [orgId = '', account = ''] = String(item.pk).slice(ITEM_PREFIXES.log.length).split('#');
  return { id: '', orgId, account, sequence: Number(item.sk) };
}

/**
 * Table stream → delivery queue. The event-source filters already dropped everything but INSERTs of
 * pending events and the TTL's deletions of log items; the inserts become delivery messages
 * (`{"id","log","seq"}`), ten per SQS request, and a deletion that emptied its log raises the account's
 * sequence floor (`sequence-floor.ts`).
 */
export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>()
  .use(injectLambdaContext(logger))
  .handler(async (event) => {
    const records = event.Records;
    for (let start = 0; start < records.length; start += CHUNK) {
      const chunk = records.slice(start, start + CHUNK);
      const inserted = chunk.filter((r) => r.eventName !== 'REMOVE').flatMap((r) => eventOf(r) ?? []);
      const expired = chunk.filter((r) => r.eventName === 'REMOVE').flatMap((r) => eventOf(r) ?? []);
      try {
        await queue.enqueue(inserted);
        await keepFloorAfterExpiry(floor, expired);
      } catch (error) {
        // Lambda retries from the first unsent record; earlier chunks are not sent twice.
        logger.error('Forwarding to the delivery queue failed', { error, firstId: inserted[0]?.id });
        return { batchItemFailures: [{ itemIdentifier: chunk[0]?.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
    return { batchItemFailures: [] };
  });
