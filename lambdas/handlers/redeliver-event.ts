import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { loadEnv } from '#config/env';
import { parseEventId } from '#http/events/event-request';
import { toRedeliveryView } from '#http/events/redelivery-view';
import { orgIdOf } from '#http/request';
import { json } from '#http/response';
import { redeliverEvent } from '#use-cases/events/redeliver-events';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME', 'QUEUE_URL']);
const deps = {
  events: new DynamoEventStore(createDocumentClient(), env.TABLE_NAME),
  queue: new SqsDeliveryQueue(createSqsClient(), env.QUEUE_URL),
  now: Date.now,
};

/**
 * `POST /events/{id}/redeliver`: a new cycle of up to 20 attempts for a failed or skipped event, the next
 * attempt now for a pending one.
 */
export const handler = apiHandler(async (event) => {
  const id = parseEventId(event);
  return json(202, toRedeliveryView(await redeliverEvent(deps, orgIdOf(event), id)));
});
