import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionHandlers } from '../../scripts/local/functions';
import { type LocalRuntime, startLocalRuntime } from '../../scripts/local/runtime';
import { testEndpoints, uniquePrefix } from '../support/resources';
import { waitFor } from '../support/wait';

const notCalled = async (): Promise<never> => {
  throw new Error('not expected in this test');
};

let runtime: LocalRuntime;
const consumed: SQSRecord[] = [];
const invoked: string[] = [];
const envBefore = process.env.TABLE_NAME;

beforeAll(async () => {
  // Every function but `health` is a fake; `health` is imported from lambdas/handlers like in `npm start`.
  const handlers: Omit<FunctionHandlers, 'health'> = {
    authorizer: notCalled,
    openapi: notCalled,
    listEvents: notCalled,
    getEvent: notCalled,
    redeliverEvent: notCalled,
    resetWebhooks: notCalled,
    listAccounts: notCalled,
    getAccount: notCalled,
    getDeliveryStats: notCalled,
    enableEndpoint: notCalled,
    sendTestEvent: notCalled,
    portal: notCalled,
    portalSession: notCalled,
    eventTypes: notCalled,
    manageSettings: notCalled,
    publishEvent: notCalled,
    administer: notCalled,
    reconciler: notCalled,
    // The schedule may tick during a slow run: a summary that finds nothing to do.
    noticeSummary: async () => undefined,
    // The fake forwarder builds its client from the environment, as the real one does.
    forwarder: async (event) => {
      const sqs = new SQSClient({});
      const entries = event.Records.map((record, index) => ({
        Id: String(index),
        MessageBody: JSON.stringify({ id: record.dynamodb?.NewImage?.id?.S }),
      }));
      await sqs.send(new SendMessageBatchCommand({ QueueUrl: process.env.QUEUE_URL, Entries: entries }));
      sqs.destroy();
    },
    consumer: async (event) => {
      consumed.push(...event.Records);
    },
  };
  runtime = await startLocalRuntime({
    endpoints: testEndpoints(),
    prefix: uniquePrefix('runtime'),
    handlers,
    onInvoke: (key) => invoked.push(key),
  });
});

afterAll(async () => {
  await runtime?.stop();
});

describe('local runtime', () => {
  it('serves the API with a real handler', async () => {
    const response = await fetch(`${runtime.baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok' });
  });

  it('calls onInvoke before each real handler runs, not for replaced ones', async () => {
    const before = invoked.filter((key) => key === 'health').length;
    await fetch(`${runtime.baseUrl}/health`);
    expect(invoked.filter((key) => key === 'health').length).toBe(before + 1);
    expect(invoked.every((key) => key === 'health')).toBe(true);
  });

  it('sets the function environment', () => {
    expect(process.env).toMatchObject({
      TABLE_NAME: runtime.tableName,
      QUEUE_URL: runtime.queueUrl,
      DLQ_URL: runtime.dlqUrl,
      PUBLIC_BASE_URL: runtime.baseUrl,
      WEBHOOK_URL_POLICY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: runtime.endpoints.dynamodb,
      AWS_ENDPOINT_URL_SQS: runtime.endpoints.sqs,
    });
  });

  it('carries a pending event from the table through the forwarder to the consumer', async () => {
    const documents = DynamoDBDocumentClient.from(new DynamoDBClient({}));
    await documents.send(
      new PutCommand({
        TableName: runtime.tableName,
        Item: { pk: 'LOG#o#e1', sk: '000000000001', id: 'e1', webhook_status: 'pending', webhook_retries: 0 },
      }),
    );
    documents.destroy();
    await waitFor(() => consumed.length > 0, { what: 'the consumed message' });
    expect(consumed[0]).toMatchObject({ body: '{"id":"e1"}', eventSourceARN: runtime.resources.queueArn });
  });

  it('stops everything and restores the environment', async () => {
    const { baseUrl } = runtime;
    await runtime.stop();
    await runtime.stop();
    expect(process.env.TABLE_NAME).toBe(envBefore);
    await expect(fetch(`${baseUrl}/health`)).rejects.toThrow();
  });
});
