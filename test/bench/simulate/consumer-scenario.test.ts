/**
 * The simulation drives Herald's real code end to end: `recordEvent` through the API, the stream and the
 * forwarder, `deliverBatch` behind the Lambda event source on the SQS model, the dead-letter reconciler,
 * over metered in-memory ports, with one account whose receiver hangs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS } from '#config/delivery';
import { fastReceiver, hangingReceiver } from '../../../scripts/bench/simulate/receivers/receivers';
import { runConsumerScenario } from '../../../scripts/bench/simulate/scenarios/consumer';
import type { ConsumerRun } from '../../../scripts/bench/simulate/scenarios/consumer-run';

const scenario = (seed: number, maxVirtualMs?: number) =>
  runConsumerScenario({
    seed,
    events: 1_000,
    accounts: 50,
    receiver: (index) => (index === 0 ? hangingReceiver() : fastReceiver()),
    ...(maxVirtualMs === undefined ? {} : { maxVirtualMs }),
  });

/** What must come out the same from the same seed. */
function fingerprint(run: ConsumerRun): string {
  return JSON.stringify({
    events: [...run.events]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((e) => [e.id, e.webhookStatus, e.webhookRetries, e.deliveries.map((d) => d.deliveredAt)]),
    delivered: [...run.deliveredAt].sort(),
    lambda: run.lambda,
    dynamo: run.dynamo.total(),
    queue: run.queue.stats,
    virtualMs: run.virtualMs,
  });
}

describe('Herald scenario (recordEvent → stream → deliverBatch, 1,000 events over 50 accounts, one hanging receiver)', () => {
  let run: ConsumerRun;
  beforeAll(async () => {
    run = await scenario(7);
  });

  it('runs to the end without errors and with every port call metered', () => {
    expect(run.engineErrors).toEqual([]);
    expect(run.batchErrors).toEqual([]);
    expect(run.run.reason).toBe('stopped');
    expect([...run.dynamo.unmetered]).toEqual([]);
    expect(run.settledMs).toBeGreaterThan(0);
    expect(run.virtualMs).toBeGreaterThanOrEqual(run.settledMs ?? 0);
  });

  it('publishes every event once through recordEvent, at gap-free sequences per account, and forwards each', () => {
    expect(run.publish).toMatchObject({ requested: 1_000, stored: 1_000, abandoned: 0 });
    expect(run.forwarder.records).toBe(1_000);
    const sequences = new Map<string, number[]>();
    for (const event of run.events)
      sequences.set(event.account, [...(sequences.get(event.account) ?? []), event.sequence ?? 0]);
    expect(sequences.size).toBe(50);
    for (const list of sequences.values()) {
      expect(list.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    }
    expect(run.dynamo.of('api.events.claimId').calls).toBe(1_000);
    expect(run.dynamo.of('api.events.insertEvent').indexWriteUnits).toBeGreaterThanOrEqual(1_000);
  });

  it('delivers every event of a healthy account and settles the hanging account’s events as failed or skipped', () => {
    expect(run.events).toHaveLength(1_000);
    for (const event of run.events) {
      const hanging = run.accountIndex.get(event.account) === 0;
      if (hanging) expect(['failed', 'skipped']).toContain(event.webhookStatus);
      else {
        expect(event.webhookStatus).toBe('success');
        expect(run.deliveredAt.has(event.id)).toBe(true);
        expect(run.deliveredAt.get(event.id)).toBeGreaterThanOrEqual(
          run.publishedAt.get(event.id) ?? Infinity,
        );
      }
    }
    expect(run.deliveredAt.size).toBe(980);
  });

  it('records one attempt per counted retry and never more than 20 in the cycle', () => {
    for (const event of run.events) {
      expect(event.webhookRetries).toBe(event.deliveries.length);
      expect(event.deliveries.length).toBeLessThanOrEqual(MAX_ATTEMPTS);
    }
    expect(run.receiverRequests[0]).toBeLessThanOrEqual(20 * MAX_ATTEMPTS);
    expect(run.receiverRequests[0]).toBeGreaterThan(0);
    expect(run.deadLetters.size).toBe(0);
  });

  it('goes through the models: invocations, queue calls and capacity were all used', () => {
    expect(run.lambda.invocations).toBeGreaterThanOrEqual(100);
    // At most the maximum; held invocations pull more themselves, so the first wave may need fewer.
    expect(run.lambda.peakConcurrency).toBeLessThanOrEqual(20);
    expect(run.lambda.peakConcurrency).toBeGreaterThan(5);
    expect(run.queue.requests.calls.ChangeMessageVisibility).toBeGreaterThan(0);
    expect(run.dynamo.of('consumer.events.readEvent').calls).toBeGreaterThanOrEqual(1_000);
    expect(run.dynamo.of('consumer.events.recordAttempt').writeUnits).toBeGreaterThanOrEqual(1_000);
  });

  it('is deterministic for a seed, and a seed changes the run', async () => {
    expect(fingerprint(await scenario(7))).toBe(fingerprint(run));
    // The first virtual minute is enough to tell two seeds apart.
    expect(fingerprint(await scenario(8, 60_000))).not.toBe(fingerprint(await scenario(7, 60_000)));
  });
});
