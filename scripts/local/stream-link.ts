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
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { FORWARDER_EVENT_SOURCE } from '#config/delivery';
import { STREAM_FILTER_PATTERNS } from '#config/storage';
import { LOCAL_REGION } from './emulators';
import { type FilterPattern, matchesFilterPattern } from './filter-pattern';
import { Sleeper } from './sleeper';
import { loadCheckpoint, saveCheckpoint, toLambdaRecord } from './stream-records';
import {
  addRead,
  backOff,
  firstFailure,
  MAX_BACKOFF_MS,
  newShard,
  nextBatch,
  type PendingRecord,
  readyShards,
  type ShardState,
  settle,
} from './stream-shard';

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
  /** Default `STREAM_FILTER_PATTERNS` (a record passes when one matches); `null` delivers every record. */
  readonly filter?: FilterPattern | readonly FilterPattern[] | null;
  /** Default `FORWARDER_EVENT_SOURCE.batchSize`. */
  readonly batchSize?: number;
  /** Pause between polls of the stream; default 200 ms. */
  readonly pollIntervalMs?: number;
  /**
   * JSON file holding the last processed sequence number per shard. With it, a restart over persisted
   * data resumes after those records instead of replaying the stream from TRIM_HORIZON.
   */
  readonly checkpointFile?: string | undefined;
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

const DESCRIBE_INTERVAL_MS = 1_000;
const DEFAULT_POLL_INTERVAL_MS = 200;

/** A running link's state: its settings, the shards it follows, and the checkpoint it keeps. */
interface Link {
  readonly options: StreamLinkOptions;
  readonly client: DynamoDBStreamsClient;
  readonly filter: FilterPattern | readonly FilterPattern[] | null;
  readonly batchSize: number;
  readonly region: string;
  readonly onError: (error: unknown) => void;
  readonly shards: Map<string, ShardState>;
  /** Last done sequence number per shard, as saved in the checkpoint file. */
  readonly checkpoint: Record<string, string>;
  readonly sleeper: Sleeper;
  checkpointDirty: boolean;
  lastDescribe: number;
  stopped: boolean;
}

/** Starts polling the stream and invoking the handler; returns at once. */
export function startStreamLink(options: StreamLinkOptions): StreamLink {
  const link: Link = {
    options,
    client: options.client ?? new DynamoDBStreamsClient({}),
    filter: options.filter === undefined ? STREAM_FILTER_PATTERNS : options.filter,
    batchSize: options.batchSize ?? FORWARDER_EVENT_SOURCE.batchSize,
    region: options.region ?? LOCAL_REGION,
    onError: options.onError ?? ((error: unknown) => console.error('[stream-link]', error)),
    shards: new Map(),
    checkpoint: loadCheckpoint(options.checkpointFile, options.streamArn),
    sleeper: new Sleeper(),
    checkpointDirty: false,
    lastDescribe: 0,
    stopped: false,
  };
  const loop = run(link);
  let stopping: Promise<void> | undefined;
  return {
    stop: () => {
      stopping ??= (async () => {
        link.stopped = true;
        link.sleeper.wakeAll();
        await loop;
        if (!options.client) link.client.destroy();
      })();
      return stopping;
    },
  };
}

/** Polls until stopped; a failing poll (e.g. DescribeStream on a deleted table) backs off. */
async function run(link: Link): Promise<void> {
  while (!link.stopped) {
    const pause = await tick(link).then(
      () => link.options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
      (error: unknown) => {
        link.onError(error);
        return MAX_BACKOFF_MS;
      },
    );
    if (link.stopped) break;
    await link.sleeper.sleep(pause);
  }
}

/** One round: learn new shards (at most once a second), poll every ready shard, save the checkpoint. */
async function tick(link: Link): Promise<void> {
  if (Date.now() - link.lastDescribe >= DESCRIBE_INTERVAL_MS) {
    await discoverShards(link);
    link.lastDescribe = Date.now();
  }
  await Promise.all(
    readyShards(link.shards).map((shard) =>
      pollShard(link, shard).catch((error: unknown) => recoverShard(link, shard, error)),
    ),
  );
  if (link.checkpointDirty && link.options.checkpointFile) {
    link.checkpointDirty = false;
    await saveCheckpoint(link.options.checkpointFile, {
      streamArn: link.options.streamArn,
      shards: link.checkpoint,
    });
  }
}

