import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { loadEnv } from '#config/env';
import { json, orgIdOf } from '#http/request';
import { resetWebhooks } from '#use-cases/redeliver-events';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'QUEUE_URL']);
const deps = {
  events: new DynamoEventStore(createDocumentClient(), env.TABLE_NAME),
  queue: new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL),
};

/** `POST /management/webhooks/reset`: redeliver every failed or skipped event of the organization. */
export const handler = apiHandler(async (event) => json(202, await resetWebhooks(deps, orgIdOf(event))));
