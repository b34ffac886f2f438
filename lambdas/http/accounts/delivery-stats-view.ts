/**
 * The JSON view of an endpoint's delivery summary (`GET /accounts/{iban}/delivery-stats`): per window the
 * totals and the buckets the portal's charts draw, timestamps rendered like every other.
 */
import type { AttemptTally, WindowStats } from '#domain/delivery-stats';
import { renderTimestamp } from '#domain/time';
import type { DELIVERY_STATS, DELIVERY_WINDOW } from '#http/openapi/accounts';
import type { Static } from '#http/schema';

/** Attempts, successes and median latency (null without attempts). */

/** One window of the summary (the `DeliveryWindow` schema). */
export type DeliveryWindowView = Static<typeof DELIVERY_WINDOW>;

/** The summary (the `DeliveryStats` schema). */
export type DeliveryStatsView = Static<typeof DELIVERY_STATS>;

const time = (epochMs: number): string => renderTimestamp(new Date(epochMs).toISOString());
const tally = (t: AttemptTally) => ({
  attempts: t.attempts,
  succeeded: t.succeeded,
  median_ms: t.medianMs ?? null,
});

/** Renders a delivery summary. */
export function toDeliveryStatsView(stats: {
  readonly iban: string;
  readonly events: number;
  readonly complete: boolean;
  readonly windows: readonly WindowStats[];
}): DeliveryStatsView {
  return {
    iban: stats.iban,
    events_read: stats.events,
    complete: stats.complete,
    windows: stats.windows.map((w) => ({
      window: w.window,
      since: time(w.since),
      until: time(w.until),
      bucket_minutes: w.bucketMs / 60_000,
      ...tally(w),
      max_ms: w.maxMs ?? null,
      buckets: w.buckets.map((b) => ({ start: time(b.start), ...tally(b) })),
    })),
  };
}
