import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StreamLink, type StreamLinkOptions, startStreamLink } from '../../scripts/local/stream-link';
import { type IsolatedResources, isolatedResources } from '../support/resources';
import { sleep, waitFor } from '../support/wait';

let resources: IsolatedResources;
const links: StreamLink[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'herald-stream-link-'));

// A table per test: a new link starts at TRIM_HORIZON and would otherwise replay earlier tests' writes.
beforeEach(async () => {
  resources = await isolatedResources({ label: 'stream' });
});

afterEach(async () => {
  await Promise.all(links.splice(0).map((link) => link.stop()));
  await resources.destroy();
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

interface Recording {
  /** Partition keys of each invocation's records. */
  readonly calls: string[][];
  readonly events: DynamoDBStreamEvent[];
  readonly errors: unknown[];
  readonly link: StreamLink;
}

/** Starts a link whose handler records every invocation and answers with `respond`. */
function recordingLink(
  respond: (event: DynamoDBStreamEvent, call: number) => DynamoDBBatchResponse | undefined = () => undefined,
  options: Partial<StreamLinkOptions> = {},
): Recording {
  const calls: string[][] = [];
  const events: DynamoDBStreamEvent[] = [];
  const errors: unknown[] = [];
  const link = startStreamLink({
    streamArn: resources.streamArn,
    onError: (error) => errors.push(error),
    ...options,
    handler: async (event) => {
      events.push(event);
      calls.push(event.Records.map((record) => record.dynamodb?.Keys?.pk?.S ?? '?'));
      return respond(event, calls.length);
    },
  });
  links.push(link);
  return { calls, events, errors, link };
}

async function putEvent(id: string, status = 'pending'): Promise<void> {
  await resources.documents.send(
    new PutCommand({
      TableName: resources.tableName,
      Item: { pk: `LOG#o#${id}`, sk: '000000000001', id, webhook_status: status, webhook_retries: 0 },
    }),
  );
}

async function seen(recording: Recording, id: string): Promise<void> {
  await waitFor(() => recording.calls.flat().includes(`LOG#o#${id}`), { what: `event ${id}` });
}

describe('stream link', () => {
  it('delivers a pending event insert in the shape Lambda uses, and nothing else', async () => {
    const recording = recordingLink();
    await putEvent('a');
    await resources.documents.send(
      new PutCommand({ TableName: resources.tableName, Item: { pk: 'ORG#o1', sk: 'ORG', name: 'Acme' } }),
    );
    await resources.documents.send(
      new UpdateCommand({
        TableName: resources.tableName,
        Key: { pk: 'LOG#o#a', sk: '000000000001' },
        UpdateExpression: 'SET webhook_retries = :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await putEvent('done', 'delivered');
    await putEvent('sentinel');
    await seen(recording, 'sentinel');

    expect(recording.calls.flat()).toEqual(['LOG#o#a', 'LOG#o#sentinel']);
    const record = recording.events[0]?.Records[0];
    expect(record).toMatchObject({
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: resources.streamArn,
      dynamodb: {
        Keys: { pk: { S: 'LOG#o#a' }, sk: { S: '000000000001' } },
        NewImage: { id: { S: 'a' }, webhook_status: { S: 'pending' }, webhook_retries: { N: '0' } },
        StreamViewType: 'NEW_IMAGE',
      },
    });
    expect(record?.eventID).toEqual(expect.any(String));
    expect(record?.dynamodb?.SequenceNumber).toEqual(expect.any(String));
    expect(record?.dynamodb?.SizeBytes).toEqual(expect.any(Number));
    // Epoch seconds, as Lambda delivers it (the SDK parses it into a Date).
    expect(record?.dynamodb?.ApproximateCreationDateTime).toBeGreaterThan(1_700_000_000);
    expect(record?.dynamodb?.ApproximateCreationDateTime).toBeLessThan(Date.now() / 1000 + 60);
  });

  it('delivers every record when the filter is null', async () => {
    const recording = recordingLink(undefined, { filter: null });
    await putEvent('a', 'delivered');
    await waitFor(() => recording.calls.length > 0, { what: 'the unfiltered record' });
    expect(recording.events[0]?.Records[0]?.eventName).toBe('INSERT');
  });

  it('invokes with at most batchSize records', async () => {
    for (const id of ['a', 'b', 'c', 'd', 'e']) await putEvent(id);
    const recording = recordingLink(undefined, { batchSize: 2 });
    await seen(recording, 'e');
    expect(recording.calls.map((call) => call.length)).toEqual([2, 2, 1]);
  });

  it('retries from the first reported failure without resending the records before it', async () => {
    for (const id of ['a', 'b', 'c']) await putEvent(id);
    const recording = recordingLink((event, call) => {
      const second = event.Records[1]?.dynamodb?.SequenceNumber;
      return call === 1 && second ? { batchItemFailures: [{ itemIdentifier: second }] } : undefined;
    });
    await waitFor(() => recording.calls.length >= 2, { what: 'the retry' });
    await sleep(500);
    expect(recording.calls).toEqual([
      ['LOG#o#a', 'LOG#o#b', 'LOG#o#c'],
      ['LOG#o#b', 'LOG#o#c'],
    ]);
  });

  it('retries the whole batch when the handler throws or names an unknown record', async () => {
    await putEvent('a');
    let call = 0;
    const recording = recordingLink(() => {
      call += 1;
      if (call === 1) throw new Error('boom');
      return call === 2 ? { batchItemFailures: [{ itemIdentifier: 'no-such-sequence-number' }] } : undefined;
    });
    await waitFor(() => recording.calls.length >= 3, { what: 'two retries' });
    await sleep(500);
    expect(recording.calls).toEqual([['LOG#o#a'], ['LOG#o#a'], ['LOG#o#a']]);
    expect(recording.errors).toEqual([expect.objectContaining({ message: 'boom' })]);
  });

  it('resumes after its checkpoint instead of replaying the stream', async () => {
    const checkpointFile = join(scratch, `${resources.prefix}.json`);
    const first = recordingLink(undefined, { checkpointFile });
    await putEvent('a');
    await seen(first, 'a');
    await first.link.stop();
    await putEvent('b');

    const checkpoint = JSON.parse(readFileSync(checkpointFile, 'utf8')) as { streamArn: string };
    expect(checkpoint.streamArn).toBe(resources.streamArn);
    const second = recordingLink(undefined, { checkpointFile });
    await seen(second, 'b');
    expect(second.calls.flat()).toEqual(['LOG#o#b']);
  });

  it('stop() awaits the invocation in flight', async () => {
    let entered = false;
    let finished = false;
    const link = startStreamLink({
      streamArn: resources.streamArn,
      handler: async () => {
        entered = true;
        await sleep(500);
        finished = true;
      },
    });
    links.push(link);
    await putEvent('a');
    await waitFor(() => entered, { what: 'the invocation' });
    await link.stop();
    expect(finished).toBe(true);
  });
});
