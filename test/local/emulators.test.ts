import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateQueueCommand, ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  applyLocalAwsEnv,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  startDynamoDbLocal,
  startFauxqs,
} from '../../scripts/local/emulators';

const scratch = mkdtempSync(join(tmpdir(), 'herald-emulators-'));

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function sqsClient(endpoint: string): SQSClient {
  return new SQSClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
}

describe('emulators', () => {
  it('explains a missing java instead of failing obscurely', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(scratch, 'no-such-bin');
    try {
      await expect(startDynamoDbLocal({ readyTimeoutMs: 10_000 })).rejects.toThrow(
        /Java development kit.*`java` was not found/,
      );
    } finally {
      process.env.PATH = path;
    }
  });

  it('persists fauxqs queues across restarts and leaves no process behind', async () => {
    const dataDir = join(scratch, 'sqs');
    const first = await startFauxqs({ dataDir });
    const client = sqsClient(first.endpoint);
    await client.send(new CreateQueueCommand({ QueueName: 'kept' }));
    client.destroy();
    await first.stop();
    await first.stop();
    expect(isAlive(first.pid)).toBe(false);

    const second = await startFauxqs({ dataDir });
    try {
      const again = sqsClient(second.endpoint);
      const { QueueUrls } = await again.send(new ListQueuesCommand({}));
      again.destroy();
      expect(QueueUrls?.map((url) => url.split('/').at(-1))).toEqual(['kept']);
    } finally {
      await second.stop();
    }
    expect(isAlive(second.pid)).toBe(false);
  });

  it('applies and restores the SDK environment', () => {
    const env: NodeJS.ProcessEnv = { AWS_REGION: 'eu-west-1' };
    const restore = applyLocalAwsEnv({ dynamodb: 'http://127.0.0.1:1', sqs: 'http://127.0.0.1:2' }, env);
    expect(env).toMatchObject({
      AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:1',
      AWS_ENDPOINT_URL_DYNAMODB_STREAMS: 'http://127.0.0.1:1',
      AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:2',
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: expect.any(String),
      AWS_SECRET_ACCESS_KEY: expect.any(String),
    });
    restore();
    expect(env).toEqual({ AWS_REGION: 'eu-west-1' });
  });
});
