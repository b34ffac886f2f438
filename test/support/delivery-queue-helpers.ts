/**
 * Helpers of the delivery tests that need no running harness: fast retry schedules, fresh test IBANs,
 * and direct access to the queues and the table stream (`{"id"}` messages, queue depth, a replayed
 * INSERT stream record). `delivery-harness.ts` builds its queue and stream methods on these.
 */

import { randomInt } from 'node:crypto';
import { type AttributeValue, type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import {
  GetQueueAttributesCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, DynamoDBStreamEvent, AttributeValue as StreamAttributeValue } from 'aws-lambda';
import { expect } from 'vitest';
import { keys } from '#adapters/dynamodb/items';
import { ibanWithCheckDigits } from '#domain/iban';
import { LOCAL_REGION } from '../../scripts/local/emulators';

/**
 * `ENDPOINT_HEALTH` for tests of the retry cycle itself: the circuit never opens, so every scheduled
 * attempt of a failing receiver is made on time (the circuit breaker has its own tests).
 */
export const CIRCUIT_NEVER_OPENS = JSON.stringify({ failureThreshold: 100 });

/**
 * A fast retry schedule for tests (19 waits in seconds): `fastSchedule(1, 2, 4)` is `1,2,4,4,…,4`, the
 * last given wait repeated to the 19 the runtime requires.
 */
export function fastSchedule(...waits: readonly [number, ...number[]]): string {
  const last = waits[waits.length - 1] ?? waits[0];
  return Array.from({ length: 19 }, (_, i) => waits[i] ?? last).join(',');
}

/** The waits of a schedule string, in milliseconds. */
export function scheduleMs(schedule: string): number[] {
  return schedule.split(',').map((item) => Number(item) * 1000);
}

/**
 * A valid German IBAN no other test uses (random account number, computed check digits); with
 * `accountNumber`, that account's, so IBANs sort by it.
 */
export function testIban(accountNumber = randomInt(0, 1e10)): string {
  return ibanWithCheckDigits('DE', `37040044${String(accountNumber).padStart(10, '0')}`);
}

/** Sends a `{"id"}` message straight to a queue. */
export async function sendIdMessage(sqs: SQSClient, queueUrl: string, id: string): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ id }) }));
}

/** Sends several `{"id"}` messages in one SendMessageBatch, so they arrive together. */
export async function sendIdMessages(
  sqs: SQSClient,
  queueUrl: string,
  ids: readonly string[],
): Promise<void> {
  const out = await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: ids.map((id, index) => ({ Id: String(index), MessageBody: JSON.stringify({ id }) })),
    }),
  );
  expect(out.Failed ?? []).toEqual([]);
}

/** Whether a queue holds no message at all (visible, in flight or delayed). */
export async function queueIsEmpty(sqs: SQSClient, queueUrl: string): Promise<boolean> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: [
        'ApproximateNumberOfMessages',
        'ApproximateNumberOfMessagesNotVisible',
        'ApproximateNumberOfMessagesDelayed',
      ],
    }),
  );
  return Object.values(Attributes).every((count) => count === '0');
}

/**
 * Invokes the real forwarder with an INSERT stream record of the stored event, as a duplicated record
 * would, and expects it to report no failure.
 */
export async function forwardInsertAgain(raw: DynamoDBClient, tableName: string, id: string): Promise<void> {
  const module = (await import('#handlers/forward-events')) as {
    handler: (event: DynamoDBStreamEvent, context: Context) => Promise<unknown>;
  };
  const { Item } = await raw.send(
    new GetItemCommand({
      TableName: tableName,
      Key: await eventItemKey(raw, tableName, id),
      ConsistentRead: true,
    }),
  );
  if (!Item) throw new Error(`event ${id} is not stored`);
  const result = await module.handler(insertRecord(id, Item), fakeContext('forward-events'));
  expect(result).toEqual({ batchItemFailures: [] });
}

/** The key of the event's item in its account's log, found through its id's claim. */
export async function eventItemKey(
  raw: DynamoDBClient,
  tableName: string,
  id: string,
): Promise<Record<string, { S: string }>> {
  const { Item } = await raw.send(
    new GetItemCommand({
      TableName: tableName,
      Key: { pk: { S: `EVENT#${id}` }, sk: { S: 'EVENT' } },
      ConsistentRead: true,
    }),
  );
  if (!Item) throw new Error(`event ${id} is not claimed`);
  const key = keys.eventAt({
    id,
    orgId: String(Item.org_id?.S),
    account: String(Item.account?.S),
    sequence: Number(Item.seq?.N),
  });
  return { pk: { S: key.pk }, sk: { S: key.sk } };
}

/**
 * The table-stream INSERT record the event's publication produced: its stored item as it was when
 * written (pending, no attempts), in the stream's attribute-value form.
 */
function insertRecord(id: string, item: Record<string, AttributeValue>): DynamoDBStreamEvent {
  const image = {
    ...item,
    webhook_status: { S: 'pending' },
    webhook_retries: { N: '0' },
    deliveries: { L: [] },
  } as Record<string, StreamAttributeValue>;
  return {
    Records: [
      {
        eventID: `duplicate-${id}`,
        eventName: 'INSERT',
        eventVersion: '1.1',
        eventSource: 'aws:dynamodb',
        awsRegion: LOCAL_REGION,
        dynamodb: {
          Keys: { pk: { S: `EVENT#${id}` }, sk: { S: 'EVENT' } },
          NewImage: image,
          SequenceNumber: '1',
          SizeBytes: 100,
          StreamViewType: 'NEW_IMAGE',
        },
      },
    ],
  };
}

function fakeContext(name: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: `herald-test-${name}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:000000000000:function:herald-test-${name}`,
    memoryLimitInMB: '256',
    awsRequestId: `test-${Date.now()}`,
    logGroupName: `/aws/lambda/herald-test-${name}`,
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
