/**
 * One account's log at its partition's limits (about 1,000 write units a second): a file of events
 * published through batches, as `herald publish --file` sends it (one batch after the other, or several
 * senders at once), on a table warmed so that only the log's partition (and the claims' and index's
 * spread partitions) limit it. Single publishes at a steady rate are `publish-ceiling.ts` with one account.
 */
import { SAMPLE_PAYLOAD } from '../../capacity';
import { Scheduler } from '../engine/scheduler';
import { scenarioEventId, scenarioIban } from './consumer-scenario';
import { deploy } from './deployment';
import { Publisher } from './publisher';

/** One file run. */
export interface FilePoint {
  readonly events: number;
  readonly senders: number;
  /** Virtual seconds from the first batch sent to the last event stored. */
  readonly seconds: number;
  readonly storedPerSecond: number;
  readonly stored: number;
  readonly abandoned: number;
  readonly throttles: number;
  readonly requestsPerStored: number;
  readonly readUnitsPerStored: number;
  /** Table and index writes per stored event (refused conditional writes included). */
  readonly writeUnitsPerStored: number;
  readonly wallMs: number;
}

/** The account quota of on-demand throughput per table: the table is warmed to it. */
const WARM = { warmWriteUnits: 40_000, warmReadUnits: 120_000 } as const;

/**
 * Publishes `events` events of one account in batches of `batchSize` (the file's order), `senders` batches
 * in flight at once (each sender takes the next batch when its last one is answered).
 */
export async function measureFileRate(run: {
  readonly events: number;
  readonly batchSize?: number;
  readonly senders?: number;
  readonly seed?: number;
}): Promise<FilePoint> {
  const wallStart = performance.now();
  const engine = new Scheduler({ seed: run.seed ?? 1 });
  const start = engine.now();
  const deployment = deploy(engine, { table: { mode: { kind: 'on-demand', ...WARM } } });
  deployment.directory.addOrganization('org-file');
  const iban = scenarioIban(0);
  deployment.directory.addAccount({ iban, orgId: 'org-file', webhookUrl: 'https://receiver.example.com/' });
  const publisher = new Publisher(engine, deployment, { attempts: 5 });
  const size = run.batchSize ?? 100;
  const senders = run.senders ?? 1;
  let next = 0;
  let lastStored = start;
  const sender = async () => {
    while (next < run.events) {
      const from = next;
      next = Math.min(run.events, next + size);
      const batch = Array.from({ length: next - from }, (_, k) => ({
        id: scenarioEventId(from + k),
        account: iban,
        type: 'credit_transfer_status_change',
        payload: SAMPLE_PAYLOAD,
      }));
      await publisher.publishBatch(batch);
      lastStored = engine.now();
    }
  };
  for (let s = 0; s < senders; s++) engine.spawn(sender);
  await engine.run({ until: start + 3_600_000 });
  const total = deployment.dynamo.total();
  const stored = publisher.stats.stored;
  const per = (n: number) => n / Math.max(1, stored);
  const seconds = (lastStored - start) / 1000;
  return {
    events: run.events,
    senders,
    seconds,
    storedPerSecond: stored / Math.max(seconds, 0.001),
    stored,
    abandoned: publisher.stats.abandoned,
    throttles: total.throttles,
    requestsPerStored: per(total.attempts),
    readUnitsPerStored: per(total.readUnits),
    writeUnitsPerStored: per(total.writeUnits + total.indexWriteUnits),
    wallMs: performance.now() - wallStart,
  };
}
