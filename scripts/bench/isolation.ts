/**
 * `npm run bench -- isolation`: how much one bad receiver delays another account's webhooks. A fast
 * receiver's publish → delivery latency alone, then while another account has 300 queued events whose
 * receiver (a) answers after 3 s, (b) hangs past the 10 s timeout, (c) answers 500; one local runtime
 * with the default settings (handler modules read their environment once per process, so one runtime per
 * process). Each scenario's bad endpoint is disabled when it ends, so its backlog settles `skipped` instead
 * of leaking into the next. Also the attempts the bad receiver got.
 *
 * With the `endpoint` neighbour (`npm run bench -- isolation-endpoints`), the bad receiver is the second
 * endpoint of the fast receiver's own account instead: every event, the 300 of the backlog and the
 * samples, goes to both endpoints (fanned out), and the baseline's second endpoint is a healthy receiver.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import type { EndpointAddress } from '#domain/endpoints/address';
import { createPublisher, type Publisher } from '#lambdas/publisher';
import type { LocalEndpoints } from '#local/emulators';
import { type LocalRuntime, startLocalRuntime } from '#local/runtime';
import { TenantSeeder } from '#local/tenant-seed';
import { SAMPLE_PAYLOAD } from './capacity';

/** How the other account's receiver behaves. */
export type BadReceiver = 'slow-3s' | 'hang' | 'error-500';

/**
 * Where the bad receiver is: another account's endpoint, or the second endpoint of the fast receiver's
 * own account.
 */
export type Neighbour = 'account' | 'endpoint';

/** One scenario's numbers. */
export interface IsolationRow {
  /** `alone`: no other account; `healthy`: the account's second endpoint is a healthy receiver. */
  readonly scenario: 'alone' | 'healthy' | BadReceiver;
  readonly samples: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  /** Requests the bad receiver got from the start of its backlog to the end of the measurement. */
  readonly badRequests: number;
  readonly seconds: number;
}

/** A receiver's request handler. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const BACKLOG = 300;
const SAMPLES = 60;
const SPACING_MS = 500;
const SAMPLE_CAP_MS = 120_000;

/** A receiver listening on 127.0.0.1, with the count of requests it got. */
export interface Listening {
  readonly server: Server;
  readonly url: string;
  readonly requests: () => number;
}

/** Starts a receiver on 127.0.0.1. */
export async function listen(handler: Handler): Promise<Listening> {
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

/** A receiver that answers 204 at once. */
export const healthyHandler: Handler = (req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(204).end());
};

/** A receiver that answers after 3 s, never answers, or answers 500. */
export function badHandler(kind: BadReceiver): Handler {
  return (req, res) => {
    req.resume();
    if (kind === 'hang') return;
    if (kind === 'error-500') return void req.on('end', () => res.writeHead(500).end('down'));
    setTimeout(() => res.writeHead(200).end('ok'), 3_000);
  };
}

/** The p-th percentile of sorted samples, rounded. */
export function percentile(sorted: readonly number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN);
}

/** Seeds a tenant with one account whose webhook goes to `url`; its organization's id. */
export async function account(runtime: LocalRuntime, url: string, iban: string): Promise<string> {
  const seeder = new TenantSeeder(createDocumentClient(), runtime.tableName);
  return (await seeder.tenant(`bench ${iban}`, [{ iban, webhookUrl: url }])).orgId;
}

/**
 * Seeds a tenant with one account whose default endpoint goes to `url` and a second endpoint to
 * `secondUrl`; the second endpoint's address.
 */
export async function twoEndpoints(
  runtime: LocalRuntime,
  url: string,
  secondUrl: string,
  iban: string,
): Promise<EndpointAddress> {
  const seeder = new TenantSeeder(createDocumentClient(), runtime.tableName);
  const { orgId } = await seeder.tenant(`bench ${iban}`, [{ iban, webhookUrl: url }]);
  return { iban, orgId, extra: await seeder.endpoint(orgId, iban, secondUrl) };
}

/** A publish, sent again while the account's sequence is contended (nothing was stored then). */
export async function publishAgainWhenBusy(publish: Publisher, input: Parameters<Publisher>[0]) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await publish(input);
    } catch (error) {
      if ((error as { kind?: string }).kind !== 'busy' || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
    }
  }
}

