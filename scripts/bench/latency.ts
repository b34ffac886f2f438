/**
 * Publish → receiver latency and delivery throughput through the whole local runtime (stream poller,
 * forwarder, queue poller, consumer, a fast loopback receiver).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDocumentClient } from '#adapters/aws-clients';
import { createPublisher } from '#lambdas/publisher';
import type { LocalEndpoints } from '#local/emulators';
import { startLocalRuntime } from '#local/runtime';
import { TenantSeeder } from '#local/tenant-seed';
import { SAMPLE_PAYLOAD } from './capacity';

/** Latency percentiles (ms) and throughput (deliveries per second). */
export interface LatencyResult {
  readonly events: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  readonly burstEvents: number;
  /** Publishes per second while the burst was being published (50 at a time). */
  readonly publishesPerSecond: number;
  /** Deliveries per second from the first to the last arrival of the burst. */
  readonly deliveriesPerSecond: number;
  /** Deliveries still outstanding when the last publish returned: a backlog means the consumer lagged. */
  readonly backlogAtLastPublish: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Runs both measurements against one runtime. */
export async function measureLatency(
  endpoints: LocalEndpoints,
  events: number,
  burst: number,
): Promise<LatencyResult> {
  const arrivals = new Map<string, number>();
  let waiting: (() => void) | undefined;
  let expected = 0;
  const receiver = createServer((req, res) => {
    arrivals.set(String(req.headers['webhook-id']), performance.now());
    req.resume();
    req.on('end', () => res.writeHead(204).end());
    if (arrivals.size >= expected) waiting?.();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const runtime = await startLocalRuntime({ endpoints, prefix: `bench-${Date.now().toString(36)}` });
  try {
    const client = createDocumentClient();
    const iban = 'DE89370400440532013000';
    await new TenantSeeder(client, runtime.tableName).tenant('bench', [{ iban, webhookUrl: url }]);
    const publish = createPublisher({ tableName: runtime.tableName, baseUrl: runtime.baseUrl, client });
    const event = { account: iban, type: 'credit_transfer_status_change', payload: SAMPLE_PAYLOAD };

    // Latency: one event at a time, spaced, so each measures the pipeline rather than a queue.
    const latencies: number[] = [];
    for (let i = 0; i < events; i++) {
      const started = performance.now();
      const { id } = await publish(event);
      while (!arrivals.has(id)) await new Promise((resolve) => setTimeout(resolve, 2));
      latencies.push((arrivals.get(id) ?? 0) - started);
    }
    latencies.sort((a, b) => a - b);

    // Throughput: a burst published at once; deliveries per second from first to last arrival.
    arrivals.clear();
    expected = burst;
    const done = new Promise<void>((resolve) => (waiting = resolve));
    const publishStarted = performance.now();
    for (let i = 0; i < burst; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, burst - i) }, () => publish(event)));
    }
    const publishSeconds = (performance.now() - publishStarted) / 1000;
    const backlogAtLastPublish = burst - arrivals.size;
    await done;
    const times = [...arrivals.values()].sort((a, b) => a - b);
    const seconds = ((times.at(-1) ?? 0) - (times[0] ?? 0)) / 1000;
    return {
      events,
      p50Ms: Math.round(percentile(latencies, 50)),
      p95Ms: Math.round(percentile(latencies, 95)),
      maxMs: Math.round(latencies.at(-1) ?? Number.NaN),
      burstEvents: burst,
      publishesPerSecond: Math.round(burst / publishSeconds),
      deliveriesPerSecond: Math.round(burst / seconds),
      backlogAtLastPublish,
    };
  } finally {
    await runtime.stop();
    receiver.close();
  }
}
