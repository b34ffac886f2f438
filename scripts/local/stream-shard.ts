/**
 * The bookkeeping of one shard of the stream link, without I/O: which records are read but not done,
 * which batch goes to the handler next, what a partial failure settles, when a failing shard may retry,
 * and which shards may be polled (a child only after its parent is finished, as Lambda does).
 */
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';

/** Longest pause of a failing shard (and of the link after a failed poll). */
export const MAX_BACKOFF_MS = 5_000;

/** A record read from the shard and not yet done. */
export interface PendingRecord {
  readonly record: DynamoDBRecord;
  readonly sequenceNumber: string;
  /** Whether the filter pattern lets it through; the others are done once the records before them are. */
  readonly matches: boolean;
}

/** One shard as the link follows it. */
export interface ShardState {
  readonly id: string;
  readonly parentId: string | undefined;
  iterator: string | undefined;
  /** Read but not yet done: the handler still owes a success for the matching ones. */
  pending: PendingRecord[];
  /** Everything up to this sequence number is done (processed or filtered out). */
  doneSequence: string | undefined;
  /** Re-read from the oldest record (after a trimmed-data error), skipping what is already done. */
  fromHorizon: boolean;
  endReached: boolean;
  finished: boolean;
  failures: number;
  retryAt: number;
}

/** A shard seen for the first time; `doneSequence` comes from the checkpoint, if any. */
export function newShard(
  id: string,
  parentId: string | undefined,
  doneSequence: string | undefined,
): ShardState {
  return {
    id,
    parentId,
    iterator: undefined,
    pending: [],
    doneSequence,
    fromHorizon: false,
    endReached: false,
    finished: false,
    failures: 0,
    retryAt: 0,
  };
}

/** Queues a record read from the shard, unless it is already done (a re-read after a fallback to the oldest). */
export function addRead(shard: ShardState, entry: PendingRecord): void {
  if (shard.doneSequence !== undefined && BigInt(entry.sequenceNumber) <= BigInt(shard.doneSequence)) return;
  shard.pending.push(entry);
}

/** Marks the first `count` pending records done; returns the new done sequence number, if it moved. */
export function settle(shard: ShardState, count: number): string | undefined {
  const last = shard.pending[count - 1];
  if (!last) return undefined;
  shard.pending = shard.pending.slice(count);
  shard.doneSequence = last.sequenceNumber;
  return last.sequenceNumber;
}

/** Positions in `pending` of the next batch: the first `batchSize` matching records. */
export function nextBatch(shard: ShardState, batchSize: number): number[] {
  const indexes: number[] = [];
  shard.pending.forEach((entry, index) => {
    if (entry.matches && indexes.length < batchSize) indexes.push(index);
  });
  return indexes;
}

/**
 * Index in `batch` of the first failed record, or -1; an unknown identifier fails the whole batch, as in
 * Lambda.
 */
export function firstFailure(
  response: DynamoDBBatchResponse | undefined,
  batch: readonly PendingRecord[],
): number {
  const failures = response?.batchItemFailures ?? [];
  if (failures.length === 0) return -1;
  const indexes = failures.map((failure) =>
    batch.findIndex((entry) => entry.sequenceNumber === failure.itemIdentifier),
  );
  return indexes.some((index) => index < 0) ? 0 : Math.min(...indexes);
}

/** Delays the shard's next try: 200 ms doubling per consecutive failure, at most {@link MAX_BACKOFF_MS}. */
export function backOff(shard: ShardState, now: number): void {
  shard.failures += 1;
  shard.retryAt = now + Math.min(200 * 2 ** (shard.failures - 1), MAX_BACKOFF_MS);
}

/** Shards to poll now: not finished, and their parent (if known) finished. */
export function readyShards(shards: ReadonlyMap<string, ShardState>): ShardState[] {
  return [...shards.values()].filter((shard) => {
    if (shard.finished) return false;
    const parent = shard.parentId === undefined ? undefined : shards.get(shard.parentId);
    return !parent || parent.finished;
  });
}
