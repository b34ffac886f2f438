/**
 * The test events' rate limit against DynamoDB Local: one `TESTS#<org>#<IBAN>` item per account, rewritten
 * in place, taking the window's limit and no more (concurrent takes included), starting again in the next
 * window, separate per organization's account, removed by `forget`.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoTestEventAllowance } from '#adapters/dynamodb/test-event-allowance';
import { TEST_EVENTS_PER_WINDOW } from '#config/limits';
import { testEventWindow } from '#delivery/test-event-rule';
import { type IsolatedResources, isolatedResources } from '../support/resources';

const IBAN = 'DE89370400440532013000';
const MINUTE = 60_000;
/** A moment mid-minute. */
const NOW = Date.parse('2026-11-20T10:00:30.000Z');

let resources: IsolatedResources;
let allowance: DynamoTestEventAllowance;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'test-event-allowance' });
  allowance = new DynamoTestEventAllowance(resources.documents, resources.tableName);
});
afterAll(async () => {
  await resources?.destroy();
});

async function item(orgId: string, iban = IBAN) {
  const out = await resources.documents.send(
    new GetCommand({
      TableName: resources.tableName,
      Key: { pk: `TESTS#${orgId}#${iban}`, sk: 'TESTS' },
      ConsistentRead: true,
    }),
  );
  return out.Item;
}

async function takes(orgId: string, count: number, nowMs = NOW): Promise<boolean[]> {
  const taken: boolean[] = [];
  for (let i = 0; i < count; i++) taken.push(await allowance.take(orgId, IBAN, testEventWindow(nowMs)));
  return taken;
}

describe('the test events rate limit', () => {
  it("takes the window's limit, then refuses until the next window, in one item per account", async () => {
    const window = testEventWindow(NOW);
    expect(await takes('org-a', TEST_EVENTS_PER_WINDOW + 2)).toEqual([
      ...Array.from({ length: TEST_EVENTS_PER_WINDOW }, () => true),
      false,
      false,
    ]);
    expect(await item('org-a')).toEqual({
      pk: `TESTS#org-a#${IBAN}`,
      sk: 'TESTS',
      window_start: window.start,
      sent: TEST_EVENTS_PER_WINDOW,
      expires_at: window.expiresAt,
    });
    // The next minute: the same item, started again.
    expect(await takes('org-a', 1, NOW + MINUTE)).toEqual([true]);
    expect(await item('org-a')).toMatchObject({ window_start: window.start + 60, sent: 1 });
    const partition = await resources.documents.send(
      new QueryCommand({
        TableName: resources.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `TESTS#org-a#${IBAN}` },
      }),
    );
    expect(partition.Items).toHaveLength(1);
    // A clock behind the stored window is refused, not allowed to start the window over.
    expect(await takes('org-a', 1, NOW)).toEqual([false]);
  });

  it('takes exactly the limit when many ask at once', async () => {
    const window = testEventWindow(NOW);
    const taken = await Promise.all(
      Array.from({ length: TEST_EVENTS_PER_WINDOW * 2 }, () => allowance.take('org-b', IBAN, window)),
    );
    expect(taken.filter(Boolean)).toHaveLength(TEST_EVENTS_PER_WINDOW);
    expect(await item('org-b')).toMatchObject({ sent: TEST_EVENTS_PER_WINDOW });
  });

  it("keeps each organization's account apart, and forgets one without touching the other", async () => {
    await takes('org-c', 1);
    await takes('org-d', 1);
    await allowance.forget('org-c', IBAN);
    expect(await item('org-c')).toBeUndefined();
    expect(await item('org-d')).toMatchObject({ sent: 1 });
    // Forgetting what is not there is no error (a repeated deletion).
    await allowance.forget('org-c', IBAN);
  });
});
