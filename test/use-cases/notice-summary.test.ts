/**
 * The platform team's summary with fakes and a standing clock: one message for a minute's notices of every
 * organization (counts by kind, the first 20, accounts masked, the listing commands), none for a quiet
 * minute, none twice (a retry, two runs at once), a publish failure sent again, missed minutes caught up.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryOperationalLog } from '#adapters/memory/operational-log';
import { type Notice, type NoticeKind, noticeId } from '#domain/notices/notice';
import { SUMMARY_LINES } from '#domain/notices/notice-summary';
import {
  type NoticeSummaryDeps,
  SUMMARY_MAX_COUNTED,
  SUMMARY_MAX_MINUTES,
  summariseNotices,
} from '#use-cases/organizations/notice-summary';
import { FakeClock } from '../support/fakes/clock';
import { InMemorySummaryCursor, RecordingSummaryPublisher } from '../support/fakes/notice-summary';

const IBAN = 'DE89370400440532013000';
const KINDS: readonly NoticeKind[] = ['endpoint_failing', 'endpoint_disabled', 'endpoint_recovered'];

let log: InMemoryOperationalLog;
let cursor: InMemorySummaryCursor;
let publisher: RecordingSummaryPublisher;
let clock: FakeClock;
let deps: NoticeSummaryDeps;

beforeEach(() => {
  log = new InMemoryOperationalLog();
  cursor = new InMemorySummaryCursor();
  publisher = new RecordingSummaryPublisher();
  clock = new FakeClock('2026-11-27T12:00:00.000Z');
  deps = { index: log, cursor, publisher, clock: clock.date };
});

/** A notice of endpoint `n` of organization `org-<n % orgs>`, decided at `at`. */
function notice(n: number, at: string, kind: NoticeKind = 'endpoint_failing', orgs = 3): Notice {
  const key = { kind, orgId: `org-${n % orgs}`, endpointId: `ep_${String(n).padStart(16, '0')}`, epoch: at };
  return {
    ...key,
    id: noticeId(key),
    account: IBAN,
    at,
    consecutiveFailures: 4,
    lastAnswer: { status: n % 2 === 0 ? 503 : 0, bodyExcerpt: 'https://hooks.example.com/secret?token=abc' },
  };
}

/** Settles the summary at 12:00 (its first run covers 11:58 only), so later runs start from there. */
async function startedAtNoon(): Promise<void> {
  expect(await summariseNotices(deps)).toEqual({
    kind: 'quiet',
    from: '2026-11-27T11:58',
    to: '2026-11-27T11:58',
  });
}

