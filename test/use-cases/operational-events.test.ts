/**
 * `GET /operational-events` with fakes: one organization's notices only, newest transition first, paged;
 * the view shows no URL and bounded answers, and the `Link` header stops at the depth bound;
 * `GET /operational-events/{id}`: the notice with its attempts to the operational webhook.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryOperationalLog } from '#adapters/memory/operational-log';
import { NotFoundError } from '#domain/errors';
import { type Notice, type NoticeKind, noticeId, noticeSortKey } from '#domain/notices/notice';
import {
  operationalEventsLink,
  toOperationalEventDetailView,
  toOperationalEventView,
} from '#http/organizations/operational-event-view';
import { getOperationalEvent, listOperationalEvents } from '#use-cases/organizations/operational-events';

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
    const listed = { webhookStatus: 'pending' as const, webhookRetries: 0 };
    const shown = notice('org-1', 'endpoint_failing', '2026-11-20T10:00:00.000Z');
    expect(toOperationalEventView({ ...shown, ...listed })).toEqual({
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
      webhook_status: 'pending',
      webhook_retries: 0,
    });
    const more = { notices: [], hasMore: true };
    expect(operationalEventsLink('https://h.example', { page: 1, perPage: 10 }, more)).toContain(
      '<https://h.example/operational-events?page=2&per_page=10>; rel="next"',
    );
    expect(operationalEventsLink('https://h.example', { page: 10, perPage: 100 }, more)).not.toContain(
      'next',
    );
  });

  it('shows one notice with its delivery’s attempts, and none of another organization', async () => {
    const log = new InMemoryOperationalLog();
    const stored = notice('org-1', 'endpoint_failing', '2026-11-20T10:00:00.000Z');
    await log.record(stored);
    const ref = { id: stored.id, orgId: 'org-1', sortKey: noticeSortKey(stored) };
    const attempt = {
      deliveredAt: '2026-11-20T10:00:01.000Z',
      responseStatus: 500,
      responseBody: 'down',
      responseTimeMs: 12,
      url: 'https://ops.example.com/herald?token=secret',
      signingKeys: ['whk_0123456789abcdef'],
    };
    await log.recordAttempt(ref, attempt, 'pending', Date.parse('2026-11-20T10:00:11.000Z'));
    const view = toOperationalEventDetailView(await getOperationalEvent(log, 'org-1', stored.id));
    expect(view).toMatchObject({ id: stored.id, webhook_status: 'pending', webhook_retries: 1 });
    expect(view.webhook_deliveries).toEqual([
      {
        delivery_at: '2026-11-20 10:00:01',
        response_status: 500,
        response_body: 'down',
        response_time: 12,
        url: 'https://ops.example.com/herald?token=***',
        signing_keys: ['whk_0123456789abcdef'],
      },
    ]);
    const [listed] = (await listOperationalEvents(log, 'org-1', { page: 1, perPage: 1 })).notices;
    expect(listed).toMatchObject({ webhookStatus: 'pending', webhookRetries: 1 });
    await expect(getOperationalEvent(log, 'org-2', stored.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
