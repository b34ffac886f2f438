/**
 * Erasing an account's operational notices against DynamoDB Local: the organization's notices naming the
 * account go with their minute index entries, in chunks that read at most `NOTICE_ERASE_CHUNK` of the
 * organization's notices each, whatever account they name; another account's and another organization's
 * stay; a cursor only goes on within the organization's own notices; and a delivery write on a notice
 * erased meanwhile is refused without leaving a partial item behind.
 */
import {
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoNoticeIndex } from '#adapters/dynamodb/notice-index';
import { DynamoNoticeDeliveries, DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { NOTICE_ERASE_CHUNK } from '#config/limits';
import { ValidationError } from '#domain/errors';
import { makeNotice, type Notice, type NoticeRef, noticeSortKey } from '#domain/notices/notice';
import { noticeMinute } from '#domain/notices/notice-minute';
import { testIban } from '../support/delivery-queue-helpers';
import { isolatedTable } from '../support/resources';
import { useFixture } from '../support/use-fixture';

let log: DynamoOperationalLog;
let deliveries: DynamoNoticeDeliveries;
let index: DynamoNoticeIndex;
let documents: DynamoDBDocumentClient;
let tableName: string;

useFixture(
  async () => {
    const { documents, tableName, destroy } = await isolatedTable('notice-erasure');
    return {
      documents,
      tableName,
      log: new DynamoOperationalLog(documents, tableName),
      deliveries: new DynamoNoticeDeliveries(documents, tableName),
      index: new DynamoNoticeIndex(documents, tableName),
      stop: destroy,
    };
  },
  (fixture) => {
    ({ log, deliveries, index, documents, tableName } = fixture);
  },
);

const AT = '2026-11-20T10:00:00.000Z';

/** A failing run's notice of `account` in `orgId`, its epoch `minute` minutes after {@link AT}. */
function notice(orgId: string, account: string, minute: number): Notice {
  const epoch = new Date(Date.parse(AT) + minute * 60_000).toISOString();
  const key = { kind: 'endpoint_failing' as const, orgId, endpointId: `ep_${account.slice(-12)}`, epoch };
  return makeNotice(key, { account, at: epoch, consecutiveFailures: 4 });
}

/** Where a notice is. */
function refOf(stored: Notice): NoticeRef {
  return { id: stored.id, orgId: stored.orgId, sortKey: noticeSortKey(stored) };
}

/** The accounts the organization's stored notices name, each with how many (one Query per page). */
async function accountsOf(orgId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documents.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `OPS#${orgId}` },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? [])
      counts[String(item.account)] = (counts[String(item.account)] ?? 0) + 1;
    start = out.LastEvaluatedKey;
  } while (start !== undefined);
  return counts;
}

/**
 * `count` notices of `account` between the recorded ones (their epochs a second past each minute), as
 * the log stores them: many items are needed to pass one chunk, and a batch write stores them quickly.
 */
async function fill(orgId: string, account: string, count: number): Promise<void> {
  const items = Array.from({ length: count }, (_, i) => {
    const filler = notice(orgId, account, i);
    const epoch = new Date(Date.parse(filler.epoch) + 1000).toISOString();
    return {
      pk: `OPS#${orgId}`,
      sk: noticeSortKey({ ...filler, epoch }),
      id: filler.id,
      account,
      kind: filler.kind,
    };
  });
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await documents.send(new BatchWriteCommand({ RequestItems: { [tableName]: batch } }));
  }
}

describe("erasing an account's notices on DynamoDB", () => {
  it("deletes the organization's notices naming it in bounded chunks, with their index entries, and no other", async () => {
    const orgId = `org-${testIban()}`;
    const [iban, other] = [testIban(), testIban()];
    const mine = [notice(orgId, iban, 0), notice(orgId, iban, 5), notice(orgId, iban, 2_000)];
    const theirs = [notice(orgId, other, 1), notice(`${orgId}-b`, iban, 0)];
    for (const stored of [...mine, ...theirs]) expect(await log.record(stored)).toBe(true);
    // Another account's notices between them, more than one chunk reads.
    await fill(orgId, other, NOTICE_ERASE_CHUNK + 10);

    const first = await log.eraseAccountNotices(orgId, iban);
    // The first chunk reached the notices of minutes 0 and 5, not the one of minute 2,000.
    expect(first.erased).toBe(2);
    expect(first.cursor).toEqual(expect.any(String));
    expect(await accountsOf(orgId)).toEqual({ [iban]: 1, [other]: NOTICE_ERASE_CHUNK + 11 });
    const second = await log.eraseAccountNotices(orgId, iban, first.cursor);
    expect(second).toEqual({ erased: 1 });

    expect(await accountsOf(orgId)).toEqual({ [other]: NOTICE_ERASE_CHUNK + 11 });
    expect(await accountsOf(`${orgId}-b`)).toEqual({ [iban]: 1 });
    // The minute index entries went with their items.
    const { heads } = await index.minute(noticeMinute(AT), 100);
    expect(heads.filter((head) => head.orgId.startsWith(orgId)).map((head) => head.id)).toEqual([
      theirs[1]?.id,
    ]);
    expect(await log.page(orgId, 0, 5)).toMatchObject({ hasMore: true });
    expect((await log.page(orgId, 0, 5)).notices.every((n) => n.account === other)).toBe(true);
  });

  it('refuses a cursor it did not hand out, naming cursor, and goes on only within the organization', async () => {
    const orgId = `org-${testIban()}`;
    const iban = testIban();
    await log.record(notice(orgId, iban, 0));
    const foreign = Buffer.from(JSON.stringify({ pk: 'OPS#another', sk: '0' })).toString('base64url');
    for (const cursor of ['not-a-cursor', '', foreign]) {
      const error = await log.eraseAccountNotices(orgId, iban, cursor).catch((e: unknown) => e);
      expect(error, cursor).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).params.map((p) => p.name)).toEqual(['cursor']);
    }
    expect(await accountsOf(orgId)).toEqual({ [iban]: 1 });
  });

  it('refuses every delivery write on a notice erased meanwhile, leaving no item behind', async () => {
    const orgId = `org-${testIban()}`;
    const iban = testIban();
    const stored = notice(orgId, iban, 0);
    await log.record(stored);
    const ref = refOf(stored);
    const now = Date.now();
    // A consumer leased the first attempt, then the account was erased while it was sending.
    const claim = { expectedRetries: 0, untilEpochMs: now + 60_000, nowEpochMs: now, dueByEpochMs: now };
    expect(await deliveries.takeLease(ref, claim)).toBe(true);
    expect(await log.eraseAccountNotices(orgId, iban)).toEqual({ erased: 1 });
    const attempt = {
      deliveredAt: new Date(now).toISOString(),
      responseStatus: 500,
      responseBody: 'busy',
      responseTimeMs: 5,
    };
    expect(await deliveries.recordAttempt(ref, attempt, 'pending', now + 10_000)).toMatchObject({
      retries: 0,
    });
    expect(await deliveries.recordAttempt(ref, attempt, 'success')).toMatchObject({ retries: 0 });
    expect(await deliveries.settlePending(ref, 'failed')).toBe(false);
    expect(await deliveries.takeLease(ref, claim)).toBe(false);
    const item = await documents.send(
      new GetCommand({
        TableName: tableName,
        Key: { pk: `OPS#${orgId}`, sk: ref.sortKey },
        ConsistentRead: true,
      }),
    );
    expect(item.Item).toBeUndefined();
    expect(await deliveries.readNotice(ref)).toBeUndefined();
  });
});
