/**
 * An endpoint's delivery statistics over a window, as the portal's charts draw them: success and failure
 * counts and the median latency per bucket, and the window's totals. Computed from attempt records, so
 * the server answers one summary instead of the page fetching every event's attempts.
 */
import { isSuccessStatus } from '#delivery/retry-rule';
import type { DeliveryAttempt } from './model';

/** The windows a summary covers, by name: their length and how many buckets (bars) they have. */
export const STATS_WINDOWS = {
  '24h': { ms: 24 * 3_600_000, buckets: 24 },
  '7d': { ms: 7 * 86_400_000, buckets: 28 },
} as const;

/** The name of a window: `24h` or `7d`. */
export type StatsWindow = keyof typeof STATS_WINDOWS;

/** Every window, shortest first. */
export const STATS_WINDOW_NAMES = Object.keys(STATS_WINDOWS) as StatsWindow[];

/** Attempts, successes and their median latency: of a bucket or of a whole window. */
export interface AttemptTally {
  readonly attempts: number;
  /** Attempts answered 2xx. */
  readonly succeeded: number;
  /** The median (upper middle) latency in ms; undefined without attempts. */
  readonly medianMs?: number | undefined;
}

/** One bucket of a window. */
export interface StatsBucket extends AttemptTally {
  /** Epoch ms where the bucket starts. */
  readonly start: number;
}

/** A window's statistics. */
export interface WindowStats extends AttemptTally {
  readonly window: StatsWindow;
  /** Epoch ms: the window is `[since, until]`. */
  readonly since: number;
  readonly until: number;
  readonly bucketMs: number;
  /** The slowest attempt in ms; undefined without attempts. */
  readonly maxMs?: number | undefined;
  readonly buckets: readonly StatsBucket[];
}

/** One attempt as the statistics see it. */
interface Point {
  readonly at: number;
  readonly ok: boolean;
  readonly ms: number;
}

/** Attempts, successes and median latency of points. */
function tally(points: readonly Point[]): AttemptTally {
  const sorted = points.map((p) => p.ms).sort((a, b) => a - b);
  return {
    attempts: points.length,
    succeeded: points.filter((p) => p.ok).length,
    medianMs: sorted[Math.floor(sorted.length / 2)],
  };
}

/**
 * The statistics of `window` ending at `now` from attempt records: attempts within the window count,
 * each in the bucket its start time falls in (the last bucket also takes the window's end).
 */
export function windowStats(
  attempts: readonly DeliveryAttempt[],
  window: StatsWindow,
  now: number,
): WindowStats {
  const { ms, buckets: count } = STATS_WINDOWS[window];
  const since = now - ms;
  const bucketMs = ms / count;
  const points = attempts
    .map((a) => ({
      at: Date.parse(a.deliveredAt),
      ok: isSuccessStatus(a.responseStatus),
      ms: a.responseTimeMs,
    }))
    .filter((p) => p.at >= since && p.at <= now);
  const buckets = Array.from({ length: count }, (_, i) => ({
    start: since + i * bucketMs,
    ...tally(points.filter((p) => Math.min(count - 1, Math.floor((p.at - since) / bucketMs)) === i)),
  }));
  const maxMs = points.length === 0 ? undefined : Math.max(...points.map((p) => p.ms));
  return { window, since, until: now, bucketMs, ...tally(points), maxMs, buckets };
}
