/**
 * The data of the events API end-to-end tests (`test/e2e/events-api-*.test.ts`): each file starts its
 * own local runtime with the real handlers on the real emulators, seeds it with the real use-cases and
 * the publisher library, and calls it over HTTP. Every answer is checked against the OpenAPI document
 * the API serves (see `connectApi`), so those files are also the OpenAPI conformance test.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import type { WebhookStatus } from '#domain/model';
import { type SeededTenant, TenantSeeder } from '#local/tenant-seed';
import { createPublisher } from '../../lambdas/publisher';
import { type LocalRuntime, startLocalRuntime } from '../../scripts/local/runtime';
import { type ApiClient, connectApi } from './e2e-http';
import { createListing, type Listing } from './events-api-listing';
import { DEBIT, debitPayload, TRANSFER, transferPayload } from './payloads';
import { testEndpoints, uniquePrefix } from './resources';
import { waitFor } from './wait';

// Accounts of organization A. DE and GB have no webhook_url: their events are `skipped`, no traffic.
export const DE = 'DE89370400440532013000';
export const GB = 'GB82WEST12345698765432';
/** Webhooks to the test receiver, which answers 200. */
export const FR = 'FR1420041010050500013M02606';
/** Webhooks to the test receiver, which answers 500. */
export const BE = 'BE68539007547034';
// Organization B's only account.
export const NL = 'NL91ABNA0417164300';
/** A valid IBAN nobody registered. */
export const UNREGISTERED = 'CH9300762011623852957';

export { DEBIT, TRANSFER };
/**
 * The type of {@link RICH_PAYLOAD}'s event: outside the catalog, published by a publisher of the transition
 * (`acceptUnknownEventTypes`), because no catalog type's payload holds numbers, nesting and free key order,
 * whose exact bytes are what its tests check.
 */
export const RAW = 'gateway_raw_record';

/** 260 events; `floor(2i/3)` repeats every other value, so many pairs share a triggeredAt. */
const BULK = 260;
const BULK_START = Date.UTC(2026, 0, 15, 8, 0, 0);
const bulkSecond = (i: number): number => Math.floor((i * 2) / 3);
export const bulkTime = (i: number): string => new Date(BULK_START + bulkSecond(i) * 61_000).toISOString();

/** Events around one second, to pin down the inclusive bounds of since/until. */
export const MS_SECOND = '2026-03-02 10:00:05';
export const MS_EVENTS = {
  before: '2026-03-02T10:00:04.999Z',
  start: '2026-03-02T10:00:05.000Z',
  // The same instant as 10:00:05.250Z, given with an offset: rendering must convert it to UTC.
  offset: '2026-03-02T12:00:05.250+02:00',
  inside: '2026-03-02T10:00:05.750Z',
  after: '2026-03-02T10:00:06.000Z',
} as const;

/**
 * A payload that is easy to damage on the way: unicode, escapes, numbers, nesting, key order (of the
 * {@link RAW} type).
 */
export const RICH_PAYLOAD = {
  transfer_id: 'tr_ü€😀',
  status: 'settled',
  amount: '1234.56',
  quote: 'say "hi"\n\t\\ </script> \u0000 \u2028',
  zeta: 1,
  alpha: 2,
  numbers: [0, -0.5, 1e21, Number.MAX_SAFE_INTEGER, 0.1 + 0.2],
  flags: { yes: true, no: false, none: null },
  nested: { list: [1, 'two', { three: [null, []] }], empty: {} },
};

interface Seed {
  readonly org: 'A' | 'B';
  readonly account: string;
  readonly type: string;
  readonly payload: Record<string, unknown>;
  readonly id?: string;
  readonly triggeredAt?: string;
}

/** A published event as the publisher reported it. */
export interface Published extends Seed {
  readonly id: string;
  /** ISO 8601 UTC with milliseconds. */
  readonly triggeredAt: string;
  /** What publishing answered: null, nothing is signed before an attempt. */
  readonly signature: string | null;
}

export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Options of {@link startEventsApiFixture}. */
export interface EventsApiFixtureOptions {
  /**
   * Also seed the bulk: 260 events of A's accounts DE and GB at `bulkTime(i)`, the `MS_EVENTS` of DE,
   * and B's three events interleaved in time with them. Without it `eventsB` is empty and `eventsA`
   * holds only the delivered events and the rich one.
   */
  readonly bulk: boolean;
}

/** A seeded runtime and what the tests use of it. */
export interface EventsApiFixture extends Listing<Published> {
  readonly runtime: LocalRuntime;
  readonly api: ApiClient;
  readonly base: string;
  readonly orgA: SeededTenant;
  readonly orgB: SeededTenant;
  /** The loopback webhook receiver: `/ok` answers 200, anything else 500. */
  readonly receiverUrl: string;
  /** Every request the receiver got so far. */
  readonly received: readonly Received[];
  /** Every event of organization A, and of B. */
  readonly eventsA: readonly Published[];
  readonly eventsB: readonly Published[];
  /** Of FR: delivered, `success`. */
  readonly okEvent: Published;
  /** Of BE: attempted, `pending`. */
  readonly pendingEvent: Published;
  /** Of BE: attempted, then settled `failed`. */
  readonly failedEvent: Published;
  /** Of GB, with {@link RICH_PAYLOAD}. */
  readonly richEvent: Published;
  /** The status the API must show for an event. */
  statusOf(event: Published): WebhookStatus;
  stop(): Promise<void>;
}

