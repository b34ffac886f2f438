import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { createDocumentClient, createSnsClient } from '#adapters/aws-clients';
import { DynamoNoticeIndex } from '#adapters/dynamodb/notice-index';
import { DynamoSummaryCursor } from '#adapters/dynamodb/notice-summary-cursor';
import { logger } from '#adapters/observability';
import { SnsSummaryPublisher } from '#adapters/sns/sns-summary-publisher';
import { loadEnv } from '#config/env';
import { systemClock } from '#domain/time';
import { type NoticeSummaryDeps, summariseNotices } from '#use-cases/organizations/notice-summary';

const env = loadEnv(['TABLE_NAME', 'NOTICE_TOPIC_ARN']);
const documents = createDocumentClient();
const deps: NoticeSummaryDeps = {
  index: new DynamoNoticeIndex(documents, env.TABLE_NAME),
  cursor: new DynamoSummaryCursor(documents, env.TABLE_NAME),
  publisher: new SnsSummaryPublisher(createSnsClient(), env.NOTICE_TOPIC_ARN),
  clock: systemClock,
};

/**
 * Every minute (an EventBridge schedule; the local runtime's timer): the platform team's one message
 * about the operational notices of the minutes completed since the last run. The schedule's event
 * carries nothing it needs. A failure throws: Lambda retries the invocation, and failures lasting 15 minutes
 * raise the `NoticeSummaryErrors` alarm.
 */
export const handler = middy<unknown, void>()
  .use(injectLambdaContext(logger))
  .handler(async () => {
    const outcome = await summariseNotices(deps);
    if (outcome.kind === 'sent') logger.info('Operational notice summary sent', { ...outcome });
    if (outcome.kind === 'taken')
      logger.info('Operational notice summary sent by another run', { ...outcome });
  });