describe('summary of operational notices', () => {
  it('sends one message for 1,000 notices of a minute: counts by kind, 20 lines, accounts masked', async () => {
    await startedAtNoon();
    for (let n = 0; n < 1000; n++) {
      const second = String(n % 60).padStart(2, '0');
      await log.record(notice(n, `2026-11-27T11:59:${second}.${String(n).padStart(3, '0')}Z`, KINDS[n % 3]));
    }
    clock.advance(60_000);
    expect(await summariseNotices(deps)).toEqual({
      kind: 'sent',
      from: '2026-11-27T11:59',
      to: '2026-11-27T11:59',
      notices: 1000,
    });
    expect(publisher.messages).toHaveLength(1);
    const [message] = publisher.messages;
    expect(message?.subject).toBe('Herald: 1000 operational notices, 2026-11-27 11:59 UTC');
    expect(message?.subject.length).toBeLessThan(100);
    const body = message?.body ?? '';
    expect(body).toContain('endpoint_failing: 334');
    expect(body).toContain('endpoint_disabled: 333');
    expect(body).toContain('endpoint_recovered: 333');
    expect(body).toContain('from 3 organizations');
    const lines = body.split('\n').filter((line) => / {2}ep_\d{16} {2}/.test(line));
    expect(lines).toHaveLength(SUMMARY_LINES);
    // Time order: the minute's first second first.
    expect(lines[0]).toMatch(
      /^ {2}2026-11-27 11:59:00 {2}org-\d {2}DE89…3000 {2}ep_\d{16} {2}endpoint_\w+ {2}(503|no answer)$/,
    );
    expect(body).toContain('… and 980 more');
    for (const org of ['org-0', 'org-1', 'org-2']) {
      expect(body).toContain(`herald operational-events list --org ${org}`);
    }
    // Never the account in full, never an answer's body (it may quote a URL).
    expect(body).not.toContain(IBAN);
    expect(body).not.toContain('hooks.example.com');
  });

  it('sends nothing for minutes without notices, and moves on', async () => {
    await startedAtNoon();
    clock.advance(5 * 60_000);
    expect(await summariseNotices(deps)).toEqual({
      kind: 'quiet',
      from: '2026-11-27T11:59',
      to: '2026-11-27T12:03',
    });
    expect(publisher.messages).toEqual([]);
    expect(cursor.value).toBe('2026-11-27T12:03');
  });

  it('sends nothing twice: a retry of the same run, and two runs at once', async () => {
    await startedAtNoon();
    await log.record(notice(1, '2026-11-27T11:59:10.000Z'));
    clock.advance(60_000);
    expect((await summariseNotices(deps)).kind).toBe('sent');
    expect(await summariseNotices(deps)).toEqual({ kind: 'up-to-date' });
    expect(publisher.messages).toHaveLength(1);

    await log.record(notice(2, '2026-11-27T12:00:10.000Z'));
    clock.advance(60_000);
    const outcomes = await Promise.all([summariseNotices(deps), summariseNotices(deps)]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['sent', 'taken']);
    expect(publisher.messages).toHaveLength(2);
  });

  it('waits for a minute to settle before covering it', async () => {
    await startedAtNoon();
    await log.record(notice(1, '2026-11-27T11:59:59.900Z'));
    clock.advance(59_000);
    expect(await summariseNotices(deps)).toEqual({ kind: 'up-to-date' });
    clock.advance(1_000);
    expect((await summariseNotices(deps)).kind).toBe('sent');
  });

  it('catches up missed minutes in one message', async () => {
    await startedAtNoon();
    await log.record(notice(1, '2026-11-27T11:59:10.000Z', 'endpoint_failing'));
    await log.record(notice(2, '2026-11-27T12:02:10.000Z', 'endpoint_disabled'));
    // The function was down for four runs.
    clock.advance(5 * 60_000);
    expect(await summariseNotices(deps)).toEqual({
      kind: 'sent',
      from: '2026-11-27T11:59',
      to: '2026-11-27T12:03',
      notices: 2,
    });
    expect(publisher.messages[0]?.subject).toBe(
      'Herald: 2 operational notices, 2026-11-27 11:59 to 2026-11-27 12:03 UTC',
    );
    expect(publisher.messages[0]?.body).toMatch(/endpoint_failing: 1\n {2}endpoint_disabled: 1/);
  });

  it('covers a long outage an hour per run, one message each', async () => {
    await startedAtNoon();
    await log.record(notice(1, '2026-11-27T12:30:00.000Z'));
    await log.record(notice(2, '2026-11-27T13:30:00.000Z'));
    clock.advance(3 * 60 * 60_000);
    const first = await summariseNotices(deps);
    expect(first).toMatchObject({ kind: 'sent', from: '2026-11-27T11:59', notices: 1 });
    expect(first.kind === 'sent' && first.to).toBe('2026-11-27T12:58');
    expect(SUMMARY_MAX_MINUTES).toBe(60);
    const second = await summariseNotices(deps);
    expect(second).toMatchObject({
      kind: 'sent',
      from: '2026-11-27T12:59',
      to: '2026-11-27T13:58',
      notices: 1,
    });
    expect(publisher.messages).toHaveLength(2);
  });

  it('sends again after a failed publish, and only once', async () => {
    await startedAtNoon();
    await log.record(notice(1, '2026-11-27T11:59:10.000Z'));
    clock.advance(60_000);
    publisher.failing = 1;
    await expect(summariseNotices(deps)).rejects.toThrow('SNS unavailable');
    expect(cursor.value).toBe('2026-11-27T11:58');
    expect((await summariseNotices(deps)).kind).toBe('sent');
    expect(await summariseNotices(deps)).toEqual({ kind: 'up-to-date' });
    expect(publisher.messages).toHaveLength(1);
  });

  it('starts with the latest complete minute: nothing from before its first run', async () => {
    await log.record(notice(1, '2026-11-27T11:50:00.000Z'));
    await startedAtNoon();
    expect(publisher.messages).toEqual([]);
  });

  it('counts a bounded number of notices, says so, and leaves the next minutes to the next run', async () => {
    await startedAtNoon();
    for (let n = 0; n <= SUMMARY_MAX_COUNTED; n++) {
      // Straight into the fake's list: its conditional record checks every stored id.
      const at = `2026-11-27T11:59:${String(n % 60).padStart(2, '0')}.000Z`;
      log.notices.push(notice(n, at, 'endpoint_failing', 50));
    }
    await log.record(notice(0, '2026-11-27T12:00:30.000Z', 'endpoint_recovered'));
    clock.advance(2 * 60_000);
    expect(await summariseNotices(deps)).toEqual({
      kind: 'sent',
      from: '2026-11-27T11:59',
      to: '2026-11-27T11:59',
      notices: SUMMARY_MAX_COUNTED,
    });
    const message = publisher.messages[0];
    expect(message?.subject).toBe(
      `Herald: ${SUMMARY_MAX_COUNTED}+ operational notices, 2026-11-27 11:59 UTC`,
    );
    expect(message?.body).toContain(`counting stopped at ${SUMMARY_MAX_COUNTED}`);
    expect(message?.body).toContain('… and 40 more organizations');
    expect(await summariseNotices(deps)).toEqual({
      kind: 'sent',
      from: '2026-11-27T12:00',
      to: '2026-11-27T12:00',
      notices: 1,
    });
    expect(publisher.messages[1]?.body).toContain('endpoint_recovered: 1');
  });
});
