/**
 * An endpoint's delivery summary with fakes and an injected clock: the buckets and totals the portal's
 * charts draw, from one bounded read of the account's latest events' attempts, and only for the
 * organization's own accounts.
 */
import { describe, expect, it } from 'vitest';
import { DELIVERY_STATS_EVENTS } from '#config/limits';
import { windowStats } from '#domain/delivery-stats';
import { NotFoundError, ValidationError } from '#domain/errors';
import type { DeliveryAttempt } from '#domain/model';
import { parseDeliveryStatsQuery } from '#http/accounts/account-request';
import { toDeliveryStatsView } from '#http/accounts/delivery-stats-view';
import { deliveryStats } from '#use-cases/accounts/delivery-stats';
import { apiEvent } from '../support/api-event';
import { deliveryWorld } from '../support/fakes/delivery-deps';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const HOUR = 3_600_000;
const attempt = (agoMs: number, status: number, ms: number): DeliveryAttempt => ({
  deliveredAt: new Date(NOW - agoMs).toISOString(),
  responseStatus: status,
  responseBody: '',
  responseTimeMs: ms,
});

describe('windowStats', () => {
  it('counts each attempt of the window in its bucket, with medians and the slowest', () => {
    const attempts = [
      attempt(30 * 60_000, 200, 100),
      attempt(40 * 60_000, 500, 300),
      attempt(50 * 60_000, 200, 200),
      attempt(5 * HOUR + 1, 200, 50),
      attempt(0, 204, 70),
      attempt(25 * HOUR, 200, 999),
    ];
    const day = windowStats(attempts, '24h', NOW);
    expect(day).toMatchObject({ attempts: 5, succeeded: 4, medianMs: 100, maxMs: 300, bucketMs: HOUR });
    expect(day.buckets).toHaveLength(24);
    // The last hour: three attempts (one failed) and the one at the window's very end.
    expect(day.buckets[23]).toMatchObject({ attempts: 4, succeeded: 3, medianMs: 200 });
    expect(day.buckets[18]).toMatchObject({ attempts: 1, succeeded: 1, medianMs: 50 });
    expect(day.buckets[0]).toMatchObject({ attempts: 0, succeeded: 0, medianMs: undefined });
    const week = windowStats(attempts, '7d', NOW);
    expect(week).toMatchObject({ attempts: 6, maxMs: 999, bucketMs: 6 * HOUR });
    expect(week.buckets).toHaveLength(28);
    expect(windowStats([], '24h', NOW)).toMatchObject({ attempts: 0, medianMs: undefined, maxMs: undefined });
  });
});

describe('deliveryStats', () => {
  it("summarises the account's latest events in one bounded read, both windows by default", async () => {
    const w = deliveryWorld();
    for (let i = 0; i < 150; i++) {
      w.events.seed({
        id: `e${String(i).padStart(3, '0')}`,
        triggeredAt: new Date(NOW - i * 60_000).toISOString(),
        deliveries: [attempt(i * 60_000, i % 10 === 0 ? 500 : 200, 100 + i)],
        webhookRetries: 1,
      });
    }
    w.events.seed({ id: 'other', account: 'DE02120300000000202051', deliveries: [attempt(0, 200, 1)] });
    const windows = parseDeliveryStatsQuery(apiEvent());
    const stats = await deliveryStats(w, 'org-1', w.iban, windows, NOW);
    expect(w.events.attemptReads).toEqual([DELIVERY_STATS_EVENTS]);
    expect(stats).toMatchObject({ iban: w.iban, events: 100, complete: false });
    expect(stats.windows.map((window) => [window.window, window.attempts, window.succeeded])).toEqual([
      ['24h', 100, 90],
      ['7d', 100, 90],
    ]);
    const view = toDeliveryStatsView(stats);
    expect(view.windows[0]?.bucket_minutes).toBe(60);
    expect(view.windows[1]?.buckets[27]).toMatchObject({ attempts: 100, succeeded: 90 });
    expect(view.windows[0]?.until).toBe('2026-11-22 12:00:00');
  });

  it('reads one window when asked, and refuses another organization’s account or a bad window', async () => {
    const w = deliveryWorld();
    w.events.seed({
      id: 'e1',
      triggeredAt: new Date(NOW - HOUR).toISOString(),
      deliveries: [attempt(HOUR, 200, 5)],
    });
    const day = parseDeliveryStatsQuery(apiEvent({ query: { window: ['24h'] } }));
    const stats = await deliveryStats(w, 'org-1', w.iban, day, NOW);
    expect(stats).toMatchObject({ events: 1, complete: true });
    expect(stats.windows.map((window) => window.window)).toEqual(['24h']);
    await expect(deliveryStats(w, 'org-2', w.iban, day, NOW)).rejects.toBeInstanceOf(NotFoundError);
    expect(() => parseDeliveryStatsQuery(apiEvent({ query: { window: ['30d'] } }))).toThrow(ValidationError);
  });
});
