import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { loadEnv } from '#config/env';
import { json, orgIdOf, pathParam } from '#http/request';
import { parseEventId } from '#use-cases/read-events';
import { redeliverEvent } from '#use-cases/redeliver-events';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'QUEUE_URL']);
const deps = {
  events: new DynamoEventStore(createDocumentClient(), env.TABLE_NAME),
  queue: new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL),
};

/** `POST /events/{id}/redeliver`: a new cycle of up to 20 attempts for a failed or skipped event. */
export const handler = apiHandler(async (event) => {
  const id = parseEventId(pathParam(event, 'id'));
  return json(202, await redeliverEvent(deps, orgIdOf(event), id));
});
