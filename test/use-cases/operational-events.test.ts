/**
 * `GET /operational-events` with fakes: one organization's notices only, newest transition first, paged;
 * the view shows no URL and bounded answers, and the `Link` header stops at the depth bound.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryOperationalLog } from '#adapters/memory/operational-log';
import { type Notice, type NoticeKind, noticeId } from '#domain/notices/notice';
import { operationalEventsLink, toOperationalEventView } from '#http/organizations/operational-event-view';
import { listOperationalEvents } from '#use-cases/organizations/operational-events';

function notice(orgId: string, kind: NoticeKind, epoch: string): Notice {
  const key = { kind, orgId, endpointId: 'ep_0123456789ab', epoch };
  return {
    ...key,
    id: noticeId(key),
    account: 'DE89370400440532013000',
    at: epoch,
    consecutiveFailures: 4,
    disableAt: '2026-11-25T10:00:00.000Z',
    lastAnswer: { status: 503, bodyExcerpt: 'busy' },
  };
}

describe('GET /operational-events', () => {
  it('pages one organization’s notices, newest transition first, a run’s in the order they happened', async () => {
    const log = new InMemoryOperationalLog();
    await log.record(notice('org-1', 'endpoint_failing', '2026-11-20T10:00:00.000Z'));
    await log.record(notice('org-1', 'endpoint_recovered', '2026-11-20T10:00:00.000Z'));
    await log.record(notice('org-1', 'endpoint_failing', '2026-11-21T10:00:00.000Z'));
    await log.record(notice('org-2', 'endpoint_failing', '2026-11-22T10:00:00.000Z'));
    const first = await listOperationalEvents(log, 'org-1', { page: 1, perPage: 2 });
    expect(first.notices.map((n) => `${n.epoch.slice(0, 10)} ${n.kind}`)).toEqual([
      '2026-11-21 endpoint_failing',
      '2026-11-20 endpoint_recovered',
    ]);
    expect(first.hasMore).toBe(true);
    const second = await listOperationalEvents(log, 'org-1', { page: 2, perPage: 2 });
    expect(second.notices.map((n) => n.kind)).toEqual(['endpoint_failing']);
    expect(second.hasMore).toBe(false);
    const other = await listOperationalEvents(log, 'org-2', { page: 1, perPage: 10 });
    expect(other.notices.map((n) => n.orgId)).toEqual(['org-2']);
  });

  it('shows a notice in the API’s form, and links no page past the depth bound', () => {
    expect(toOperationalEventView(notice('org-1', 'endpoint_failing', '2026-11-20T10:00:00.000Z'))).toEqual({
      id: expect.stringMatching(/^ntc_[0-9a-f]{24}$/),
      type: 'endpoint_failing',
      account: 'DE89370400440532013000',
      endpoint_id: 'ep_0123456789ab',
      since: '2026-11-20 10:00:00',
      at: '2026-11-20 10:00:00',
      percent: null,
      consecutive_failures: 4,
      disable_at: '2026-11-25 10:00:00',
      reason: null,
      last_answer: { status: 503, body_excerpt: 'busy' },
      event_id: null,
      event_type: null,
      sequence: null,
      expires_at: null,
    });
    const more = { notices: [], hasMore: true };
    expect(operationalEventsLink('https://h.example', { page: 1, perPage: 10 }, more)).toContain(
      '<https://h.example/operational-events?page=2&per_page=10>; rel="next"',
    );
    expect(operationalEventsLink('https://h.example', { page: 10, perPage: 100 }, more)).not.toContain(
      'next',
    );
  });
});
