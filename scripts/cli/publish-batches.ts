/**
 * How `herald publish --file` cuts a file's lines into `POST /events/batch` requests: in the file's order,
 * each request as many lines as both of the API's bounds allow, its entry count
 * ({@link PUBLISH_BATCH_LIMIT}) and its body's bytes ({@link PUBLISH_BATCH_MAX_BYTES}), which the API
 * checks on the whole body: a request over either is refused whole, so the lines it held could never be
 * published by sending it again. A line too large for any request is refused as that line.
 */
import { PUBLISH_BATCH_LIMIT, PUBLISH_BATCH_MAX_BYTES } from '#config/limits';

/** A line of the file to send: its number and the entry sent for it. */
export interface SendableLine {
  readonly line: number;
  readonly body: unknown;
}

/** The requests to send, and the lines no request can carry. */
export interface PublishBatches {
  /** Each request's lines, in the file's order. */
  readonly batches: readonly (readonly SendableLine[])[];
  /** Lines whose entry alone makes a body over the limit, each with why, as a refused line's problem. */
  readonly tooLarge: readonly { readonly line: number; readonly problem: string }[];
}

/** The body of a request, as the API client sends it (`JSON.stringify`, UTF-8). */
const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** `{"events":[]}`: what a body weighs beside its entries and the commas between them. */
const ENVELOPE_BYTES = bytesOf({ events: [] });

/** Most bytes one entry may take: alone in a request, the body is at the limit. */
const MAX_ENTRY_BYTES = PUBLISH_BATCH_MAX_BYTES - ENVELOPE_BYTES;

/**
 * Cuts `lines` into requests of at most {@link PUBLISH_BATCH_LIMIT} entries whose body (`{"events":
 * [...]}`) has at most {@link PUBLISH_BATCH_MAX_BYTES} bytes, each holding as many of the next lines as
 * fit; a line whose entry alone is over goes to `tooLarge` instead.
 */
export function publishBatches(lines: readonly SendableLine[]): PublishBatches {
  const batches: SendableLine[][] = [];
  const tooLarge: { line: number; problem: string }[] = [];
  let batch: SendableLine[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const entry of lines) {
    const size = bytesOf(entry.body);
    if (size > MAX_ENTRY_BYTES) {
      tooLarge.push({
        line: entry.line,
        problem:
          `line ${entry.line}: has ${size} bytes as JSON, over the ${MAX_ENTRY_BYTES} one entry of ` +
          `a batch may take (a request's body has at most ${PUBLISH_BATCH_MAX_BYTES})`,
      });
      continue;
    }
    // Every entry after a request's first is preceded by a comma.
    if (
      batch.length === PUBLISH_BATCH_LIMIT ||
      (batch.length > 0 && bytes + 1 + size > PUBLISH_BATCH_MAX_BYTES)
    ) {
      batches.push(batch);
      batch = [];
      bytes = ENVELOPE_BYTES;
    }
    bytes += (batch.length > 0 ? 1 : 0) + size;
    batch.push(entry);
  }
  if (batch.length > 0) batches.push(batch);
  return { batches, tooLarge };
}