/** A bad account per scenario (valid IBANs). */
export const BAD_ACCOUNTS: Readonly<Record<BadReceiver, string>> = {
  'slow-3s': 'GB82WEST12345698765432',
  hang: 'GB33BUKB20201555555555',
  'error-500': 'FR1420041010050500013M02606',
};
/** The fast receiver's account. */
export const FAST_ACCOUNT = 'DE89370400440532013000';
/** With the `endpoint` neighbour, each scenario's account (its two endpoints), valid IBANs. */
const TWO_ENDPOINT_ACCOUNTS: Readonly<Record<'healthy' | BadReceiver, string>> = {
  healthy: 'NL91ABNA0417164300',
  'slow-3s': 'BE68539007547034',
  hang: 'AT611904300234573201',
  'error-500': 'ES9121000418450200051332',
};

/** Runs every scenario on one runtime, reporting each as it ends. */
export async function measureIsolation(
  endpoints: LocalEndpoints,
  onRow: (row: IsolationRow) => void,
  neighbour: Neighbour = 'account',
): Promise<void> {
  const arrivals = new Map<string, number>();
  const fast = await listen((req, res) => {
    arrivals.set(String(req.headers['webhook-id']), performance.now());
    healthyHandler(req, res);
  });
  const runtime = await startLocalRuntime({ endpoints, prefix: `bench-iso-${Date.now().toString(36)}` });
  try {
    if (neighbour === 'account') await account(runtime, fast.url, FAST_ACCOUNT);
    const baseline = neighbour === 'account' ? 'alone' : 'healthy';
    for (const scenario of [baseline, 'slow-3s', 'hang', 'error-500'] as const) {
      onRow(await runScenario(runtime, arrivals, scenario, fast.url, neighbour));
    }
  } finally {
    await runtime.stop();
    fast.server.close();
  }
}

async function runScenario(
  runtime: LocalRuntime,
  arrivals: ReadonlyMap<string, number>,
  scenario: IsolationRow['scenario'],
  fastUrl: string,
  neighbour: Neighbour,
): Promise<IsolationRow> {
  const bad =
    scenario === 'alone'
      ? undefined
      : await listen(scenario === 'healthy' ? healthyHandler : badHandler(scenario));
  const client = createDocumentClient();
  const health = new DynamoEndpointHealthStore(client, runtime.tableName);
  // The endpoint disabled when the scenario ends, once seeded.
  let badEndpoint: EndpointAddress | undefined;
  try {
    const publish: Publisher = createPublisher({
      tableName: runtime.tableName,
      baseUrl: runtime.baseUrl,
      client,
    });
    let fastAccount = FAST_ACCOUNT;
    let badAccount: string | undefined;
    if (bad && neighbour === 'endpoint' && scenario !== 'alone') {
      fastAccount = TWO_ENDPOINT_ACCOUNTS[scenario];
      badAccount = fastAccount;
      badEndpoint = await twoEndpoints(runtime, fastUrl, bad.url, fastAccount);
    } else if (bad && scenario !== 'alone' && scenario !== 'healthy') {
      badAccount = BAD_ACCOUNTS[scenario];
      badEndpoint = { iban: badAccount, orgId: await account(runtime, bad.url, badAccount) };
    }
    const started = performance.now();
    // The fast samples start with the backlog, so the time the bad endpoint takes to be detected counts too.
    const backlog = (async () => {
      if (!badAccount) return;
      for (let i = 0; i < BACKLOG; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, () =>
            publishAgainWhenBusy(publish, {
              account: badAccount,
              type: 'credit_transfer_status_change',
              payload: SAMPLE_PAYLOAD,
            }),
          ),
        );
      }
    })();
    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const sent = performance.now();
      const { id } = await publishAgainWhenBusy(publish, {
        account: fastAccount,
        type: 'credit_transfer_status_change',
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
    await backlog;
    latencies.sort((a, b) => a - b);
    return {
      scenario,
      samples: SAMPLES,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      badRequests: bad?.requests() ?? 0,
      seconds: Math.round((performance.now() - started) / 1000),
    };
  } finally {
    // The backlog left settles `skipped` as its messages come back, instead of loading the next scenario.
    if (badEndpoint) {
      await health.disable(badEndpoint, { at: new Date().toISOString(), reason: 'bench scenario over' });
    }
    // Hanging connections would keep close() waiting: end them first.
    bad?.server.closeAllConnections();
    bad?.server.close();
  }
}
