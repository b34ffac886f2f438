/**
 * Emulates an SQS → Lambda event source mapping with `reportBatchItemFailures` (the delivery consumer,
 * and the DLQ reconciler on the dead-letter queue).
 *
 * Like Lambda, it deletes every message of a successful batch except those the handler reports in
 * `batchItemFailures`, deletes nothing when the handler throws (or reports an unknown id), and never
 * touches visibility itself: a reported message reappears when the visibility timeout the handler set
 * (or the queue's) expires. Polls wait only briefly, so `stop()` is quick; requests are never aborted
 * because an aborted ReceiveMessage could leave messages invisible for the whole visibility timeout.
 */
import type { Message } from '@aws-sdk/client-sqs';
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type {
  SQSBatchResponse,
  SQSEvent,
  SQSMessageAttributes,
  SQSRecord,
  SQSRecordAttributes,
} from 'aws-lambda';
import { CONSUMER_EVENT_SOURCE } from '#config/delivery';
import { LOCAL_REGION } from './emulators';
import { Sleeper } from './sleeper';

/** The function behind the mapping (a Lambda handler with its context already bound). */
export type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse | undefined> | Promise<void>;

/** Options of {@link startQueueLink}. */
export interface QueueLinkOptions {
  readonly queueUrl: string;
  readonly handler: QueueHandler;
  /** Default: looked up with GetQueueAttributes. */
  readonly queueArn?: string;
  /** Default: a client configured from the environment (`AWS_ENDPOINT_URL_SQS`). */
  readonly client?: SQSClient;
  /** Messages per invocation, at most 10 (one ReceiveMessage); default `CONSUMER_EVENT_SOURCE.batchSize`. */
  readonly batchSize?: number;
  /** Concurrent pollers, each invoking the handler independently; default 2. */
  readonly concurrency?: number;
  /** Long-poll wait per ReceiveMessage, which bounds how long `stop()` takes; default 1 s. */
  readonly waitTimeSeconds?: number;
  /** `awsRegion` of the records; default us-east-1. */
  readonly region?: string;
  /** Receives handler and polling errors; default: logged to stderr. */
  readonly onError?: (error: unknown) => void;
}

/** A running queue link. */
export interface QueueLink {
  readonly queueArn: string;
  /** Lets pending polls finish, awaits in-flight invocations and their deletes. Idempotent. */
  stop(): Promise<void>;
}

const ERROR_BACKOFF_MS = 1_000;

/** Starts the pollers; resolves once the queue ARN is known. */
export async function startQueueLink(options: QueueLinkOptions): Promise<QueueLink> {
  const client = options.client ?? new SQSClient({});
  const onError = options.onError ?? ((error: unknown) => console.error('[queue-link]', error));
  const batchSize = Math.min(options.batchSize ?? CONSUMER_EVENT_SOURCE.batchSize, 10);
  const region = options.region ?? LOCAL_REGION;
  const queueArn = options.queueArn ?? (await lookUpArn(client, options.queueUrl));
  let stopped = false;
  const sleeper = new Sleeper();

  const pollOnce = async (): Promise<void> => {
    const received = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: options.queueUrl,
        MaxNumberOfMessages: batchSize,
        WaitTimeSeconds: options.waitTimeSeconds ?? 1,
        AttributeNames: ['All'],
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    const messages = received.Messages ?? [];
    if (messages.length === 0) return;
    const records = messages.map((message) => toLambdaRecord(message, queueArn, region));
    let failed: ReadonlySet<string>;
    try {
      failed = failedIds(await options.handler({ Records: records }), records);
    } catch (error) {
      onError(error);
      return;
    }
    const done = records.filter((record) => !failed.has(record.messageId));
    if (done.length > 0) await deleteAll(client, options.queueUrl, done, onError);
  };

  const poller = async (): Promise<void> => {
    while (!stopped) {
      try {
        await pollOnce();
      } catch (error) {
        if (stopped) return;
        onError(error);
        await sleeper.sleep(ERROR_BACKOFF_MS);
      }
    }
  };

  const pollers = Array.from({ length: Math.max(1, options.concurrency ?? 2) }, () => poller());
  let stopping: Promise<void> | undefined;
  return {
    queueArn,
    stop: () => {
      stopping ??= (async () => {
        stopped = true;
        sleeper.wakeAll();
        await Promise.all(pollers);
        if (!options.client) client.destroy();
      })();
      return stopping;
    },
  };
}

/**
 * Message ids to keep on the queue. A failure entry that names no message of the batch makes Lambda
 * treat the whole batch as failed, so every id is returned then.
 */
function failedIds(
  response: Awaited<ReturnType<QueueHandler>>,
  records: readonly SQSRecord[],
): ReadonlySet<string> {
  const failures = response?.batchItemFailures ?? [];
  const ids = new Set(records.map((record) => record.messageId));
  if (failures.some((failure) => !ids.has(failure.itemIdentifier))) return ids;
  return new Set(failures.map((failure) => failure.itemIdentifier));
}

async function deleteAll(
  client: SQSClient,
  queueUrl: string,
  records: readonly SQSRecord[],
  onError: (error: unknown) => void,
): Promise<void> {
  for (let start = 0; start < records.length; start += 10) {
    const chunk = records.slice(start, start + 10);
    const result = await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: chunk.map((record, index) => ({ Id: String(index), ReceiptHandle: record.receiptHandle })),
      }),
    );
    // A failed delete means the message comes back later, as it would in AWS: report, do not throw.
    for (const failure of result.Failed ?? []) {
      onError(
        new Error(`DeleteMessageBatch failed for entry ${failure.Id}: ${failure.Code} ${failure.Message}`),
      );
    }
  }
}

async function lookUpArn(client: SQSClient, queueUrl: string): Promise<string> {
  const found = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  const arn = found.Attributes?.QueueArn;
  if (!arn) throw new Error(`Queue ${queueUrl} has no ARN`);
  return arn;
}

/** An SDK message in the shape of a Lambda SQS record (camelCase message attributes, base64 binaries). */
function toLambdaRecord(message: Message, queueArn: string, region: string): SQSRecord {
  const messageAttributes: SQSMessageAttributes = {};
  for (const [name, attribute] of Object.entries(message.MessageAttributes ?? {})) {
    messageAttributes[name] = {
      dataType: attribute.DataType ?? 'String',
      stringValue: attribute.StringValue,
      binaryValue: attribute.BinaryValue ? Buffer.from(attribute.BinaryValue).toString('base64') : undefined,
      stringListValues: attribute.StringListValues ?? [],
      binaryListValues: (attribute.BinaryListValues ?? []).map((value) =>
        Buffer.from(value).toString('base64'),
      ),
    };
  }
  const system = message.Attributes ?? {};
  const attributes: SQSRecordAttributes = {
    ...system,
    ApproximateReceiveCount: system.ApproximateReceiveCount ?? '1',
    SentTimestamp: system.SentTimestamp ?? String(Date.now()),
    SenderId: system.SenderId ?? '000000000000',
    ApproximateFirstReceiveTimestamp: system.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
  };
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes,
    messageAttributes,
    md5OfBody: message.MD5OfBody ?? '',
    ...(message.MD5OfMessageAttributes ? { md5OfMessageAttributes: message.MD5OfMessageAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}