/** Adds the shards the stream lists that the link does not follow yet. */
async function discoverShards(link: Link): Promise<void> {
  let exclusiveStartShardId: string | undefined;
  do {
    const page = await link.client.send(
      new DescribeStreamCommand({
        StreamArn: link.options.streamArn,
        ExclusiveStartShardId: exclusiveStartShardId,
      }),
    );
    for (const shard of page.StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || link.shards.has(shard.ShardId)) continue;
      link.shards.set(
        shard.ShardId,
        newShard(shard.ShardId, shard.ParentShardId, link.checkpoint[shard.ShardId]),
      );
    }
    exclusiveStartShardId = page.StreamDescription?.LastEvaluatedShardId;
  } while (exclusiveStartShardId);
}

/** Reads and invokes until the shard is drained, finished, failing or the link stops. */
async function pollShard(link: Link, shard: ShardState): Promise<void> {
  while (!link.stopped && Date.now() >= shard.retryAt) {
    if (shard.pending.length === 0) {
      if (shard.endReached) {
        shard.finished = true;
        return;
      }
      await readShard(link, shard);
      if (shard.pending.length === 0) return;
    }
    if (!(await invokeNext(link, shard))) return;
  }
}

/**
 * An expired iterator is recreated from the checkpoint. A trimmed-data error (a checkpoint older than the
 * 24 h retention, or DynamoDB Local raising it spuriously) falls back to the oldest record, as Lambda
 * does, but records at or before the checkpoint are skipped.
 */
function recoverShard(link: Link, shard: ShardState, error: unknown): void {
  shard.iterator = undefined;
  if (error instanceof Error && error.name === 'TrimmedDataAccessException') shard.fromHorizon = true;
  shard.retryAt = Date.now() + MAX_BACKOFF_MS;
  link.onError(error);
}

/** One GetRecords call (after getting an iterator when there is none), queuing what it returns. */
async function readShard(link: Link, shard: ShardState): Promise<void> {
  const { client, options } = link;
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
    const record = toLambdaRecord(raw, options.streamArn, link.region);
    addRead(shard, {
      record,
      sequenceNumber: record.dynamodb?.SequenceNumber ?? '',
      matches:
        link.filter === null ||
        (Array.isArray(link.filter) ? link.filter : [link.filter]).some((pattern: FilterPattern) =>
          matchesFilterPattern(pattern, record),
        ),
    });
  }
}

/**
 * Invokes the handler with the next batch of matching records and settles what succeeded (with the
 * filtered-out records before it). False when the batch failed and the shard backs off.
 */
async function invokeNext(link: Link, shard: ShardState): Promise<boolean> {
  const indexes = nextBatch(shard, link.batchSize);
  const lastIndex = indexes.at(-1);
  if (lastIndex === undefined) {
    markDone(link, shard, shard.pending.length);
    return true;
  }
  const batch = indexes.map((index) => shard.pending[index] as PendingRecord);
  let failedAt: number;
  try {
    const response = await link.options.handler({ Records: batch.map((entry) => entry.record) });
    failedAt = firstFailure(response ?? undefined, batch);
  } catch (error) {
    link.onError(error);
    failedAt = 0;
  }
  if (failedAt < 0) {
    markDone(link, shard, lastIndex + 1);
    shard.failures = 0;
    return true;
  }
  markDone(link, shard, indexes[failedAt] ?? 0);
  backOff(shard, Date.now());
  return false;
}

/** Settles the first `count` pending records and notes the new position for the checkpoint file. */
function markDone(link: Link, shard: ShardState, count: number): void {
  const done = settle(shard, count);
  if (done === undefined) return;
  link.checkpoint[shard.id] = done;
  link.checkpointDirty = true;
}
