/**
 * The minutes notices are filed under (UTC, across hour and day ends), when a minute counts as complete,
 * and the summary's wording for one notice: singular, the share of a disabling-soon notice, a missing
 * answer, an unmasked account never shown.
 */
import { describe, expect, it } from 'vitest';
import { type Notice, noticeId } from '#domain/notices/notice';
import {
  addMinutes,
  latestSettledMinute,
  MINUTE_SETTLE_MS,
  minutesBetween,
  noticeMinute,
} from '#domain/notices/notice-minute';
import { renderSummary } from '#domain/notices/notice-summary';

describe('notice minutes', () => {
  it('files a time under its UTC minute, whatever its offset', () => {
    expect(noticeMinute('2026-11-27T23:59:59.999Z')).toBe('2026-11-27T23:59');
    expect(noticeMinute('2026-11-28T00:59:59.999+01:00')).toBe('2026-11-27T23:59');
    expect(() => noticeMinute('yesterday')).toThrow(RangeError);
  });

  it('steps across hour and day ends', () => {
    expect(addMinutes('2026-12-31T23:59', 1)).toBe('2027-01-01T00:00');
    expect(addMinutes('2027-01-01T00:00', -1)).toBe('2026-12-31T23:59');
    expect(minutesBetween('2026-11-27T10:58', '2026-11-27T11:01')).toEqual([
      '2026-11-27T10:58',
      '2026-11-27T10:59',
      '2026-11-27T11:00',
      '2026-11-27T11:01',
    ]);
    expect(minutesBetween('2026-11-27T11:01', '2026-11-27T11:00')).toEqual([]);
  });

  it('takes a minute as complete once it ended the settling wait ago', () => {
    expect(MINUTE_SETTLE_MS).toBe(60_000);
    expect(latestSettledMinute(new Date('2026-11-27T12:02:00.000Z'))).toBe('2026-11-27T12:00');
    expect(latestSettledMinute(new Date('2026-11-27T12:01:59.999Z'))).toBe('2026-11-27T11:59');
  });
});

describe('summary wording', () => {
  it('one notice: singular, its share, no answer, the account masked', () => {
    const key = {
      kind: 'endpoint_disabling_soon' as const,
      orgId: 'org-7',
      endpointId: 'ep_0123456789ab',
      epoch: '2026-11-25T10:00:00.000Z',
      percent: 90,
    };
    const notice: Notice = {
      ...key,
      id: noticeId(key),
      account: 'GB82WEST12345698765432',
      at: '2026-11-27T12:00:05.123Z',
      consecutiveFailures: 40,
      lastAnswer: { status: 0, bodyExcerpt: '' },
    };
    const message = renderSummary({
      from: '2026-11-27T12:00',
      to: '2026-11-27T12:00',
      counts: new Map([['endpoint_disabling_soon', 1]]),
      capped: false,
      organizations: ['org-7'],
      first: [notice],
    });
    expect(message.subject).toBe('Herald: 1 operational notice, 2026-11-27 12:00 UTC');
    expect(message.body).toContain('1 notice from 1 organization.');
    expect(message.body).toContain(
      '  2026-11-27 12:00:05  org-7  GB82…5432  ep_0123456789ab  endpoint_disabling_soon (90 %)  no answer',
    );
    expect(message.body).not.toContain('GB82WEST12345698765432');
    expect(message.body).not.toContain('more');
    expect(message.body).toContain('  herald operational-events list --org org-7');
  });
});
