/**
 * Emulates the forwarder's DynamoDB stream → Lambda event source mapping against DynamoDB Local.
 *
 * Like Lambda it follows every shard (new ones appear over time, a closed shard ends with a null
 * NextShardIterator, a child starts after its parent), drops records the filter pattern rejects,
 * invokes the handler with at most `batchSize` records of one shard, and with `reportBatchItemFailures`
 * retries from the first failed record. Not emulated: bisect-on-error, the batching window (records go
 * out on the next poll) and record expiry.
 */
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { FORWARDER_EVENT_SOURCE } from '#config/delivery';
import { STREAM_FILTER_PATTERN } from '#config/storage';
import { LOCAL_REGION } from './emulators';
import { type FilterPattern, matchesFilterPattern } from './filter-pattern';
import { loadCheckpoint, saveCheckpoint, toLambdaRecord } from './stream-records';

/** The function behind the mapping (a Lambda handler with its context already bound). */
export type StreamHandler = (
  event: DynamoDBStreamEvent,
) => Promise<DynamoDBBatchResponse | undefined> | Promise<void>;

/** Options of {@link startStreamLink}. */
export interface StreamLinkOptions {
  readonly streamArn: string;
  readonly handler: StreamHandler;
  /** Default: a client configured from the environment (`AWS_ENDPOINT_URL_DYNAMODB_STREAMS`). */
  readonly client?: DynamoDBStreamsClient;
  /** Default `STREAM_FILTER_PATTERN`; `null` delivers every record. */
  readonly filter?: FilterPattern | null;
  /** Default `FORWARDER_EVENT_SOURCE.batchSize`. */
  readonly batchSize?: number;
  /** Pause between polls of the stream; default 200 ms. */
  readonly pollIntervalMs?: number;
  /**
   * JSON file holding the last processed sequence number per shard. With it, a restart over persisted
   * data resumes after those records instead of replaying the stream from TRIM_HORIZON.
   */
  readonly checkpointFile?: string;
  /** `awsRegion` of the records; default us-east-1 (DynamoDB Local says `ddblocal`). */
  readonly region?: string;
  /** Receives handler and polling errors; default: logged to stderr. */
  readonly onError?: (error: unknown) => void;
}

/** A running stream link. */
export interface StreamLink {
  /** Ends polling, awaits the in-flight invocation and writes the checkpoint. Idempotent. */
  stop(): Promise<void>;
}

interface Pending {
  readonly record: DynamoDBRecord;
  readonly sequenceNumber: string;
  readonly matches: boolean;
}

interface ShardState {
  readonly id: string;
  readonly parentId: string | undefined;
  iterator: string | undefined;
  /** Read but not yet done: the handler still owes a success for the matching ones. */
  pending: Pending[];
  /** Everything up to this sequence number is done (processed or filtered out). */
  doneSequence: string | undefined;
  /** Re-read from the oldest record (after a trimmed-data error), skipping what is already done. */
  fromHorizon: boolean;
  endReached: boolean;
  finished: boolean;
  failures: number;
  retryAt: number;
}

const DESCRIBE_INTERVAL_MS = 1_000;
const MAX_BACKOFF_MS = 5_000;

