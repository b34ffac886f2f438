/**
 * The SQS consumers' metrics: published after a batch that recorded some, and nothing at all (no empty
 * EMF document, no Powertools "No application metrics to publish" warning) after a batch that recorded
 * none, which for Herald is normal (duplicates, messages not due yet).
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMetrics } from '#adapters/observability';
import { queueHandler } from '#handlers/queue-handler';

const context = {
  functionName: 'herald-test-consumer',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:herald-test-consumer',
  memoryLimitInMB: '256',
  awsRequestId: 'request-1',
  getRemainingTimeInMillis: () => 60_000,
} as Context;
const noMessages: SQSEvent = { Records: [] };

let written: string[];

beforeEach(() => {
  // Metrics enabled, as in AWS (the local runtime disables them).
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  vi.stubEnv('POWERTOOLS_DEV', '');
  written = [];
  const record = (chunk: unknown): boolean => {
    written.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(record);
  vi.spyOn(process.stderr, 'write').mockImplementation(record);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('queue handler metrics', () => {
  it('writes nothing after a batch that recorded no metric', async () => {
    const handler = queueHandler(createMetrics(), async () => []);
    await handler(noMessages, context);
    expect(written.join('')).not.toMatch(/No application metrics|CloudWatchMetrics/);
  });

  it('publishes the metrics a batch recorded, as one EMF document', async () => {
    const metrics = createMetrics();
    const handler = queueHandler(metrics, async () => {
      metrics.addMetric('DeliverySucceeded', MetricUnit.Count, 1);
      return [];
    });
    await handler(noMessages, context);
    const emf = written.filter((line) => line.includes('CloudWatchMetrics'));
    expect(emf).toHaveLength(1);
    expect(JSON.parse(emf[0] ?? '{}')).toMatchObject({ DeliverySucceeded: 1 });
  });
});
