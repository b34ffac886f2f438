import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { orgOfItem, refOfItem } from '#adapters/dynamodb/events/event-items';
import { noticeRefOfItem } from '#adapters/dynamodb/operational-log';
import { logger } from '#adapters/observability';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { loadEnv } from '#config/env';
import { ITEM_PREFIXES } from '#config/storage';
import type { QueuedDelivery } from '#domain/delivery-message';
import type { EventRef } from '#domain/model';
import { keepFloorAfterExpiry } from '#use-cases/events/sequence-floor';

const env = loadEnv(['QUEUE_URL', 'TABLE_NAME']);
const queue = new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL);

const floor = { directory: new DynamoDirectoryStore(createDocumentClient(), env.TABLE_NAME) };
/** SendMessageBatch takes ten entries: forwarding in chunks of ten lets a failure name where to resume. */
const CHUNK = 10;

/** An inserted record's delivery: a notice's (to its organization's operational webhook), or an event's. */
function deliveryOf(record: DynamoDBRecord): QueuedDelivery | undefined {
  const item = itemOf(record);
  if (item === undefined) return undefined;
  const notice = noticeRefOfItem(item);
  return notice === undefined ? refOfItem(item, orgOfItem(item)) : { id: notice.id, notice };
}

/** The keys and the few attributes the forwarder reads of a record's image (or, a deletion, its keys). */
function itemOf(record: DynamoDBRecord): Record<string, string | undefined> | undefined {
  const image = record.dynamodb?.NewImage ?? record.dynamodb?.Keys;
  if (image === undefined) return undefined;
  return Object.fromEntries(
    ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'account', 'id'].map((name) => [name, image[name]?.S]),
  );
}

/** The log item a TTL deletion's keys name. */
function expiredOf(record: DynamoDBRecord): EventRef | undefined {
  const item = itemOf(record);
  if (item === undefined) return undefined;
  // A TTL deletion carries the keys only: `LOG#<org>#<IBAN>` and the sequence name the log.
  const [orgId = '', account = ''] = String(item.pk).slice(ITEM_PREFIXES.log.length).split('#');
  return { id: '', orgId, account, sequence: Number(item.sk) };
}

/**
 * Table stream → delivery queue. The event-source filters already dropped everything but INSERTs of
 * pending events and of operational notices, and the TTL's deletions of log items; the inserts become
 * delivery messages (`{"id","log","seq"}`, a notice's `{"id","ops","sk"}`), ten per SQS request, and each deletion raises the account's sequence floor to
 * its sequence (`sequence-floor.ts`).
 */
export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>()
  .use(injectLambdaContext(logger))
  .handler(async (event) => {
    const records = event.Records;
    for (let start = 0; start < records.length; start += CHUNK) {
      const chunk = records.slice(start, start + CHUNK);
      const inserted = chunk.filter((r) => r.eventName !== 'REMOVE').flatMap((r) => deliveryOf(r) ?? []);
      const expired = chunk.filter((r) => r.eventName === 'REMOVE').flatMap((r) => expiredOf(r) ?? []);
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
