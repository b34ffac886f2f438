import { describe, expect, it } from 'vitest';
import {
  type Charge,
  drawsOf,
  readUnits,
  writeUnits,
} from '../../../scripts/bench/simulate/aws/dynamodb/capacity';
import { DynamoClient, DynamoThrottlingError } from '../../../scripts/bench/simulate/aws/dynamodb/client';
import { DYNAMODB_SDK_RETRY, RetryStrategy } from '../../../scripts/bench/simulate/aws/dynamodb/sdk-retry';
import { DynamoTable, type TableConfig } from '../../../scripts/bench/simulate/aws/dynamodb/table';
import { Random } from '../../../scripts/bench/simulate/engine/random';
import { Scheduler } from '../../../scripts/bench/simulate/engine/scheduler';
import { simulate } from './simulate';

/** A table on a clock the test moves by hand. */
function tableAt(config: Partial<TableConfig> = {}) {
  const clock = { now: 0 };
  const table = new DynamoTable(
    { name: 'events', mode: { kind: 'on-demand' }, indexes: { 'by-org': {} }, ...config },
    () => clock.now,
  );
  return { table, clock };
}

const write = (key: string, indexKey?: string): Charge => ({
  kind: 'write',
  key,
  ...(indexKey === undefined ? {} : { indexes: [{ index: 'by-org', key: indexKey }] }),
});

/** How many of `count` single-unit writes spread evenly over one second the table admits. */
function admittedInOneSecond(
  table: DynamoTable,
  clock: { now: number },
  count: number,
  charge: (i: number) => Charge,
) {
  let admitted = 0;
  const start = clock.now;
  for (let i = 0; i < count; i++) {
    clock.now = start + (i * 1000) / count;
    if (table.request(drawsOf([charge(i)])) === undefined) admitted++;
  }
  clock.now = start + 1000;
  return admitted;
}

describe('DynamoDB capacity units', () => {
  it('charges writes per started KB, reads per started 4 KB, halves eventual reads, doubles transactions', () => {
    expect([writeUnits(0.3), writeUnits(1), writeUnits(1.01), writeUnits(2.5, true)]).toEqual([1, 1, 2, 6]);
    expect([
      readUnits(3.9, true),
      readUnits(4.1, true),
      readUnits(4.1, false),
      readUnits(1, true, true),
    ]).toEqual([1, 2, 1, 2]);
  });

  it('adds one write per index entry written, and rounds a query over its total size', () => {
    const draws = drawsOf([
      {
        kind: 'write',
        key: 'EVENT#1',
        sizeKb: 1.5,
        indexes: [{ index: 'by-org', key: 'ORG#1', sizeKb: 0.2 }],
      },
      { kind: 'query', key: 'ORG#1', index: 'by-org', sizeKb: 10 },
    ]);
    expect(draws.map((d) => [d.index, d.access, d.units])).toEqual([
      [undefined, 'write', 2],
      ['by-org', 'write', 1],
      ['by-org', 'read', 1.5],
    ]);
    expect(() =>
      drawsOf([{ kind: 'query', key: 'x', index: 'by-org', sizeKb: 1, consistent: true }]),
    ).toThrow(/consistently/);
  });
});

describe('DynamoDB throughput', () => {
  it('limits one partition key to 1,000 write units a second while other keys write freely', () => {
    const { table, clock } = tableAt();
    expect(admittedInOneSecond(table, clock, 1_500, () => write('EVENT#hot'))).toBeLessThanOrEqual(1_001);
    expect(admittedInOneSecond(table, clock, 1_500, () => write('EVENT#hot'))).toBeGreaterThanOrEqual(999);
    expect(admittedInOneSecond(table, clock, 1_500, (i) => write(`EVENT#${i}`))).toBe(1_500);
  });

  it('throttles the table write when the index partition it feeds is full (GSI back-pressure)', () => {
    const { table, clock } = tableAt();
    // Distinct items, one index partition key: the index caps the table at ~1,000 writes a second.
    const admitted = admittedInOneSecond(table, clock, 3_000, (i) => write(`EVENT#${i}`, 'ORG#big#EVENTS'));
    expect(admitted).toBeGreaterThanOrEqual(999);
    expect(admitted).toBeLessThanOrEqual(1_001);
    const refusal = table.request(
      drawsOf([write('EVENT#x', 'ORG#big#EVENTS'), write('EVENT#x2', 'ORG#big#EVENTS')]),
    );
    expect(refusal).toMatchObject({ reason: 'IndexWriteKeyRangeThroughputExceeded', resource: 'by-org' });
  });

  it('serves a new on-demand table 4,000 write units a second, and twice a peak once it is 30 minutes old', () => {
    const { table, clock } = tableAt({ indexes: {} });
    const spread = (i: number) => write(`EVENT#${i}`);
    expect(admittedInOneSecond(table, clock, 6_000, spread)).toBeLessThanOrEqual(4_001);
    clock.now += 29 * 60_000;
    expect(admittedInOneSecond(table, clock, 6_000, spread)).toBeLessThanOrEqual(4_001);
    clock.now += 2 * 60_000;
    // The peak of ~4,000 a second is now old enough: up to 8,000.
    expect(admittedInOneSecond(table, clock, 7_000, spread)).toBe(7_000);
  });

  it('holds a provisioned table to its units plus the burst it saved', () => {
    const { table, clock } = tableAt({
      mode: { kind: 'provisioned', readUnits: 100, writeUnits: 100 },
      indexes: {},
    });
    expect(admittedInOneSecond(table, clock, 300, (i) => write(`EVENT#${i}`))).toBeLessThanOrEqual(201);
    clock.now += 60_000;
    // A quiet minute saved 6,000 units of burst, and the second refills 100 more.
    const burst = admittedInOneSecond(table, clock, 7_000, (i) => write(`EVENT#${i}`));
    expect(burst).toBeGreaterThanOrEqual(6_000);
    expect(burst).toBeLessThanOrEqual(6_101);
    expect(table.request(drawsOf([{ kind: 'write', key: 'EVENT#y', sizeKb: 50 }]))).toMatchObject({
      reason: 'TableWriteProvisionedThroughputExceeded',
    });
  });
});