/** Starts this file's runtime and seeds it (call in `beforeAll`, and `stop` in `afterAll`). */
export async function startEventsApiFixture(options: EventsApiFixtureOptions): Promise<EventsApiFixture> {
  const receiver = await startReceiver();
  const receiverUrl = receiver.url;
  let runtime: LocalRuntime | undefined;
  let documents: DynamoDBDocumentClient | undefined;
  const stop = async (): Promise<void> => {
    await runtime?.stop();
    documents?.destroy();
    await receiver.close();
  };
  try {
    runtime = await startLocalRuntime({
      endpoints: testEndpoints(),
      prefix: uniquePrefix('api'),
      authorizerCacheTtlSeconds: 0,
    });
    const base = runtime.baseUrl;
    documents = createDocumentClient();
    const seeder = new TenantSeeder(documents, runtime.tableName);
    const orgA = await seeder.tenant('Org A', [
      { iban: DE },
      { iban: GB },
      { iban: FR, webhookUrl: `${receiverUrl}/ok` },
      { iban: BE, webhookUrl: `${receiverUrl}/fail` },
    ]);
    const orgB = await seeder.tenant('Org B', [{ iban: NL }]);

    const eventsA: Published[] = [];
    const eventsB: Published[] = [];
    const publish = createPublisher({ tableName: runtime.tableName, baseUrl: base, client: documents });
    const transition = createPublisher({
      tableName: runtime.tableName,
      baseUrl: base,
      client: documents,
      acceptUnknownEventTypes: true,
    });
    const publishSeed = async (seed: Seed): Promise<Published> => {
      const { id, triggeredAt, signature } = await (seed.type === RAW ? transition : publish)(seed);
      const event: Published = { ...seed, id, triggeredAt, signature };
      (seed.org === 'A' ? eventsA : eventsB).push(event);
      return event;
    };

    // The delivered events go first, so their deliveries run while the bulk is published.
    const okEvent = await publishSeed({
      org: 'A',
      account: FR,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: 'tr_ok' }),
    });
    const pendingEvent = await publishSeed({
      org: 'A',
      account: BE,
      type: TRANSFER,
      payload: transferPayload({ transfer_id: 'tr_pending' }),
    });
    const failedEvent = await publishSeed({
      org: 'A',
      account: BE,
      type: DEBIT,
      payload: debitPayload({ collection_id: 'dd_failed' }),
    });

    // A few at a time: most of the bulk is one account's, and concurrent publishes of one log contend for
    // its sequences (each round stores one), which made 25 at once slower than these small chunks.
    if (options.bulk) await inChunks(bulkSeeds(), 4, publishSeed);
    const richEvent = await publishSeed({
      org: 'A',
      account: GB,
      type: RAW,
      payload: RICH_PAYLOAD,
      triggeredAt: '2026-02-01T00:00:00Z',
    });

    const store = new DynamoEventStore(documents, runtime.tableName);
    const stored = (id: string) => store.getEvent(id, { consistent: true });
    const wait = { timeoutMs: 45_000, intervalMs: 200 };
    await waitFor(async () => (await stored(okEvent.id))?.webhookStatus === 'success', {
      ...wait,
      what: 'the delivery of the event whose receiver answers 200',
    });
    for (const event of [pendingEvent, failedEvent]) {
      await waitFor(async () => ((await stored(event.id))?.webhookRetries ?? 0) > 0, {
        ...wait,
        what: `the first attempt of ${event.id}`,
      });
    }
    // 20 failed attempts take about 54 hours with the default schedule; the consumer's exhaustion is
    // covered by the delivery tests. Here the real adapter settles the event as the reconciler would.
    const failedStored = await store.getEvent(failedEvent.id);
    if (!failedStored) throw new Error(`event ${failedEvent.id} is not stored`);
    expect(await store.settlePending(failedStored, 'failed')).toBe(true);

    const api = await connectApi(base);
    const statusOf = (event: Published): WebhookStatus => {
      if (event.id === okEvent.id) return 'success';
      if (event.id === pendingEvent.id) return 'pending';
      if (event.id === failedEvent.id) return 'failed';
      return 'skipped';
    };
    return {
      ...createListing(api, base, statusOf),
      runtime,
      api,
      base,
      orgA,
      orgB,
      receiverUrl,
      received: receiver.received,
      eventsA,
      eventsB,
      okEvent,
      pendingEvent,
      failedEvent,
      richEvent,
      statusOf,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The bulk of {@link EventsApiFixtureOptions.bulk}. */
function bulkSeeds(): Seed[] {
  const seeds: Seed[] = [];
  for (let i = 0; i < BULK; i++) {
    seeds.push({
      org: 'A',
      account: i % 4 === 0 ? GB : DE,
      ...(i % 3 === 0
        ? { type: DEBIT, payload: debitPayload({ collection_id: `dd_${i}`, amount: `${i + 1}.00` }) }
        : { type: TRANSFER, payload: transferPayload({ transfer_id: `tr_${i}`, amount: `${i + 1}.00` }) }),
      // Random v4 ids: the tie-break order cannot follow the publishing order by accident.
      id: randomUUID(),
      triggeredAt: bulkTime(i),
    });
  }
  for (const triggeredAt of Object.values(MS_EVENTS)) {
    const payload = transferPayload({ remittance_information: `at ${triggeredAt}` });
    seeds.push({ org: 'A', account: DE, type: TRANSFER, payload, triggeredAt });
  }
  for (const i of [5, 100, 200]) {
    // Interleaved in time with A's bulk: a leak across organizations would show up inside A's pages.
    const payload = transferPayload({ transfer_id: `tr_b${i}` });
    seeds.push({ org: 'B', account: NL, type: TRANSFER, payload, triggeredAt: bulkTime(i) });
  }
  return seeds;
}

/** A webhook receiver on loopback: `/ok` answers 200, anything else 500. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      const ok = req.url === '/ok';
      res.writeHead(ok ? 200 : 500, { 'Content-Type': 'text/plain' }).end(ok ? 'thanks' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function inChunks<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map(fn))));
  }
  return results;
}
