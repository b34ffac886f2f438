/**
 * One agreement scenario on the local runtime (its own emulators, 4 consumer pollers), with what the
 * model is to be given from the same run: DynamoDB, SQS and receiver round trips sampled every 100 ms all
 * through it (so under its own load), how long publishing took, and the runtime process's CPU time. Also
 * measured, to see where an event's time goes: each fast event's phases (publish, stream, queue,
 * delivery, timed at the forwarder's and the consumer's invocations) and the process's share of a core
 * in 1 s windows.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, createSqsClient } from '#adapters/aws-clients';
import { createPublisher } from '#lambdas/publisher';
import { applyLocalAwsEnv, startEmulators } from '#local/emulators';
import { startLocalRuntime } from '#local/runtime';
import { TenantSeeder } from '#local/tenant-seed';
import { SAMPLE_PAYLOAD } from '../../capacity';
import { quantile } from '../report';
import { scenarioEventId, scenarioIban } from '../scenarios/consumer-scenario';
import { ACCOUNTS, type AgreementFigures, type AgreementScenario, isFast } from './scenarios';
import { eventTimings, invocationWatch } from './timings';

/** A measured round trip. */
export interface Measured {
  readonly medianMs: number;
  readonly p99Ms: number;
}

/** What the local run measured about its own parts (the model's inputs). */
export interface LocalInputs {
  readonly dynamo: Measured;
  readonly sqs: Measured;
  readonly receiver: Measured;
  readonly publishMs: number;
  /** CPU time of the runtime's Node process (publisher, API, stream link, pollers, handlers) in the run. */
  readonly cpuMs: number;
  /** Wall time from the first publish to the last fast delivery. */
  readonly wallMs: number;
}

/** A local run: its figures, the model's inputs, and where the time went. */
export interface LocalMeasurement {
  readonly scenario: AgreementScenario['name'];
  /** `/proc/loadavg`'s 1-minute figure just before the emulators started (other work on the machine). */
  readonly loadAverage: number;
  readonly figures: AgreementFigures;
  readonly inputs: LocalInputs;
  /** Median of each phase over the fast events, ms (see `timings.ts`). */
  readonly phases: {
    readonly publish: number;
    readonly stream: number;
    readonly queue: number;
    readonly delivery: number;
  };
  /** The process's CPU time over wall time in 1 s windows of the run: 10th, 50th, 90th percentile. */
  readonly cpuShare: { readonly p10: number; readonly p50: number; readonly p90: number };
  /** The process's CPU time over wall time in each {@link CPU_WINDOW_MS} window from the first publish. */
  readonly cpuWindows: readonly number[];
}

/** Length of the windows the runtime's CPU share is measured in, ms. */
export const CPU_WINDOW_MS = 1_000;

async function roundTrip(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

const measured = (samples: readonly number[]): Measured => ({
  medianMs: quantile(samples, 0.5),
  p99Ms: quantile(samples, 0.99),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function listen(handler: (id: string) => boolean): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    const answer = handler(String(req.headers['webhook-id']));
    if (answer) req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

/** The 1-minute load average, or NaN where `/proc` is absent. */
function loadAverage(): number {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return Number.NaN;
  }
}

/** Publishes the scenario's events as its plan says; `publishOne` is awaited per event. */
async function publishAll(
  scenario: AgreementScenario,
  publishOne: (index: number) => Promise<void>,
): Promise<void> {
  const plan = scenario.publish;
  if (plan.kind === 'groups') {
    for (let i = 0; i < scenario.events; i += plan.concurrency) {
      const group = Math.min(plan.concurrency, scenario.events - i);
      await Promise.all(Array.from({ length: group }, (_, k) => publishOne(i + k)));
    }
    return;
  }
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < scenario.events; i++) {
    const wait = started + (i * 1000) / plan.perSecond - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(publishOne(i));
  }
  await Promise.all(pending);
}

/** Runs `scenario` on the local runtime (its own emulators, stopped again). */
export async function measureLocal(scenario: AgreementScenario): Promise<LocalMeasurement> {
  const load = loadAverage();
  const emulators = await startEmulators();
  const timings = eventTimings();
  const fast = await listen((id) => {
    timings.arrived(id);
    return true;
  });
  const hanging = await listen(() => false);
  const probe = await listen(() => true);
  try {
    applyLocalAwsEnv(emulators.endpoints);
    const runtime = await startLocalRuntime({
      endpoints: emulators.endpoints,
      prefix: `agree-${Date.now().toString(36)}`,
      onInvoke: invocationWatch(timings),
    });
    try {
      const client = createDocumentClient();
      const ibans = Array.from({ length: ACCOUNTS }, (_, i) => scenarioIban(i));
      await new TenantSeeder(client, runtime.tableName).tenant(
        'agreement',
        ibans.map((iban, i) => ({ iban, webhookUrl: isFast(i) ? fast.url : hanging.url })),
      );
      const sqsClient = createSqsClient();
      const samples = { dynamo: [] as number[], sqs: [] as number[], receiver: [] as number[] };
      const shares: number[] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          samples.dynamo.push(
            await roundTrip(() =>
              client.send(new GetCommand({ TableName: runtime.tableName, Key: { pk: 'NONE', sk: 'NONE' } })),
            ),
          );
          samples.sqs.push(
            await roundTrip(() =>
              sqsClient.send(
                new GetQueueAttributesCommand({ QueueUrl: runtime.dlqUrl, AttributeNames: ['All'] }),
              ),
            ),
          );
          samples.receiver.push(await roundTrip(() => fetch(probe.url, { method: 'POST', body: '{}' })));
          await sleep(100);
        }
      })();
      const publish = createPublisher({ tableName: runtime.tableName, baseUrl: runtime.baseUrl, client });
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      let window = { at: started, cpu: cpuBefore };
      const windows = setInterval(() => {
        const now = { at: performance.now(), cpu: process.cpuUsage() };
        const used = process.cpuUsage(window.cpu);
        shares.push((used.user + used.system) / 1000 / (now.at - window.at));
        window = now;
      }, CPU_WINDOW_MS);
      await publishAll(scenario, async (i) => {
        const id = scenarioEventId(i);
        const counted = isFast(i % ACCOUNTS);
        if (counted) timings.sent(id);
        await publish({
          id,
          account: ibans[i % ACCOUNTS] as string,
          type: 'credit_transfer_status_change',
          payload: SAMPLE_PAYLOAD,
        });
        if (counted) timings.stored(id);
      });
      const publishMs = performance.now() - started;
      const deadline = performance.now() + 300_000;
      while (!timings.allArrived() && performance.now() < deadline) await sleep(20);
      const cpu = process.cpuUsage(cpuBefore);
      clearInterval(windows);
      sampling = false;
      await sampler;
      const result = timings.summary(started);
      return {
        scenario: scenario.name,
        loadAverage: load,
        figures: result.figures,
        inputs: {
          dynamo: measured(samples.dynamo),
          sqs: measured(samples.sqs),
          receiver: measured(samples.receiver),
          publishMs,
          cpuMs: (cpu.user + cpu.system) / 1000,
          wallMs: result.figures.drainMs,
        },
        phases: result.phases,
        cpuShare: { p10: quantile(shares, 0.1), p50: quantile(shares, 0.5), p90: quantile(shares, 0.9) },
        cpuWindows: shares,
      };
    } finally {
      await runtime.stop();
    }
  } finally {
    hanging.server.closeAllConnections();
    hanging.server.close();
    fast.server.close();
    probe.server.close();
    await emulators.stop();
  }
}