describe('AWS SDK retries (DynamoDB client defaults)', () => {
  it('makes at most 4 attempts with full-jitter backoff of up to 1, 2 and 4 s after throttling', () => {
    const strategy = new RetryStrategy(DYNAMODB_SDK_RETRY, new Random(5));
    const delays = [1, 2, 3].map((attempt) => strategy.retryAfter(attempt, 'THROTTLING')?.delayMs);
    expect(delays.every((d, i) => d !== undefined && d >= 0 && d < 1_000 * 2 ** i)).toBe(true);
    expect(strategy.retryAfter(4, 'THROTTLING')).toBeUndefined();
    expect(strategy.quota).toBe(500 - 3 * 5);
  });

  it('stops retrying when the quota is spent, and refills it on success', () => {
    const strategy = new RetryStrategy(DYNAMODB_SDK_RETRY, new Random(5));
    let granted = 0;
    while (strategy.retryAfter(1, 'TRANSIENT') !== undefined) granted++;
    expect(granted).toBe(Math.floor(500 / 14));
    strategy.succeeded(14);
    expect(strategy.retryAfter(1, 'TRANSIENT')).toBeDefined();
  });

  it('retries a throttled call in virtual time and throws after the fourth throttled attempt', async () => {
    await simulate(async (engine) => {
      const table = new DynamoTable({ name: 'events', mode: { kind: 'on-demand' } }, engine.now);
      const client = new DynamoClient(engine, table, { latency: 10 });
      // Another writer keeps the partition at its 1,000 units a second for ten seconds.
      for (let t = 0; t < 10_000; t++) engine.at(t, () => table.request(drawsOf([write('EVENT#hot')])));
      await engine.sleep(500);
      const started = engine.now();
      const big: Charge = { kind: 'write', key: 'EVENT#hot', sizeKb: 600 };
      await expect(client.call('again', [big], () => 'never')).rejects.toBeInstanceOf(DynamoThrottlingError);
      const counts = client.meter.of('again');
      expect(counts).toMatchObject({
        calls: 1,
        attempts: 4,
        throttles: 4,
        retries: 3,
        failures: 1,
        writeUnits: 0,
      });
      // Four round trips and three waits of at most 1 + 2 + 4 s.
      expect(engine.now() - started).toBeGreaterThanOrEqual(40);
      expect(engine.now() - started).toBeLessThan(40 + 7_000);
      expect(client.meter.reasons.get('TableWriteKeyRangeThroughputExceeded')).toBe(4);
    });
  });

  it('gets through once the partition has room again, charging only the admitted attempt', async () => {
    await simulate(async (engine) => {
      const table = new DynamoTable({ name: 'events', mode: { kind: 'on-demand' } }, engine.now);
      const client = new DynamoClient(engine, table, { latency: 10 });
      await client.call('fill', [{ kind: 'write', key: 'EVENT#hot', sizeKb: 900 }], () => undefined);
      const result = await client.call(
        'next',
        [{ kind: 'write', key: 'EVENT#hot', sizeKb: 200 }],
        () => 'ok',
      );
      expect(result).toBe('ok');
      expect(client.meter.of('next').writeUnits).toBe(200);
      expect(client.meter.of('next').retries).toBeGreaterThanOrEqual(1);
    });
  });
});

describe('virtual latency of a client call', () => {
  it('applies the operation halfway through the round trip', async () => {
    const engine = new Scheduler({ startMs: 0 });
    const table = new DynamoTable({ name: 't', mode: { kind: 'on-demand' } }, engine.now);
    const client = new DynamoClient(engine, table, { latency: 20 });
    const times: number[] = [];
    engine.spawn(async () => {
      await client.call('op', [{ kind: 'read', key: 'k' }], () => times.push(engine.now()));
      times.push(engine.now());
    });
    await engine.run();
    expect(times).toEqual([10, 20]);
  });
});
