import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import type { FunctionHandlers } from '../../scripts/local/functions';
import { startLocalRuntime } from '../../scripts/local/runtime';
import { waitFor } from '../support/wait';

const dataDir = mkdtempSync(join(tmpdir(), 'herald-runtime-data-'));

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const unused = async (): Promise<never> => {
  throw new Error('not expected in this test');
};

/** Fakes for every function; the forwarder records the event ids it sees. */
function recordingHandlers(forwarded: string[]): FunctionHandlers {
  return {
    authorizer: unused,
    health: unused,
    openapi: unused,
    listEvents: unused,
    getEvent: unused,
    redeliverEvent: unused,
    resetWebhooks: unused,
    listAccounts: unused,
    getAccount: unused,
    getDeliveryStats: unused,
    enableEndpoint: unused,
    sendTestEvent: unused,
    portal: unused,
    portalSession: unused,
    eventTypes: unused,
    manageSettings: unused,
    publishEvent: unused,
    administer: unused,
    consumer: unused,
    reconciler: unused,
    // The schedule may tick during a slow run: a summary that finds nothing to do.
    noticeSummary: async () => undefined,
    forwarder: async (event: DynamoDBStreamEvent) => {
      forwarded.push(...event.Records.map((record) => record.dynamodb?.NewImage?.id?.S ?? '?'));
    },
  };
}

async function putEvent(id: string): Promise<void> {
  const documents = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  await documents.send(
    new PutCommand({
      TableName: process.env.TABLE_NAME,
      Item: { pk: `LOG#o#${id}`, sk: '000000000001', id, webhook_status: 'pending', webhook_retries: 0 },
    }),
  );
  documents.destroy();
}

describe('local runtime with its own, persistent emulators', () => {
  it('keeps data across a restart and does not forward old events again', async () => {
    const firstRun: string[] = [];
    const first = await startLocalRuntime({ dataDir, handlers: recordingHandlers(firstRun) });
    try {
      await putEvent('before-restart');
      await waitFor(() => firstRun.includes('before-restart'), { what: 'the first event' });
    } finally {
      await first.stop();
    }

    const secondRun: string[] = [];
    const second = await startLocalRuntime({ dataDir, handlers: recordingHandlers(secondRun) });
    try {
      expect(second.tableName).toBe(first.tableName);
      expect(second.resources.streamArn).toBe(first.resources.streamArn);
      await putEvent('after-restart');
      await waitFor(() => secondRun.includes('after-restart'), { what: 'the second event' });
      expect(secondRun).toEqual(['after-restart']);
    } finally {
      await second.stop();
    }
  });
});
