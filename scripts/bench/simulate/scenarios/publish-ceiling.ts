/**
 * One organization's publish ceiling: its clients publish at a steady rate through the real `recordEvent`
 * (`publisher.ts`) for a few virtual seconds, over many accounts (so no account's log partition is the
 * limit), on a table warmed to the account's on-demand quota (so the table-wide limit is not either);
 * what remains is the organization's index partitions. A rate is sustained when no request was throttled
 * and every publish was stored by its first send.
 */
import { SAMPLE_PAYLOAD } from '../../capacity';
import { Scheduler } from '../engine/scheduler';
import { scenarioEventId, scenarioIban } from './consumer-scenario';
import { deploy } from './deployment';
import { Publisher } from './publisher';

/** One measured rate. */
export interface CeilingPoint {
  readonly rate: number;
  readonly indexShards: number | undefined;
  /** Events stored per second of the run, counting those that needed a client retry. */
  readonly storedPerSecond: number;
  /** DynamoDB requests refused (the SDK retried most of them). */
  readonly throttles: number;
  /** Publishes that needed a second send, or were given up. */
  readonly resent: number;
  readonly abandoned: number;
  readonly sustained: boolean;
  /** DynamoDB requests (retries included) and capacity units per stored event. */
  readonly requestsPerStored: number;
  readonly readUnitsPerStored: number;
  readonly writeUnitsPerStored: number;
  /** Sends answered 503 busy (no sequence taken in time). */
  readonly busy: number;
  readonly wallMs: number;
}

/** Settings of a ceiling run. */
export interface CeilingRun {
  /** Publishes per second of the one organization. */
  readonly rate: number;
  /** Virtual seconds of steady publishing (default 5). */
  readonly seconds?: number;
  /** Accounts of the organization (default 10,000: one to two publishes per second each). */
  readonly accounts?: number;
  /** Herald's write shards (default), or 1 for the unsharded index. */
  readonly indexShards?: number;
  readonly seed?: number;
}

/** The account quota of on-demand throughput per table (and per index): the table is warmed to it. */
const WARM = { warmWriteUnits: 40_000, warmReadUnits: 120_000 } as const;

/** Publishes at `rate` for a few virtual seconds and tells whether the organization kept up. */
export async function measurePublishRate(run: CeilingRun): Promise<CeilingPoint> {
  const wallStart = performance.now();
  const engine = new Scheduler({ seed: run.seed ?? 1 });
  const start = engine.now();
  const deployment = deploy(engine, {
    table: { mode: { kind: 'on-demand', ...WARM } },
    ...(run.indexShards === undefined ? {} : { indexShards: run.indexShards }),
  });
  deployment.directory.addOrganization('org-big');
  const accounts = run.accounts ?? 10_000;
  const ibans = Array.from({ length: accounts }, (_, i) => {
    const iban = scenarioIban(i);
    deployment.directory.addAccount({ iban, orgId: 'org-big', webhookUrl: `https://r${i}.example.com/` });
    return iban;
  });
  const publisher = new Publisher(engine, deployment, { attempts: 3 });
  const requested = Math.round(run.rate * (run.seconds ?? 5));
  for (let i = 0; i < requested; i++) {
    engine.at(start + Math.floor((i * 1000) / run.rate), () =>
      engine.spawn(() =>
        publisher.publish({
          id: scenarioEventId(i),
          account: ibans[i % accounts] as string,
          type: 'credit_transfer_status_change',
          payload: SAMPLE_PAYLOAD,
        }),
      ),
    );
  }
  const result = await engine.run({ until: start + 3_600_000 });
  const total = deployment.dynamo.total();
  const throttles = total.throttles;
  const per = (n: number) => n / Math.max(1, publisher.stats.stored);
  const elapsedS = Math.max(run.seconds ?? 5, (result.endedAt - start) / 1000);
  return {
    rate: run.rate,
    indexShards: run.indexShards,
    storedPerSecond: publisher.stats.stored / elapsedS,
    throttles,
    resent: publisher.stats.resent,
    abandoned: publisher.stats.abandoned,
    sustained: throttles === 0 && publisher.stats.stored === requested,
    requestsPerStored: per(total.attempts),
    readUnitsPerStored: per(total.readUnits),
    writeUnitsPerStored: per(total.writeUnits + total.indexWriteUnits),
    busy: publisher.stats.failedSends.get('BusyError') ?? 0,
    wallMs: performance.now() - wallStart,
  };
}

/** The highest of `rates` (ascending) that is sustained, with every point measured up to the first miss. */
export async function publishCeiling(
  rates: readonly number[],
  settings: Omit<CeilingRun, 'rate'> = {},
): Promise<{ readonly ceiling: number; readonly points: readonly CeilingPoint[] }> {
  const points: CeilingPoint[] = [];
  let ceiling = 0;
  for (const rate of rates) {
    const point = await measurePublishRate({ ...settings, rate });
    points.push(point);
    if (!point.sustained) break;
    ceiling = rate;
  }
  return { ceiling, points };
}