/** Starts polling the stream and invoking the handler; returns at once. */
export function startStreamLink(options: StreamLinkOptions): StreamLink {
  const client = options.client ?? new DynamoDBStreamsClient({});
  const filter: FilterPattern | null = options.filter === undefined ? STREAM_FILTER_PATTERN : options.filter;
  const batchSize = options.batchSize ?? FORWARDER_EVENT_SOURCE.batchSize;
  const region = options.region ?? LOCAL_REGION;
  const onError = options.onError ?? ((error: unknown) => console.error('[stream-link]', error));
  const shards = new Map<string, ShardState>();
  const checkpoint = loadCheckpoint(options.checkpointFile, options.streamArn);
  let checkpointDirty = false;
  let lastDescribe = 0;
  let stopped = false;
  let wake: (() => void) | undefined;

  const describe = async (): Promise<void> => {
    let exclusiveStartShardId: string | undefined;
    do {
      const page = await client.send(
        new DescribeStreamCommand({
          StreamArn: options.streamArn,
          ExclusiveStartShardId: exclusiveStartShardId,
        }),
      );
      for (const shard of page.StreamDescription?.Shards ?? []) {
        if (!shard.ShardId || shards.has(shard.ShardId)) continue;
        shards.set(shard.ShardId, {
          id: shard.ShardId,
          parentId: shard.ParentShardId,
          iterator: undefined,
          pending: [],
          doneSequence: checkpoint[shard.ShardId],
          fromHorizon: false,
          endReached: false,
          finished: false,
          failures: 0,
          retryAt: 0,
        });
      }
      exclusiveStartShardId = page.StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
  };

  const fetch = async (shard: ShardState): Promise<void> => {
    if (shard.iterator === undefined) {
      const resume = shard.doneSequence !== undefined && !shard.fromHorizon;
      const found = await client.send(
        new GetShardIteratorCommand({
          StreamArn: options.streamArn,
          ShardId: shard.id,
          ShardIteratorType: resume ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
          SequenceNumber: shard.doneSequence,
        }),
      );
      shard.iterator = found.ShardIterator;
      shard.fromHorizon = false;
    }
    const page = await client.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: 1_000 }));
    shard.iterator = page.NextShardIterator ?? undefined;
    shard.endReached = !page.NextShardIterator;
    for (const raw of page.Records ?? []) {
      const record = toLambdaRecord(raw, options.streamArn, region);
      const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
      // After a fallback to the oldest record, what was already forwarded is not forwarded again.
      if (shard.doneSequence !== undefined && BigInt(sequenceNumber) <= BigInt(shard.doneSequence)) continue;
      shard.pending.push({
        record,
        sequenceNumber,
        matches: filter === null || matchesFilterPattern(filter, record),
      });
    }
  };

  /** Marks the first `count` pending records done. */
  const settle = (shard: ShardState, count: number): void => {
    const last = shard.pending[count - 1];
    if (!last) return;
    shard.pending = shard.pending.slice(count);
    shard.doneSequence = last.sequenceNumber;
    checkpoint[shard.id] = last.sequenceNumber;
    checkpointDirty = true;
  };

  const invoke = async (shard: ShardState): Promise<boolean> => {
    const batchIndexes: number[] = [];
    shard.pending.forEach((entry, index) => {
      if (entry.matches && batchIndexes.length < batchSize) batchIndexes.push(index);
    });
    const lastIndex = batchIndexes.at(-1);
    if (lastIndex === undefined) {
      settle(shard, shard.pending.length);
      return true;
    }
    const batch = batchIndexes.map((index) => shard.pending[index] as Pending);
    let failedAt = -1;
    try {
      const response = await options.handler({ Records: batch.map((entry) => entry.record) });
      failedAt = firstFailure(response, batch);
    } catch (error) {
      onError(error);
      failedAt = 0;
    }
    if (failedAt < 0) {
      settle(shard, lastIndex + 1);
      shard.failures = 0;
      return true;
    }
    settle(shard, batchIndexes[failedAt] ?? 0);
    shard.failures += 1;
    shard.retryAt = Date.now() + Math.min(200 * 2 ** (shard.failures - 1), MAX_BACKOFF_MS);
    return false;
  };

  const pollShard = async (shard: ShardState): Promise<void> => {
    while (!stopped && Date.now() >= shard.retryAt) {
      if (shard.pending.length === 0) {
        if (shard.endReached) {
          shard.finished = true;
          return;
        }
        await fetch(shard);
        if (shard.pending.length === 0) return;
      }
      if (!(await invoke(shard))) return;
    }
  };

  const tick = async (): Promise<void> => {
    if (Date.now() - lastDescribe >= DESCRIBE_INTERVAL_MS) {
      await describe();
      lastDescribe = Date.now();
    }
    const ready = [...shards.values()].filter((shard) => {
      if (shard.finished) return false;
      const parent = shard.parentId === undefined ? undefined : shards.get(shard.parentId);
      return !parent || parent.finished;
    });
    await Promise.all(
      ready.map((shard) =>
        pollShard(shard).catch((error: unknown) => {
          // An expired iterator is recreated from the checkpoint. A trimmed-data error (a checkpoint
          // older than the 24 h retention, or DynamoDB Local raising it spuriously) falls back to the
          // oldest record, as Lambda does, but records at or before the checkpoint are skipped.
          shard.iterator = undefined;
          if (error instanceof Error && error.name === 'TrimmedDataAccessException') shard.fromHorizon = true;
          shard.retryAt = Date.now() + MAX_BACKOFF_MS;
          onError(error);
        }),
      ),
    );
    if (checkpointDirty && options.checkpointFile) {
      checkpointDirty = false;
      await saveCheckpoint(options.checkpointFile, { streamArn: options.streamArn, shards: checkpoint });
    }
  };

  const loop = (async () => {
    while (!stopped) {
      // A failing DescribeStream (e.g. a deleted table) backs off instead of logging five times a second.
      const pause = await tick().then(
        () => options.pollIntervalMs ?? 200,
        (error: unknown) => {
          onError(error);
          return MAX_BACKOFF_MS;
        },
      );
      if (stopped) break;
      await new Promise<void>((done) => {
        const timer = setTimeout(done, pause);
        wake = () => {
          clearTimeout(timer);
          done();
        };
      });
    }
  })();

  let stopping: Promise<void> | undefined;
  return {
    stop: () => {
      stopping ??= (async () => {
        stopped = true;
        wake?.();
        await loop;
        if (!options.client) client.destroy();
      })();
      return stopping;
    },
  };
}

/** Index in `batch` of the first failed record, or -1; an unknown identifier fails the whole batch, as in Lambda. */
function firstFailure(response: Awaited<ReturnType<StreamHandler>>, batch: readonly Pending[]): number {
  const failures = response?.batchItemFailures ?? [];
  if (failures.length === 0) return -1;
  const indexes = failures.map((failure) =>
    batch.findIndex((entry) => entry.sequenceNumber === failure.itemIdentifier),
  );
  return indexes.some((index) => index < 0) ? 0 : Math.min(...indexes);
}
