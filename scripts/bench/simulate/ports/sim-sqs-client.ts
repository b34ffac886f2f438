/**
 * An `SQSClient` stand-in over the queue models: `send(command)` for the commands Herald's SQS adapters
 * use, with the API's round trip in virtual time. Passing it to the real adapters (e.g.
 * `new SqsDeliveryQueue(simSqsClient as unknown as SQSClient, url)`) runs their code unchanged. A handler
 * may use it from inside an invocation to pull, delete and postpone messages itself (ReceiveMessage,
 * DeleteMessageBatch, ChangeMessageVisibility): the queue bills those calls as any other, and the
 * client's own `requests` counts what its caller sent, apart from the event source's polling.
 */
import {
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import type { BatchFailure, SimQueue } from '../aws/sqs/queue';
import { type SqsAction, SqsRequestMeter } from '../aws/sqs/requests';
import { drawLatency, type Latency } from '../engine/random';
import type { Scheduler } from '../engine/scheduler';

/** Options of a {@link SimSqsClient}. */
export interface SimSqsClientOptions {
  /** Round trip of one API call. Default: median 8 ms, p99 30 ms. */
  readonly latency?: Latency;
}

/** The client stand-in; queues are addressed by their URL. */
export class SimSqsClient {
  /** The calls this client sent, by action (the queues bill them too, with every other caller's). */
  readonly requests = new SqsRequestMeter();
  private readonly latency: Latency;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly queues: ReadonlyMap<string, SimQueue>,
    options: SimSqsClientOptions = {},
  ) {
    this.latency = options.latency ?? { medianMs: 8, p99Ms: 30 };
  }

  /** Serves one command as SQS would: half the round trip there, the model's work, half back. */
  async send(command: unknown): Promise<unknown> {
    const action = ACTIONS.find(([type]) => command instanceof type)?.[1];
    if (action !== undefined) this.requests.count(action);
    const half = drawLatency(this.latency, this.scheduler.random) / 2;
    await this.scheduler.sleep(half);
    let output: unknown;
    let failure: unknown;
    try {
      output = await this.scheduler.guard(this.serve(command));
    } catch (error) {
      failure = error;
    }
    await this.scheduler.sleep(half);
    if (failure !== undefined) throw failure;
    return output;
  }

  private async serve(command: unknown): Promise<unknown> {
    if (command instanceof SendMessageCommand) {
      const { QueueUrl, MessageBody, DelaySeconds, MessageGroupId, MessageDeduplicationId } = command.input;
      const id = this.queue(QueueUrl).send({
        body: MessageBody ?? '',
        ...(DelaySeconds === undefined ? {} : { delaySeconds: DelaySeconds }),
        ...(MessageGroupId === undefined ? {} : { groupId: MessageGroupId }),
        ...(MessageDeduplicationId === undefined ? {} : { dedupId: MessageDeduplicationId }),
      });
      return { MessageId: id };
    }
    if (command instanceof SendMessageBatchCommand) {
      const entries = command.input.Entries ?? [];
      const ids = this.queue(command.input.QueueUrl).sendBatch(
        entries.map((entry) => ({
          body: entry.MessageBody ?? '',
          ...(entry.DelaySeconds === undefined ? {} : { delaySeconds: entry.DelaySeconds }),
          ...(entry.MessageGroupId === undefined ? {} : { groupId: entry.MessageGroupId }),
          ...(entry.MessageDeduplicationId === undefined ? {} : { dedupId: entry.MessageDeduplicationId }),
        })),
      );
      return { Successful: entries.map((entry, i) => ({ Id: entry.Id, MessageId: ids[i] })), Failed: [] };
    }
    if (command instanceof ReceiveMessageCommand) {
      const { QueueUrl, MaxNumberOfMessages, WaitTimeSeconds, VisibilityTimeout } = command.input;
      const messages = await this.queue(QueueUrl).receive({
        ...(MaxNumberOfMessages === undefined ? {} : { maxMessages: MaxNumberOfMessages }),
        ...(WaitTimeSeconds === undefined ? {} : { waitSeconds: WaitTimeSeconds }),
        ...(VisibilityTimeout === undefined ? {} : { visibilityTimeoutSeconds: VisibilityTimeout }),
      });
      return {
        Messages: messages.map((message) => ({
          MessageId: message.messageId,
          ReceiptHandle: message.receiptHandle,
          Body: message.body,
          Attributes: {
            ApproximateReceiveCount: String(message.receiveCount),
            SentTimestamp: String(message.sentAt),
            ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
          },
        })),
      };
    }
    if (command instanceof DeleteMessageCommand) {
      this.queue(command.input.QueueUrl).delete(command.input.ReceiptHandle ?? '');
      return {};
    }
    if (command instanceof DeleteMessageBatchCommand) {
      const entries = command.input.Entries ?? [];
      const { failed } = this.queue(command.input.QueueUrl).deleteBatch(
        entries.map((e) => e.ReceiptHandle ?? ''),
      );
      return batchOutput(entries, failed);
    }
    if (command instanceof ChangeMessageVisibilityCommand) {
      const { QueueUrl, ReceiptHandle, VisibilityTimeout } = command.input;
      this.queue(QueueUrl).changeVisibility(ReceiptHandle ?? '', VisibilityTimeout ?? 0);
      return {};
    }
    if (command instanceof ChangeMessageVisibilityBatchCommand) {
      const entries = command.input.Entries ?? [];
      const { failed } = this.queue(command.input.QueueUrl).changeVisibilityBatch(
        entries.map((e) => ({ receiptHandle: e.ReceiptHandle ?? '', seconds: e.VisibilityTimeout ?? 0 })),
      );
      return batchOutput(entries, failed);
    }
    throw new Error(`SimSqsClient does not serve ${(command as object).constructor.name}`);
  }

  private queue(url: string | undefined): SimQueue {
    const queue = this.queues.get(url ?? '');
    if (queue === undefined) throw new Error(`no simulated queue at ${url}`);
    return queue;
  }
}

/** The action of each command served. */
const ACTIONS: readonly (readonly [abstract new (...args: never[]) => unknown, SqsAction])[] = [
  [SendMessageCommand, 'SendMessage'],
  [SendMessageBatchCommand, 'SendMessageBatch'],
  [ReceiveMessageCommand, 'ReceiveMessage'],
  [DeleteMessageCommand, 'DeleteMessage'],
  [DeleteMessageBatchCommand, 'DeleteMessageBatch'],
  [ChangeMessageVisibilityCommand, 'ChangeMessageVisibility'],
  [ChangeMessageVisibilityBatchCommand, 'ChangeMessageVisibilityBatch'],
];

/** A batch call's answer: which entries succeeded, which failed and why. */
function batchOutput(
  entries: readonly { readonly Id?: string | undefined }[],
  failed: readonly BatchFailure[],
): unknown {
  const failedAt = new Set(failed.map((failure) => failure.index));
  return {
    Successful: entries.filter((_, index) => !failedAt.has(index)).map((entry) => ({ Id: entry.Id })),
    Failed: failed.map(({ index, error }) => ({
      Id: entries[index]?.Id,
      Code: error.code,
      Message: error.message,
      SenderFault: true,
    })),
  };
}
