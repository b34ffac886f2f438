/**
 * `npm run bench -- isolation`: how much one bad receiver delays another account's webhooks. A fast
 * receiver's publish → delivery latency alone, then while another account has 300 queued events whose
 * receiver (a) answers after 3 s, (b) hangs past the 10 s timeout, (c) answers 500; each scenario on a
 * fresh local runtime with the default settings. Also the attempts the hanging receiver got.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { createPublisher, type Publisher } from '#lambdas/publisher';
import type { LocalEndpoints } from '#local/emulators';
import { type LocalRuntime, startLocalRuntime } from '#local/runtime';
import { createOrganization, putAccount } from '#use-cases/administer';
import { SAMPLE_PAYLOAD } from './capacity';

/** How the other account's receiver behaves. */
export type BadReceiver = 'slow-3s' | 'hang' | 'error-500';

/** One scenario's numbers. */
export interface IsolationRow {
  readonly scenario: 'alone' | BadReceiver;
  readonly samples: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  /** Requests the bad receiver got during the measurement. */
  readonly badRequests: number;
  readonly seconds: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const BACKLOG = 300;
const SAMPLES = 40;
const SPACING_MS = 500;
const SAMPLE_CAP_MS = 120_000;

interface Listening {
  readonly server: Server;
  readonly url: string;
  readonly requests: () => number;
}

async function listen(handler: Handler): Promise<Listening> {
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests: () => count,
  };
}

function badHandler(kind: BadReceiver): Handler {
  return (req, res) => {
    req.resume();
    if (kind === 'hang') return;
    if (kind === 'error-500') return void req.on('end', () => res.writeHead(500).end('down'));
    setTimeout(() => res.writeHead(200).end('ok'), 3_000);
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN);
}

async function account(runtime: LocalRuntime, url: string, iban: string): Promise<void> {
  const directory = new DynamoDirectoryStore(createDocumentClient(), runtime.tableName);
  const org = await createOrganization(directory, `bench ${iban}`);
  await putAccount(directory, { orgId: org.id, iban, webhookUrl: url }, 'local', runtime.baseUrl);
}

/** Runs every scenario, reporting each as it ends; each on its own runtime, so no backlog leaks into the next. */
export async function measureIsolation(
  endpoints: LocalEndpoints,
  onRow: (row: IsolationRow) => void,
): Promise<void> {
  for (const scenario of ['alone', 'slow-3s', 'hang', 'error-500'] as const) {
    onRow(await runScenario(endpoints, scenario));
  }
}

async function runScenario(
  endpoints: LocalEndpoints,
  scenario: IsolationRow['scenario'],
): Promise<IsolationRow> {
  const arrivals = new Map<string, number>();
  const fast = await listen((req, res) => {
    arrivals.set(String(req.headers['webhook-id']), performance.now());
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  const bad = scenario === 'alone' ? undefined : await listen(badHandler(scenario));
  const runtime = await startLocalRuntime({ endpoints, prefix: `bench-iso-${Date.now().toString(36)}` });
  try {
    const client = createDocumentClient();
    const publish: Publisher = createPublisher({
      tableName: runtime.tableName,
      baseUrl: runtime.baseUrl,
      client,
    });
    await account(runtime, fast.url, 'DE89370400440532013000');
    if (bad) {
      await account(runtime, bad.url, 'GB82WEST12345698765432');
      for (let i = 0; i < BACKLOG; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, () =>
            publish({ account: 'GB82WEST12345698765432', type: 'backlog', payload: SAMPLE_PAYLOAD }),
          ),
        );
      }
    }
    const started = performance.now();
    const badBefore = bad?.requests() ?? 0;
    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const sent = performance.now();
      const { id } = await publish({
        account: 'DE89370400440532013000',
        type: 'probe',
        payload: SAMPLE_PAYLOAD,
      });
      // A sample that never arrives counts as the cap, so a stuck pipeline shows instead of hanging the bench.
      while (!arrivals.has(id) && performance.now() - sent < SAMPLE_CAP_MS) {
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const latency = (arrivals.get(id) ?? sent + SAMPLE_CAP_MS) - sent;
      latencies.push(latency);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, SPACING_MS - latency)));
    }
    latencies.sort((a, b) => a - b);
    return {
      scenario,
      samples: SAMPLES,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      badRequests: (bad?.requests() ?? 0) - badBefore,
      seconds: Math.round((performance.now() - started) / 1000),
    };
  } finally {
    // Hanging connections would keep close() waiting: end them first.
    bad?.server.closeAllConnections();
    await runtime.stop();
    fast.server.close();
    bad?.server.close();
  }
}
