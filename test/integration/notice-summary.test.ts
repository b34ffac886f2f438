/**
 * The platform team's summary against DynamoDB Local and fauxqs's SNS: a notice's creating write files it
 * under its minute in the `by-org` index, one Query of that partition counts every organization's notices
 * of the minute in time order, the cursor moves only from the value read, and a run publishes one message
 * that an SQS queue subscribed to the topic receives, a second run none.
 */

import { SNSClient } from '@aws-sdk/client-sns';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { DynamoNoticeIndex } from '#adapters/dynamodb/notice-index';
import { DynamoSummaryCursor } from '#adapters/dynamodb/notice-summary-cursor';
import { DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { SnsSummaryPublisher } from '#adapters/sns/sns-summary-publisher';
import { type Notice, type NoticeKind, noticeId } from '#domain/notices/notice';
import { summariseNotices } from '#use-cases/organizations/notice-summary';
import { type LocalNoticeTopic, provisionNoticeTopic } from '../../scripts/local/notice-topic';
import { type IsolatedResources, isolatedResources } from '../support/resources';
import { useFixture } from '../support/use-fixture';

let resources: IsolatedResources;
let topic: LocalNoticeTopic;
let log: DynamoOperationalLog;
let index: DynamoNoticeIndex;
let cursor: DynamoSummaryCursor;
let sns: SNSClient;

useFixture(
  async () => {
    const isolated = await isolatedResources({ label: 'notice-summary' });
    const local = await provisionNoticeTopic(isolated.prefix, isolated.endpoints.sqs);
    const client = new SNSClient({});
    return {
      resources: isolated,
      topic: local,
      sns: client,
      log: new DynamoOperationalLog(isolated.documents, isolated.tableName),
      index: new DynamoNoticeIndex(isolated.documents, isolated.tableName),
      cursor: new DynamoSummaryCursor(isolated.documents, isolated.tableName),
      stop: async () => {
        client.destroy();
        await isolated.destroy();
      },
    };
  },
  (fixture) => {
    ({ resources, topic, sns, log, index, cursor } = fixture);
  },
);

const MINUTE = '2026-11-20T10:00';
const KINDS: readonly NoticeKind[] = ['endpoint_failing', 'endpoint_disabled', 'endpoint_recovered'];

function notice(n: number, at: string): Notice {
  const key = {
    kind: KINDS[n % 3] ?? 'endpoint_failing',
    orgId: `org-${n % 4}`,
    endpointId: `ep_${String(n).padStart(16, '0')}`,
    epoch: '2026-11-20T09:00:00.000Z',
  };
  return {
    ...key,
    id: noticeId(key),
    account: 'DE89370400440532013000',
    at,
    consecutiveFailures: 4,
    lastAnswer: { status: 503, bodyExcerpt: 'busy' },
  };
}

describe('notice summary on the emulators', () => {
  it('files notices by minute: one Query counts a minute’s notices of every organization, in time order', async () => {
    const stored = Array.from({ length: 30 }, (_, n) =>
      notice(n, `${MINUTE}:${String(59 - n).padStart(2, '0')}.000Z`),
    );
    // Its neighbours' notices stay in their own minutes.
    const before = notice(100, '2026-11-20T09:59:59.999Z');
    const after = notice(101, '2026-11-20T10:01:00.000Z');
    for (const n of [...stored, before, after]) expect(await log.record(n)).toBe(true);

    const all = await index.minute(MINUTE, 1000);
    expect(all.more).toBe(false);
    expect(all.heads).toHaveLength(30);
    const inTime = [...stored].sort((a, b) => a.at.localeCompare(b.at));
    expect(all.heads.map((h) => [h.at, h.kind, h.orgId, h.id])).toEqual(
      inTime.map((n) => [n.at, n.kind, n.orgId, n.id]),
    );
    expect(await index.minute(MINUTE, 10)).toMatchObject({ more: true });
    expect((await index.minute(MINUTE, 10)).heads).toHaveLength(10);
    expect(await index.minute(MINUTE, 30)).toMatchObject({ more: false });
    expect(await index.minute(MINUTE, 0)).toEqual({ heads: [], more: true });
    expect((await index.minute('2026-11-20T09:59', 10)).heads.map((h) => h.id)).toEqual([before.id]);

    // The first 20 read whole, in the order asked.
    const first = await index.read(all.heads.slice(0, 20));
    expect(first).toEqual(inTime.slice(0, 20));
  });

  it('moves the cursor only from the value read', async () => {
    expect(await cursor.last()).toBeUndefined();
    expect(await cursor.move(undefined, '2026-11-20T10:00')).toBe(true);
    expect(await cursor.move(undefined, '2026-11-20T10:05')).toBe(false);
    expect(await cursor.move('2026-11-20T09:59', '2026-11-20T10:05')).toBe(false);
    expect(await cursor.move('2026-11-20T10:00', '2026-11-20T10:01')).toBe(true);
    expect(await cursor.last()).toBe('2026-11-20T10:01');
  });

  it('publishes one message per run with notices, which a queue subscribed to the topic receives', async () => {
    // The cursor stands at 10:01 (previous test); notices of 10:02 and 10:03.
    for (let n = 200; n < 205; n++) await log.record(notice(n, `2026-11-20T10:02:0${n - 200}.000Z`));
    await log.record(notice(205, '2026-11-20T10:03:30.000Z'));
    const deps = {
      index,
      cursor,
      publisher: new SnsSummaryPublisher(sns, topic.topicArn),
      clock: () => new Date('2026-11-20T10:05:00.000Z'),
    };
    expect(await summariseNotices(deps)).toEqual({
      kind: 'sent',
      from: '2026-11-20T10:02',
      to: '2026-11-20T10:03',
      notices: 6,
    });
    expect(await summariseNotices(deps)).toEqual({ kind: 'up-to-date' });

    const received = await resources.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: topic.inboxUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 2 }),
    );
    expect(received.Messages).toHaveLength(1);
    const envelope = JSON.parse(received.Messages?.[0]?.Body ?? '{}') as { Subject: string; Message: string };
    expect(envelope.Subject).toBe('Herald: 6 operational notices, 2026-11-20 10:02 to 2026-11-20 10:03 UTC');
    expect(envelope.Message).toContain('endpoint_failing: 2');
    expect(envelope.Message).toContain('DE89…3000');
    expect(envelope.Message).not.toContain('DE89370400440532013000');
    const more = await resources.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: topic.inboxUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    expect(more.Messages ?? []).toEqual([]);
  });
});
