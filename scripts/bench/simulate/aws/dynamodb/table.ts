/**
 * A DynamoDB table and its global secondary indexes as throughput: items hash to partitions by their
 * partition key value (index entries by the index's), every partition serves at most 1,000 write and
 * 3,000 read units per second, and the table and each index also have their table-level limits
 * (`throughput.ts`). A request is admitted whole or refused whole; a write whose index partition has no
 * room is refused (GSI back-pressure), even when the table has room.
 */
import { hash32 } from '../../engine/random';
import type { Draw } from './capacity';
import { SlidingWindow } from './limits';
import { type CapacityMode, type LimitType, ResourceThroughput } from './throughput';

/** How partition key values map to partitions. */
export type Partitioning =
  /**
   * Each partition key value has a partition of its own: the best case adaptive capacity reaches by
   * isolating hot items. One value still cannot exceed the per-partition limits.
   */
  | { readonly kind: 'per-key' }
  /** Values hash onto a fixed number of partitions that share the limits. */
  | { readonly kind: 'hashed'; readonly partitions: number };

/** A table's throughput settings. */
export interface TableConfig {
  readonly name: string;
  readonly mode: CapacityMode;
  /** Global secondary indexes by name; an index has the table's mode unless given its own. */
  readonly indexes?: Readonly<Record<string, { readonly mode?: CapacityMode }>>;
  /** Per-partition limits, units per second (default 3,000 read and 1,000 write). */
  readonly partitionReadUnits?: number;
  readonly partitionWriteUnits?: number;
  readonly partitioning?: Partitioning;
}

/** A refusal, with DynamoDB's `ThrottlingReason` (`Table|Index` + `Read|Write` + limit type). */
export interface Throttle {
  readonly reason: `${'Table' | 'Index'}${'Read' | 'Write'}${LimitType}`;
  /** The table or index name (DynamoDB gives its ARN). */
  readonly resource: string;
  /** The partition key value concerned, for partition limits. */
  readonly key?: string;
}

/** The table model. */
export class DynamoTable {
  private readonly resources = new Map<string | undefined, ResourceThroughput>();
  private readonly partitions = new Map<string, { read: SlidingWindow; write: SlidingWindow }>();
  private readonly readUnits: number;
  private readonly writeUnits: number;
  private requests = 0;

  constructor(
    readonly config: TableConfig,
    private readonly now: () => number,
  ) {
    const start = now();
    this.resources.set(undefined, new ResourceThroughput(config.mode, start));
    for (const [name, index] of Object.entries(config.indexes ?? {})) {
      this.resources.set(name, new ResourceThroughput(index.mode ?? config.mode, start));
    }
    this.readUnits = config.partitionReadUnits ?? 3_000;
    this.writeUnits = config.partitionWriteUnits ?? 1_000;
  }

  /** Admits and charges `draws` as one request, or refuses all of it with the first limit it hits. */
  request(draws: readonly Draw[]): Throttle | undefined {
    const now = this.now();
    if (++this.requests % 50_000 === 0) this.forgetQuietPartitions(now);
    // Units per resource and per partition, so that two draws on one partition are checked together.
    const perResource = new Map<
      string,
      { index: string | undefined; access: 'read' | 'write'; units: number }
    >();
    const perPartition = new Map<string, { partition: string; draw: Draw; units: number }>();
    for (const draw of draws) {
      const resourceKey = `${draw.index ?? ''}|${draw.access}`;
      const resource = perResource.get(resourceKey);
      if (resource) resource.units += draw.units;
      else perResource.set(resourceKey, { index: draw.index, access: draw.access, units: draw.units });
      const partition = this.partitionOf(draw);
      const entry = perPartition.get(`${partition}|${draw.access}`);
      if (entry) entry.units += draw.units;
      else perPartition.set(`${partition}|${draw.access}`, { partition, draw, units: draw.units });
    }
    for (const { index, access, units } of perResource.values()) {
      const type = this.resource(index)[access].check(units, now);
      if (type !== undefined) return this.throttle(index, access, type);
    }
    for (const { partition, draw, units } of perPartition.values()) {
      if (!this.bucket(partition, draw.access).has(units, now)) {
        return { ...this.throttle(draw.index, draw.access, 'KeyRangeThroughputExceeded'), key: draw.key };
      }
    }
    for (const { index, access, units } of perResource.values())
      this.resource(index)[access].take(units, now);
    for (const { partition, draw, units } of perPartition.values()) {
      this.bucket(partition, draw.access).take(units, now);
    }
    return undefined;
  }

  /** Charges `draws` without admission (capacity known only after the operation, e.g. a Query's). */
  charge(draws: readonly Draw[]): void {
    const now = this.now();
    for (const draw of draws) {
      this.resource(draw.index)[draw.access].take(draw.units, now);
      this.bucket(this.partitionOf(draw), draw.access).take(draw.units, now);
    }
  }

  /**
   * Drops partitions with nothing in their window: an untouched partition is re-created empty, which is
   * the same state, so this only bounds memory (a burst touches every event's partition once or twice).
   */
  private forgetQuietPartitions(now: number): void {
    for (const [key, partition] of this.partitions) {
      if (partition.read.used(now) === 0 && partition.write.used(now) === 0) this.partitions.delete(key);
    }
  }

  private resource(index: string | undefined): ResourceThroughput {
    const resource = this.resources.get(index);
    if (resource === undefined) throw new RangeError(`table ${this.config.name} has no index ${index}`);
    return resource;
  }

  /** The partition a draw lands on: its table or index, and the key's partition in it. */
  private partitionOf(draw: Draw): string {
    const partitioning = this.config.partitioning ?? { kind: 'per-key' };
    const within =
      partitioning.kind === 'per-key' ? draw.key : String(hash32(draw.key) % partitioning.partitions);
    return `${draw.index ?? ''}|${within}`;
  }

  private bucket(partitionKey: string, access: 'read' | 'write'): SlidingWindow {
    let partition = this.partitions.get(partitionKey);
    if (partition === undefined) {
      partition = { read: new SlidingWindow(this.readUnits), write: new SlidingWindow(this.writeUnits) };
      this.partitions.set(partitionKey, partition);
    }
    return partition[access];
  }

  private throttle(index: string | undefined, access: 'read' | 'write', type: LimitType): Throttle {
    const resourceType = index === undefined ? 'Table' : 'Index';
    const operation = access === 'read' ? 'Read' : 'Write';
    return { reason: `${resourceType}${operation}${type}`, resource: index ?? this.config.name };
  }
}
