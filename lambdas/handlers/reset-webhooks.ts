import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { loadEnv } from '#config/env';
import { toResetView } from '#http/events/redelivery-view';
import { orgIdOf } from '#http/request';
import { json } from '#http/response';
import { resetWebhooks } from '#use-cases/events/reset-webhooks';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'QUEUE_URL']);
const deps = {
  events: new DynamoEventStore(createDocumentClient(), env.TABLE_NAME),
  queue: new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL),
};

/** `POST /management/webhooks/reset`: redeliver the next chunk of the organization's failed or skipped events. */
export const handler = apiHandler(async (event) =>
  json(202, toResetView(await resetWebhooks(deps, orgIdOf(event)))),
);
