/** What DynamoDB was asked for, per operation: calls, attempts, capacity units, throttles and retries. */
import type { Draw } from './capacity';

/** Counters of one operation (a port method, e.g. `events.getEvent`). */
export interface OperationCounts {
  calls: number;
  /** Requests sent, retries included. */
  attempts: number;
  /** Attempts refused by a throughput limit. */
  throttles: number;
  /** Attempts the SDK retried after a throttle. */
  retries: number;
  /** Calls that failed with a throttling error after the SDK gave up. */
  failures: number;
  readUnits: number;
  /** Write units on the table. */
  writeUnits: number;
  /** Write units on global secondary indexes. */
  indexWriteUnits: number;
  /** Time from call to answer, summed. */
  latencyMs: number;
}

const zero = (): OperationCounts => ({
  calls: 0,
  attempts: 0,
  throttles: 0,
  retries: 0,
  failures: 0,
  readUnits: 0,
  writeUnits: 0,
  indexWriteUnits: 0,
  latencyMs: 0,
});

/** The meter several clients (one per Lambda environment) can share. */
export class DynamoMeter {
  readonly operations = new Map<string, OperationCounts>();
  /** Throttles by `ThrottlingReason`. */
  readonly reasons = new Map<string, number>();
  /** Calls of port methods that declared no charge (see `ports/metered.ts`). */
  readonly unmetered = new Map<string, number>();

  /** The counters of one operation. */
  of(operation: string): OperationCounts {
    let counts = this.operations.get(operation);
    if (counts === undefined) {
      counts = zero();
      this.operations.set(operation, counts);
    }
    return counts;
  }

  /** Adds capacity drawn by an operation. */
  consumed(counts: OperationCounts, draws: readonly Draw[]): void {
    for (const draw of draws) {
      if (draw.access === 'read') counts.readUnits += draw.units;
      else if (draw.index === undefined) counts.writeUnits += draw.units;
      else counts.indexWriteUnits += draw.units;
    }
  }

  throttled(counts: OperationCounts, reason: string): void {
    counts.throttles++;
    this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + 1);
  }

  /** The sum over all operations. */
  total(): OperationCounts {
    const sum = zero();
    for (const counts of this.operations.values()) {
      for (const key of Object.keys(sum) as (keyof OperationCounts)[]) sum[key] += counts[key];
    }
    return sum;
  }
}
