/**
 * An organization's index entries across its write shards, in one order: the `by-org` index (or a
 * sparse status index) holds each organization's events under `EVENT_INDEX_SHARDS` partition keys
 * (`ORG#<org>#EVENTS#<k>`, `k` from the event id, so one organization's publishes spread over that many
 * index partitions) plus the unsharded `ORG#<org>#EVENTS` of events stored before account logs. A walk
 * reads every partition lazily, a small page at a time, and merges them by `gsi1sk`
 * (`<triggered_at>#<id>`, unique per event): the order and paging of one partition, at a cost of what it
 * returns plus at most one page per partition, never more than the read bound of entries.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#adapters/dynamodb/items';
import { EVENT_INDEX_SHARDS } from '#config/storage';
import type { EventRef } from '#domain/model';
import type { EventFilters } from '#domain/ports';
import { refOfItem } from './event-items';
import type { EventTable } from './event-table';

/** A sparse status index, walked instead of `by-org`. */
export interface StatusIndex {
  readonly name: string;
  readonly attribute: string;
}

/** What a walk reads: the entries of one organization, of an account and a type where the filters say. */
export interface IndexWalk extends Pick<EventFilters, 'account' | 'type'> {
  readonly orgId: string;
  /** Absent: `by-org`. */
  readonly index?: StatusIndex | undefined;
  /** Oldest first; newest first when absent. */
  readonly ascending?: boolean;
  /** Inclusive bounds of `gsi1sk`. */
  readonly lo?: string | undefined;
  readonly hi?: string | undefined;
  /** Only entries after this `gsi1sk` in walk order (where an earlier walk stopped). */
  readonly after?: string | undefined;
  /** Entries one Query of a partition evaluates. */
  readonly pageSize: number;
}

/** An index entry: its event, and its place in the order. */
export interface IndexEntry {
  readonly ref: EventRef;
  readonly order: string;
}

/** One partition's part of a walk. */
interface Partition {
  readonly pk: string;
  readonly buffer: IndexEntry[];
  startKey?: Record<string, unknown> | undefined;
  done: boolean;
}

/** Every partition key of an organization's events in an index: the old unsharded one, then the shards. */
export function eventPartitions(orgId: string): string[] {
  return [
    keys.orgEvents(orgId),
    ...Array.from({ length: EVENT_INDEX_SHARDS }, (_, k) => keys.orgEventShard(orgId, k)),
  ];
}

/** A walk through the merged partitions; see the file comment. */
export class MergedIndex {
  /** Index entries evaluated so far, over all partitions (filtered ones included). */
  scanned = 0;
  private readonly partitions: Partition[];

  constructor(
    private readonly table: EventTable,
    private readonly walk: IndexWalk,
  ) {
    this.partitions = eventPartitions(walk.orgId).map((pk) => ({ pk, buffer: [], done: false }));
  }

  /**
   * Up to `count` further entries in walk order. `done`: nothing remains. `bounded`: it stopped because
   * `bound` entries were evaluated while some remain unread (what follows is then unknown).
   */
  async next(
    count: number,
    bound: number,
  ): Promise<{ entries: IndexEntry[]; done: boolean; bounded: boolean }> {
    const entries: IndexEntry[] = [];
    while (entries.length < count) {
      await this.fillAll(bound);
      if (this.partitions.some((p) => p.buffer.length === 0 && !p.done)) {
        return { entries, done: false, bounded: true };
      }
      const best = this.head();
      if (best === undefined) return { entries, done: true, bounded: false };
      const entry = best.buffer.shift();
      if (entry) entries.push(entry);
    }
    const done = this.partitions.every((p) => p.buffer.length === 0 && p.done);
    return { entries, done, bounded: false };
  }

  /** The partition whose next entry comes first in walk order. */
  private head(): Partition | undefined {
    let best: Partition | undefined;
    for (const partition of this.partitions) {
      const order = partition.buffer[0]?.order;
      if (order === undefined) continue;
      const bestOrder = best?.buffer[0]?.order;
      if (bestOrder === undefined || (this.walk.ascending ? order < bestOrder : order > bestOrder))
        best = partition;
    }
    return best;
  }

  /**
   * Reads a page of every partition whose buffer is empty, in parallel, the bound shared out among them
   * (so the walk never evaluates more than `bound` entries), until each has an entry, is done, or the
   * bound is spent.
   */
  private async fillAll(bound: number): Promise<void> {
    for (;;) {
      const empty = this.partitions.filter((p) => p.buffer.length === 0 && !p.done);
      const remaining = bound - this.scanned;
      if (empty.length === 0 || remaining <= 0) return;
      const share = Math.max(1, Math.floor(remaining / empty.length));
      const reading = empty.slice(0, remaining);
      await Promise.all(reading.map((p) => this.read(p, Math.min(this.walk.pageSize, share))));
    }
  }

  /** Reads the partition's next page of at most `limit` entries. */
  private async read(partition: Partition, limit: number): Promise<void> {
    const out = await this.table.client.send(new QueryCommand({ ...this.query(partition.pk), Limit: limit }));
    this.table.count('Query', out.ConsumedCapacity?.CapacityUnits);
    this.scanned += out.ScannedCount ?? 0;
    for (const item of out.Items ?? []) {
      const order = String(item.gsi1sk);
      // The inclusive bound includes where the last walk stopped: that entry was examined then.
      if (order !== this.walk.after) partition.buffer.push({ ref: refOfItem(item, this.walk.orgId), order });
    }
    partition.startKey = out.LastEvaluatedKey;
    partition.done = out.LastEvaluatedKey === undefined;
  }

  /** The Query of one partition: the key condition from the bounds, the account and type as filters. */
  private query(pk: string) {
    const { walk } = this;
    const lo =
      walk.ascending && walk.after !== undefined && (walk.lo === undefined || walk.after > walk.lo)
        ? walk.after
        : walk.lo;
    const hi =
      !walk.ascending && walk.after !== undefined && (walk.hi === undefined || walk.after < walk.hi)
        ? walk.after
        : walk.hi;
    const attribute = walk.index?.attribute ?? 'gsi1pk';
    const values: Record<string, unknown> = { ':pk': pk };
    let condition = `${attribute} = :pk`;
    if (lo !== undefined) values[':lo'] = lo;
    if (hi !== undefined) values[':hi'] = hi;
    if (lo !== undefined && hi !== undefined) condition += ' AND gsi1sk BETWEEN :lo AND :hi';
    else if (lo !== undefined) condition += ' AND gsi1sk >= :lo';
    else if (hi !== undefined) condition += ' AND gsi1sk <= :hi';
    const names: Record<string, string> = {};
    const filters: string[] = [];
    if (walk.account !== undefined) {
      filters.push('account = :account');
      values[':account'] = walk.account;
    }
    if (walk.type !== undefined) {
      filters.push('#type = :type');
      names['#type'] = 'type';
      values[':type'] = walk.type;
    }
    return {
      TableName: this.table.tableName,
      IndexName: walk.index?.name ?? 'by-org',
      KeyConditionExpression: condition,
      ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
      ProjectionExpression: 'pk, sk, gsi1sk, account',
      ScanIndexForward: walk.ascending ?? false,
      ExclusiveStartKey: this.partitions.find((p) => p.pk === pk)?.startKey,
      ReturnConsumedCapacity: 'TOTAL' as const,
    };
  }
}
