/**
 * The runbook's `events requeue`: pending events triggered before a cut-off get a delivery message again;
 * recent, settled and other organizations' events do not. Real DynamoDB Local and SQS emulator.
 */
import { randomUUID } from 'node:crypto';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { SqsDeliveryQueue } from '#adapters/sqs/sqs-delivery-queue';
import { OPERATOR_PAGES_PER_REQUEST } from '#config/limits';
import { requeuePending } from '#use-cases/events/redeliver-events';
import { storeInLog } from '#use-cases/events/store-in-log';
import { testIban } from '../support/delivery-queue-helpers';
import { type IsolatedResources, isolatedResources } from '../support/resources';

let resources: IsolatedResources;
let events: DynamoEventStore;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'requeue' });
  events = new DynamoEventStore(resources.documents, resources.tableName);
});

afterAll(async () => {
  await resources?.destroy();
});

async function stored(orgId: string, triggeredAt: string, status: 'pending' | 'skipped'): Promise<string> {
  const id = randomUUID();
  // The publish protocol, so concurrent arrangements of one account get consecutive sequences.
  const draft = {
    id,
    orgId,
    // An account each: the requeue walks the organization, whatever the accounts.
    account: testIban(),
    type: 'credit_transfer_status_change',
    triggeredAt,
    webhookStatus: status,
    sequenceFloor: 0,
  };
  expect((await storeInLog({ events, now: Date.now }, draft, () => '{}')).created).toBe(true);
  return id;
}

async function queuedIds(): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const out = await resources.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: resources.queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
      }),
    );
    if (!out.Messages?.length) return ids.sort();
    for (const message of out.Messages) ids.push((JSON.parse(message.Body ?? '{}') as { id: string }).id);
  }
}

describe('requeuePending', () => {
  it('queues exactly the organization’s pending events triggered at or before the cut-off', async () => {
    const orgId = randomUUID();
    const old = await stored(orgId, '2026-01-01T00:00:00.000Z', 'pending');
    const atCutOff = await stored(orgId, '2026-01-01T01:00:00.000Z', 'pending');
    await stored(orgId, '2026-01-01T02:00:00.000Z', 'pending');
    await stored(orgId, '2026-01-01T00:30:00.000Z', 'skipped');
    await stored(randomUUID(), '2026-01-01T00:00:00.000Z', 'pending');

    const deps = { events, queue: new SqsDeliveryQueue(resources.sqs, resources.queueUrl) };
    const result = await requeuePending(deps, orgId, '2026-01-01T01:00:00.000Z');

    expect([...result.queued].sort()).toEqual([old, atCutOff].sort());
    expect(result.more).toBe(false);
    expect(await queuedIds()).toEqual([old, atCutOff].sort());
  });

  // 505 events stored and queued: minutes, not seconds, on two cores shared with the rest of the suite.
  it('examines a bounded number of events per call and goes on from the cursor it returns', {
    timeout: 180_000,
  }, async () => {
    const orgId = randomUUID();
    const total = OPERATOR_PAGES_PER_REQUEST * 100 + 5;
    const ids: string[] = [];
    for (let start = 0; start < total; start += 25) {
      const chunk = Array.from({ length: Math.min(25, total - start) }, (_, i) =>
        stored(orgId, new Date(Date.UTC(2026, 0, 1) + (start + i) * 1000).toISOString(), 'pending'),
      );
      ids.push(...(await Promise.all(chunk)));
    }
    const deps = { events, queue: new SqsDeliveryQueue(resources.sqs, resources.queueUrl) };
    const first = await requeuePending(deps, orgId, '2026-02-01T00:00:00.000Z');
    expect(first.queued).toHaveLength(OPERATOR_PAGES_PER_REQUEST * 100);
    expect(first.more).toBe(true);
    const second = await requeuePending(deps, orgId, '2026-02-01T00:00:00.000Z', first.cursor);
    expect(second).toMatchObject({ more: false });
    expect([...first.queued, ...second.queued].sort()).toEqual(ids.sort());
    expect(await queuedIds()).toEqual(ids.sort());
  });
});
