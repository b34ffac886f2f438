/**
 * The middy stack every SQS consumer shares (the delivery consumer, the dead-letter reconciler): the
 * Lambda context in each log line, the function's metrics flushed after each batch, the records read as
 * the domain's queue messages, and the messages to keep answered as partial batch failures.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import middy, { type MiddlewareObj, type MiddyfiedHandler } from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '#adapters/observability';
import { toQueueMessages } from '#adapters/sqs/sqs-records';
import type { QueueMessage } from '#domain/ports';

/**
 * Wraps a batch consumer in the shared middy stack.
 *
 * @param handle - handles a batch and answers the ids of the messages to keep (they come back after their
 *   visibility timeout); every other message is deleted. It gets the invocation's context (its remaining time).
 */
export function queueHandler(
  metrics: Metrics,
  handle: (messages: readonly QueueMessage[], context: Context) => Promise<readonly string[]>,
): MiddyfiedHandler<SQSEvent, SQSBatchResponse, Error, Context> {
  return middy<SQSEvent, SQSBatchResponse>()
    .use(injectLambdaContext(logger))
    .use(publishRecordedMetrics(metrics))
    .handler(async (event, context) => {
      const keep = await handle(toQueueMessages(event.Records), context);
      return { batchItemFailures: keep.map((itemIdentifier) => ({ itemIdentifier })) };
    });
}

/**
 * Publishes the batch's metrics after it, if it recorded any. Powertools' `logMetrics` publishes every
 * time and warns "No application metrics to publish" when there is nothing, which for Herald is normal (a
 * batch of duplicates or not-yet-due messages, a reconciled dead letter marked failed) and filled local
 * runs with that line; `hasStoredMetrics()` is Powertools' answer to exactly this
 * (powertools-lambda-typescript#2036). Its other warnings still reach the function's logger.
 */
function publishRecordedMetrics(metrics: Metrics): MiddlewareObj<SQSEvent, SQSBatchResponse> {
  const publish = (): void => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: publish, onError: publish };
}
