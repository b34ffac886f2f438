/**
 * For the agreement check the model reads the table's stream as the local runtime's stream link does
 * (`stream-link.ts`: a GetRecords round trip, then a pause), not with Lambda's batching window after the
 * first record. A record then waits for the next poll, so events published once per pause period wait
 * varying fractions of it as the polls drift, never more than one period and one round trip.
 */
import { describe, expect, it } from 'vitest';
import { fastReceiver } from '../../../scripts/bench/simulate/receivers/receivers';
import { runConsumerScenario } from '../../../scripts/bench/simulate/scenarios/consumer';

const PAUSE_MS = 200;
const READ_MS = 5;

/** Publish → delivery of 200 events published every 200 ms, with fixed round trips. */
async function latencies(stream: 'window' | 'poll'): Promise<number[]> {
  const run = await runConsumerScenario({
    events: 200,
    accounts: 4,
    publishOverMs: 200 * 200,
    receiver: () => fastReceiver(1),
    maximumConcurrency: 4,
    dynamoLatency: 4,
    sqsLatency: 2,
    coldStart: 0,
    invokeOverhead: 0,
    streamShards: 1,
    ...(stream === 'window'
      ? { forwarderWindowMs: PAUSE_MS }
      : { forwarderPoll: { everyMs: PAUSE_MS, readLatency: READ_MS } }),
    stopAtDeliveryOf: () => true,
  });
  return run.events.map(
    (event) => (run.deliveredAt.get(event.id) ?? Number.NaN) - (run.publishedAt.get(event.id) ?? 0),
  );
}

describe('the local stream link in the model', () => {
  it('hands each record on at the next poll: waits spread over one period, none longer', async () => {
    const polled = await latencies('poll');
    expect(polled.every(Number.isFinite)).toBe(true);
    const spread = Math.max(...polled) - Math.min(...polled);
    expect(spread).toBeGreaterThan(PAUSE_MS / 2);
    expect(spread).toBeLessThanOrEqual(PAUSE_MS + READ_MS);
  });

  it('waits half a period on average, where a window in step with the publishes waits nearly all of it', async () => {
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const windowed = median(await latencies('window'));
    const polled = median(await latencies('poll'));
    expect(windowed - polled).toBeGreaterThan(PAUSE_MS / 4);
  });
});
