/**
 * Table-level (and index-level) throughput of DynamoDB, per direction (reads, writes):
 * - on-demand: serves at once up to its warm throughput (4,000 write / 12,000 read units per second for a
 *   new table) or twice the previous peak, where a peak only counts once it is `peakLagMs` (30 minutes)
 *   old, and never beyond the per-table account quota (40,000 by default) or a configured maximum;
 * - provisioned: the provisioned units per second, plus burst capacity from up to 300 s of unused units.
 * Partition limits (1,000 write / 3,000 read units per second) are applied on top, in `table.ts`.
 */
import { type Limit, SlidingWindow, TokenBucket } from './limits';

/** An on-demand table or index. */
export interface OnDemandMode {
  readonly kind: 'on-demand';
  /** Served at once before any peak: 12,000 read and 4,000 write units for a new table. */
  readonly warmReadUnits?: number;
  readonly warmWriteUnits?: number;
  /** Per-table account quota (default 40,000 each). */
  readonly quotaReadUnits?: number;
  readonly quotaWriteUnits?: number;
  /** `OnDemandThroughput` maximums, if configured. */
  readonly maxReadUnits?: number;
  readonly maxWriteUnits?: number;
  /** How old a peak must be before twice it is served (default 30 minutes). */
  readonly peakLagMs?: number;
}

/** A provisioned table or index. */
export interface ProvisionedMode {
  readonly kind: 'provisioned';
  readonly readUnits: number;
  readonly writeUnits: number;
  /** Unused capacity kept for bursts, in seconds of provisioned units (default 300). */
  readonly burstSeconds?: number;
}

/** How a table or index is billed and limited. */
export type CapacityMode = OnDemandMode | ProvisionedMode;

/** Why DynamoDB refused a request, the last part of its `ThrottlingReason`. */
export type LimitType =
  | 'KeyRangeThroughputExceeded'
  | 'ProvisionedThroughputExceeded'
  | 'AccountLimitExceeded'
  | 'MaxOnDemandThroughputExceeded';

/** One direction (reads or writes) of one table or index. */
class DirectionLimit {
  private readonly window: Limit;
  private maturedPeak = 0;
  private second = Number.NaN;
  private secondUnits = 0;
  /** Finished seconds that could still raise the peak, oldest first. */
  private readonly pending: { end: number; units: number }[] = [];
  private pendingHead = 0;

  constructor(
    private readonly mode: CapacityMode,
    private readonly access: 'read' | 'write',
    now: number,
  ) {
    if (mode.kind === 'provisioned') {
      const units = access === 'read' ? mode.readUnits : mode.writeUnits;
      this.window = new TokenBucket(units, units * (mode.burstSeconds ?? 300), now, units);
    } else {
      this.window = new SlidingWindow(this.onDemandLimit().units);
    }
  }

  /** The limit type that refuses `units` at `now`, or undefined when they fit. */
  check(units: number, now: number): LimitType | undefined {
    this.advance(now);
    if (this.window.has(units, now)) return undefined;
    return this.mode.kind === 'provisioned' ? 'ProvisionedThroughputExceeded' : this.onDemandLimit().type;
  }

  take(units: number, now: number): void {
    this.advance(now);
    this.window.take(units, now);
    this.secondUnits += units;
  }

  private onDemandLimit(): { units: number; type: LimitType } {
    const mode = this.mode as OnDemandMode;
    const read = this.access === 'read';
    const warm = Math.max(
      read ? (mode.warmReadUnits ?? 12_000) : (mode.warmWriteUnits ?? 4_000),
      2 * this.maturedPeak,
    );
    const quota = read ? (mode.quotaReadUnits ?? 40_000) : (mode.quotaWriteUnits ?? 40_000);
    const max = (read ? mode.maxReadUnits : mode.maxWriteUnits) ?? Number.POSITIVE_INFINITY;
    if (max <= quota && max <= warm) return { units: max, type: 'MaxOnDemandThroughputExceeded' };
    if (quota <= warm) return { units: quota, type: 'AccountLimitExceeded' };
    return { units: warm, type: 'KeyRangeThroughputExceeded' };
  }

  /** Closes finished seconds and lets old enough peaks raise an on-demand limit. */
  private advance(now: number): void {
    if (this.mode.kind !== 'on-demand') return;
    const lag = this.mode.peakLagMs ?? 30 * 60 * 1000;
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      if (this.secondUnits > this.maturedPeak) {
        this.pending.push({ end: (this.second + 1) * 1000, units: this.secondUnits });
      }
      this.second = second;
      this.secondUnits = 0;
    }
    let raised = false;
    while (this.pendingHead < this.pending.length) {
      const oldest = this.pending[this.pendingHead] as { end: number; units: number };
      if (oldest.end + lag > now) break;
      this.pendingHead++;
      if (oldest.units > this.maturedPeak) {
        this.maturedPeak = oldest.units;
        raised = true;
      }
    }
    if (this.pendingHead > 1024) {
      this.pending.splice(0, this.pendingHead);
      this.pendingHead = 0;
    }
    if (raised) {
      (this.window as SlidingWindow).setLimit(this.onDemandLimit().units);
    }
  }
}

/** The table-level limits of one table or index. */
export class ResourceThroughput {
  readonly read: DirectionLimit;
  readonly write: DirectionLimit;

  constructor(mode: CapacityMode, now: number) {
    this.read = new DirectionLimit(mode, 'read', now);
    this.write = new DirectionLimit(mode, 'write', now);
  }
}
