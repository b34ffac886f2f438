/**
 * The JSON view of an endpoint's delivery summary (`GET /accounts/{iban}/delivery-stats`): per window the
 * totals and the buckets the portal's charts draw, timestamps rendered like every other.
 */
import type { AttemptTally, StatsWindow, WindowStats } from '#domain/delivery-stats';
import { renderTimestamp } from '#domain/time';

/** Attempts, successes and median latency (null without attempts). */
interface TallyView {
  readonly attempts: number;
  readonly succeeded: number;
  readonly median_ms: number | null;
}

/** One window of the summary (the `DeliveryWindow` schema). */
export interface DeliveryWindowView extends TallyView {
  readonly window: StatsWindow;
  readonly since: string;
  readonly until: string;
  readonly bucket_minutes: number;
  readonly max_ms: number | null;
  readonly buckets: readonly (TallyView & { readonly start: string })[];
}

/** The summary (the `DeliveryStats` schema). */
export interface DeliveryStatsView {
  readonly iban: string;
  readonly events_read: number;
  readonly complete: boolean;
  readonly windows: readonly DeliveryWindowView[];
}

const time = (epochMs: number): string => renderTimestamp(new Date(epochMs).toISOString());
const tally = (t: AttemptTally): TallyView => ({
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
