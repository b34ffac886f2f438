/**
 * The data side of the stream link: DynamoDB Streams records converted to what Lambda delivers, and the
 * per-shard checkpoint file. Kept apart from `stream-link.ts` so its polling loop reads without the
 * JSON-shape and file-format details.
 */
import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, StreamRecord } from 'aws-lambda';
import { PRIVATE_FILE_MODE } from './private-files';

/** The checkpoint file's content: the last processed sequence number per shard of one stream. */
export interface Checkpoint {
  readonly streamArn: string;
  readonly shards: Record<string, string>;
}

/** The SDK's record in the JSON shape Lambda delivers (epoch-second timestamps, base64 binaries). */
export function toLambdaRecord(raw: _Record, streamArn: string, region: string): DynamoDBRecord {
  const stream = raw.dynamodb;
  const record: DynamoDBRecord = {
    eventID: raw.eventID,
    eventName: raw.eventName,
    eventVersion: raw.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    dynamodb: toJson<StreamRecord>({
      ApproximateCreationDateTime: stream?.ApproximateCreationDateTime
        ? Math.floor(stream.ApproximateCreationDateTime.getTime() / 1000)
        : undefined,
      Keys: stream?.Keys,
      NewImage: stream?.NewImage,
      OldImage: stream?.OldImage,
      SequenceNumber: stream?.SequenceNumber,
      SizeBytes: stream?.SizeBytes,
      StreamViewType: stream?.StreamViewType,
    }),
    eventSourceARN: streamArn,
  };
  if (raw.userIdentity) record.userIdentity = toJson<unknown>(raw.userIdentity);
  return record;
}

function toJson<T>(value: unknown): T {
  return JSON.parse(
    JSON.stringify(value, (_key, inner: unknown) =>
      inner instanceof Uint8Array ? Buffer.from(inner).toString('base64') : inner,
    ),
  ) as T;
}

/**
 * The saved sequence numbers per shard of `streamArn`; empty without a file, with an unreadable one or
 * with one saved for another stream.
 */
export function loadCheckpoint(file: string | undefined, streamArn: string): Record<string, string> {
  if (!file) return {};
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<Checkpoint>;
    // A different stream ARN means the table was recreated: its old sequence numbers mean nothing.
    return saved.streamArn === streamArn && saved.shards ? { ...saved.shards } : {};
  } catch {
    return {};
  }
}

/** Writes the checkpoint file atomically. */
export async function saveCheckpoint(file: string, checkpoint: Checkpoint): Promise<void> {
  // Write-then-rename so a crash mid-write never leaves a truncated checkpoint behind.
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(checkpoint, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  await rename(temporary, file);
}
