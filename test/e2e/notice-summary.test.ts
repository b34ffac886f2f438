/**
 * The platform team's summary through the local runtime: the real `summarise-notices` handler, invoked by
 * the runtime's schedule (here every 2 s instead of every minute), publishes to the fauxqs topic, whose
 * subscribed inbox queue receives exactly one message for a minute's notices, however many runs follow.
 */
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoSummaryCursor } from '#adapters/dynamodb/notice-summary-cursor';
import { DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { type Notice, type NoticeKind, noticeId } from '#domain/notices/notice';
import { addMinutes, noticeMinute } from '#domain/notices/notice-minute';
import { type LocalRuntime, startLocalRuntime } from '../../scripts/local/runtime';
import { testEndpoints, uniquePrefix } from '../support/resources';
import { sleep, waitFor } from '../support/wait';

const EVERY_MS = 2_000;
let runtime: LocalRuntime;
let sqs: SQSClient;

beforeAll(async () => {
  runtime = await startLocalRuntime({
    endpoints: testEndpoints(),
    prefix: uniquePrefix('summary'),
    noticeSummaryEveryMs: EVERY_MS,
  });
  sqs = new SQSClient({});
});
afterAll(async () => {
  sqs?.destroy();
  await runtime?.stop();
});

function notice(n: number, kind: NoticeKind, at: string): Notice {
  const key = { kind, orgId: `org-${n % 2}`, endpointId: `ep_${String(n).padStart(16, '0')}`, epoch: at };
  return { ...key, id: noticeId(key), account: 'NL91ABNA0417164300', at, consecutiveFailures: 4 };
}

describe('notice summary in the local runtime', () => {
  it('sends one message for a minute’s notices to the topic’s subscribers', async () => {
    const documents = createDocumentClient();
    try {
      // Five minutes ago is long settled, and before any minute the runs so far covered (the first run
      // starts at the latest complete one): the notices wait until the cursor is put back before them.
      const minute = addMinutes(noticeMinute(new Date().toISOString()), -5);
      const log = new DynamoOperationalLog(documents, runtime.tableName);
      for (let n = 0; n < 5; n++) {
        await log.record(notice(n, n < 3 ? 'endpoint_failing' : 'endpoint_disabled', `${minute}:1${n}.000Z`));
      }
      // Moved from whatever a run set meanwhile (a run may move it between the read and the write).
      const cursor = new DynamoSummaryCursor(documents, runtime.tableName);
      await waitFor(async () => cursor.move(await cursor.last(), addMinutes(minute, -1)), {
        what: 'the cursor to be set',
      });

      const received = await waitFor(
        async () => {
          const out = await sqs.send(
            new ReceiveMessageCommand({ QueueUrl: runtime.noticeTopic.inboxUrl, WaitTimeSeconds: 1 }),
          );
          return out.Messages?.length ? out.Messages : undefined;
        },
        { what: 'the summary in the inbox', timeoutMs: 30_000 },
      );
      expect(received).toHaveLength(1);
      const envelope = JSON.parse(received[0]?.Body ?? '{}') as { Subject: string; Message: string };
      expect(envelope.Subject).toMatch(/^Herald: 5 operational notices, /);
      expect(envelope.Message).toContain('endpoint_failing: 3');
      expect(envelope.Message).toContain('endpoint_disabled: 2');
      expect(envelope.Message).toContain('NL91…4300');
      expect(envelope.Message).not.toContain('NL91ABNA0417164300');

      // Later runs find nothing new: no second message.
      await sleep(3 * EVERY_MS);
      const later = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: runtime.noticeTopic.inboxUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
        }),
      );
      expect(later.Messages ?? []).toEqual([]);
    } finally {
      documents.destroy();
    }
  });
});
