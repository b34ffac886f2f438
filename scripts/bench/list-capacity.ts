/**
 * Capacity units of `GET /events` pages and of a reset over 10,000 events, as DynamoDB Local reports them,
 * and the seeding of delivered events it (and the portal bench) reads.
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { eventItem } from '#adapters/dynamodb/events/event-items';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { MAX_LIST_DEPTH } from '#config/limits';
import { ValidationError } from '#domain/errors';
import { uuidv7 } from '#domain/ids';
import { parseListQuery } from '#http/events/list-query';
import { resetWebhooks } from '#use-cases/events/reset-webhooks';
import { type CapacityTally, SAMPLE_PAYLOAD, tally } from './capacity';

/** Every 50th of the 10,000 listed events failed (200 in all); the others were delivered. */
const FAILED_EVERY = 50;

/**
 * Writes `count` delivered events of one organization and account straight into the table (one second
 * apart from 2026-01-01, BatchWriteItem of 25), bypassing the stream filter, which drops non-pending items.
 * With `failedEvery`, every such event failed instead (and is in the `failed` status index).
 */
export async function seedDeliveredEvents(
  client: DynamoDBDocumentClient,
  tableName: string,
  orgId: string,
  account: string,
  count: number,
  failedEvery = 0,
): Promise<void> {
  const start = Date.parse('2026-01-01T00:00:00Z');
  const items = Array.from({ length: count }, (_, i) => {
    const id = uuidv7(start + i * 1000);
    const triggeredAt = new Date(start + i * 1000).toISOString();
    const failed = failedEvery > 0 && i % failedEvery === 0;
    const item = eventItem({
      id,
      orgId,
      account,
      type: 'credit_transfer_status_change',
      triggeredAt,
      sequence: i + 1,
      body: JSON.stringify({ id, payload: SAMPLE_PAYLOAD }),
      webhookStatus: 'pending',
    });
    return failed
      ? { ...item, failed_org: item.gsi1pk, webhook_status: 'failed', webhook_retries: 20 }
      : { ...item, webhook_status: 'success', webhook_retries: 1 };
  });
  for (let i = 0; i < items.length; i += 25) {
    const chunk = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: chunk } }));
  }
}

/**
 * Units of `GET /events` page 1, the deepest page and page 50 (per_page 100), of
 * `?webhook_status=failed` page 1 and of one `POST /management/webhooks/reset` request, with 10,000
 * events in one organization, 200 of them failed.
 */
export async function measureListCapacity(
  client: DynamoDBDocumentClient,
  tableName: string,
): Promise<Record<string, CapacityTally>> {
  const orgId = 'bench-list-org';
  await seedDeliveredEvents(client, tableName, orgId, 'DE89370400440532013000', 10_000, FAILED_EVERY);
  const result: Record<string, CapacityTally> = {};
  for (const page of [1, MAX_LIST_DEPTH / 100]) {
    const t = tally();
    const store = new DynamoEventStore(client, tableName, t.listener);
    const out = await store.listEvents({ orgId, offset: (page - 1) * 100, limit: 100 });
    if (out.events.length !== 100) throw new Error(`page ${page} returned ${out.events.length} events`);
    result[`page ${page}`] = t.sum;
  }
  // Page 50 is past the listing depth: the API answers 400 before reading anything.
  try {
    parseListQuery({ page: ['50'], per_page: ['100'] });
    throw new Error('page 50 was accepted');
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    result['page 50 (400, nothing read)'] = {};
  }
  const filter = tally();
  const filtered = await new DynamoEventStore(client, tableName, filter.listener).listEvents({
    orgId,
    offset: 0,
    limit: 100,
    status: 'failed',
  });
  if (filtered.events.length !== 100) throw new Error(`failed filter returned ${filtered.events.length}`);
  result['webhook_status=failed page 1'] = filter.sum;
  const reset = tally();
  const queue = { enqueue: async () => undefined, postpone: async () => undefined };
  const { queued } = await resetWebhooks(
    { events: new DynamoEventStore(client, tableName, reset.listener), queue },
    orgId,
  );
  result[`reset (one request, ${queued.length} queued)`] = reset.sum;
  return result;
}
