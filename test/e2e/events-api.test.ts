/**
 * The events API end to end: the real handlers behind the local API Gateway, on the real emulators,
 * called over HTTP. Data is seeded with the real use-cases and the publisher library; every answer is
 * checked against the OpenAPI document the API serves (see `connectApi`), so this file is also the
 * OpenAPI conformance test.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/aws-clients';
import { DynamoDirectoryStore } from '../../lambdas/adapters/dynamodb/directory-store';
import { DynamoEventStore } from '../../lambdas/adapters/dynamodb/event-store';
import { webhookBody } from '../../lambdas/domain/event-view';
import type { WebhookStatus } from '../../lambdas/domain/model';
import { buildOpenApiDocument } from '../../lambdas/domain/openapi';
import type { ProblemBody } from '../../lambdas/domain/problem';
import { signBody, webhookKey } from '../../lambdas/domain/signing';
import { createPublisher } from '../../lambdas/publisher';
import { type CreatedOrganization, createOrganization, putAccount } from '../../lambdas/use-cases/administer';
import { type LocalRuntime, startLocalRuntime } from '../../scripts/local/runtime';
import { type ApiClient, type ApiResponse, connectApi, expectProblem } from '../support/e2e-http';
import { testEndpoints, uniquePrefix } from '../support/resources';
import { waitFor } from '../support/wait';

// Accounts of organization A. DE and GB have no webhook_url: their events are `skipped`, no traffic.
const DE = 'DE89370400440532013000';
const GB = 'GB82WEST12345698765432';
/** Webhooks to the test receiver, which answers 200. */
const FR = 'FR1420041010050500013M02606';
/** Webhooks to the test receiver, which answers 500. */
const BE = 'BE68539007547034';
// Organization B's only account.
const NL = 'NL91ABNA0417164300';
/** A valid IBAN nobody registered. */
const UNREGISTERED = 'CH9300762011623852957';

const TRANSFER = 'credit_transfer_status_change';
const DEBIT = 'direct_debit.returned';

const SUMMARY_KEYS = [
  '_links',
  'account',
  'id',
  'signature',
  'triggered_at',
  'type',
  'webhook_retries',
  'webhook_status',
];
const DETAIL_KEYS = [...SUMMARY_KEYS, 'payload', 'webhook_deliveries'].sort();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** 260 events; `floor(2i/3)` repeats every other value, so many pairs share a triggeredAt. */
const BULK = 260;
const BULK_START = Date.UTC(2026, 0, 15, 8, 0, 0);
const bulkSecond = (i: number): number => Math.floor((i * 2) / 3);
const bulkTime = (i: number): string => new Date(BULK_START + bulkSecond(i) * 61_000).toISOString();

/** Events around one second, to pin down the inclusive bounds of since/until. */
const MS_SECOND = '2026-03-02 10:00:05';
const MS_EVENTS = {
  before: '2026-03-02T10:00:04.999Z',
  start: '2026-03-02T10:00:05.000Z',
  // The same instant as 10:00:05.250Z, given with an offset: rendering must convert it to UTC.
  offset: '2026-03-02T12:00:05.250+02:00',
  inside: '2026-03-02T10:00:05.750Z',
  after: '2026-03-02T10:00:06.000Z',
} as const;

/** A payload that is easy to damage on the way: unicode, escapes, numbers, nesting, key order. */
const RICH_PAYLOAD = {
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
interface Published extends Seed {
  readonly id: string;
  /** ISO 8601 UTC with milliseconds. */
  readonly triggeredAt: string;
  readonly signature: string;
}

interface Links {
  readonly self: string;
  readonly account: string;
}

interface EventSummary {
  readonly id: string;
  readonly signature: string;
  readonly account: string;
  readonly type: string;
  readonly triggered_at: string;
  readonly webhook_status: WebhookStatus;
  readonly webhook_retries: number;
  readonly _links: Links;
}

interface Delivery {
  readonly delivery_at: string;
  readonly response_body: string;
  readonly response_status: number;
  readonly response_time: number;
}

interface EventDetail extends EventSummary {
  readonly payload: unknown;
  readonly webhook_deliveries: readonly Delivery[];
}

interface AccountView {
  readonly iban: string;
  readonly webhook_url: string | null;
  readonly _links: { readonly self: string; readonly events: string };
}

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let runtime: LocalRuntime;
let api: ApiClient;
let base: string;
let documents: DynamoDBDocumentClient;
let orgA: CreatedOrganization;
let orgB: CreatedOrganization;
let receiverUrl: string;
let closeReceiver: (() => Promise<void>) | undefined;
const received: Received[] = [];
/** Every event of organization A, and of B. */
const eventsA: Published[] = [];
const eventsB: Published[] = [];
let okEvent: Published;
let pendingEvent: Published;
let failedEvent: Published;
let richEvent: Published;

beforeAll(async () => {
  await startReceiver();
  runtime = await startLocalRuntime({
    endpoints: testEndpoints(),
    prefix: uniquePrefix('api'),
    authorizerCacheTtlSeconds: 0,
  });
  base = runtime.baseUrl;
  documents = createDocumentClient();
  const directory = new DynamoDirectoryStore(documents, runtime.tableName);
  orgA = await createOrganization(directory, 'Org A');
  orgB = await createOrganization(directory, 'Org B');
  const accounts: [string, string, string | undefined][] = [
    [orgA.id, DE, undefined],
    [orgA.id, GB, undefined],
    [orgA.id, FR, `${receiverUrl}/ok`],
    [orgA.id, BE, `${receiverUrl}/fail`],
    [orgB.id, NL, undefined],
  ];
  for (const [orgId, iban, webhookUrl] of accounts) {
    await putAccount(directory, { orgId, iban, webhookUrl }, 'local', base);
  }

  const publish = createPublisher({ tableName: runtime.tableName, baseUrl: base, client: documents });
  const publishSeed = async (seed: Seed): Promise<Published> => {
    const { id, triggeredAt, signature } = await publish(seed);
    const event: Published = { ...seed, id, triggeredAt, signature };
    (seed.org === 'A' ? eventsA : eventsB).push(event);
    return event;
  };

  // The delivered events go first, so their deliveries run while the bulk is published.
  okEvent = await publishSeed({ org: 'A', account: FR, type: TRANSFER, payload: { transfer_id: 'tr_ok' } });
  pendingEvent = await publishSeed({ org: 'A', account: BE, type: TRANSFER, payload: { n: 1 } });
  failedEvent = await publishSeed({ org: 'A', account: BE, type: DEBIT, payload: { n: 2 } });

  const seeds: Seed[] = [];
  for (let i = 0; i < BULK; i++) {
    seeds.push({
      org: 'A',
      account: i % 4 === 0 ? GB : DE,
      type: i % 3 === 0 ? DEBIT : TRANSFER,
      payload: { seq: i, amount: `${i}.00`, currency: 'EUR' },
      // Random v4 ids: the tie-break order cannot follow the publishing order by accident.
      id: randomUUID(),
      triggeredAt: bulkTime(i),
    });
  }
  for (const triggeredAt of Object.values(MS_EVENTS)) {
    seeds.push({ org: 'A', account: DE, type: TRANSFER, payload: { at: triggeredAt }, triggeredAt });
  }
  for (const i of [5, 100, 200]) {
    // Interleaved in time with A's bulk: a leak across organizations would show up inside A's pages.
    seeds.push({ org: 'B', account: NL, type: TRANSFER, payload: { b: i }, triggeredAt: bulkTime(i) });
  }
  await inChunks(seeds, 25, publishSeed);
  richEvent = await publishSeed({
    org: 'A',
    account: GB,
    type: TRANSFER,
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
  expect(await store.settlePending(failedEvent.id, 'failed')).toBe(true);

  api = await connectApi(base);
});

afterAll(async () => {
  await runtime?.stop();
  documents?.destroy();
  await closeReceiver?.();
});

/** A webhook receiver on loopback: `/ok` answers 200, anything else 500. */
async function startReceiver(): Promise<void> {
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
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeReceiver = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

async function inChunks<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map(fn))));
  }
  return results;
}

/** `YYYY-MM-DD HH:MM:SS` of an ISO UTC timestamp, computed independently of the production code. */
function rendered(iso: string): string {
  const utc = new Date(iso).toISOString();
  return `${utc.slice(0, 10)} ${utc.slice(11, 19)}`;
}

function statusOf(event: Published): WebhookStatus {
  if (event.id === okEvent.id) return 'success';
  if (event.id === pendingEvent.id) return 'pending';
  if (event.id === failedEvent.id) return 'failed';
  return 'skipped';
}

interface Filter {
  readonly account?: string;
  readonly type?: string;
  readonly status?: WebhookStatus;
  /** Rendered, inclusive. */
  readonly since?: string;
  /** Rendered, inclusive of the whole second. */
  readonly until?: string;
}

/** The ids the API must list for a filter: newest first by triggeredAt, ties by id, both descending. */
function expectedIds(events: readonly Published[], filter: Filter = {}): string[] {
  const sinceIso = filter.since === undefined ? undefined : `${filter.since.replace(' ', 'T')}.000Z`;
  const untilIso = filter.until === undefined ? undefined : `${filter.until.replace(' ', 'T')}.999Z`;
  return events
    .filter(
      (event) =>
        (filter.account === undefined || event.account === filter.account) &&
        (filter.type === undefined || event.type === filter.type) &&
        (filter.status === undefined || statusOf(event) === filter.status) &&
        (sinceIso === undefined || event.triggeredAt >= sinceIso) &&
        (untilIso === undefined || event.triggeredAt <= untilIso),
    )
    .sort((a, b) =>
      a.triggeredAt === b.triggeredAt
        ? compare(b.id, a.id)
        : compare(new Date(b.triggeredAt).toISOString(), new Date(a.triggeredAt).toISOString()),
    )
    .map((event) => event.id);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The `Link` header, strictly in RFC 8288 form: `<url>; rel="first"`, then `prev` and `next` when
 * present, joined by `, `, in that order.
 */
function parseLinks(response: ApiResponse): Map<'first' | 'prev' | 'next', string> {
  const header = response.headers.get('link');
  if (header === null) throw new Error('no Link header');
  const links = new Map<'first' | 'prev' | 'next', string>();
  for (const part of header.split(', ')) {
    const match = /^<([^<>\s]+)>; rel="(first|prev|next)"$/.exec(part);
    if (match === null) throw new Error(`malformed Link element ${JSON.stringify(part)} in ${header}`);
    links.set(match[2] as 'first' | 'prev' | 'next', match[1] as string);
  }
  const order = ['first', 'prev', 'next'].filter((rel) => links.has(rel as 'first'));
  expect([...links.keys()]).toEqual(order);
  expect(links.has('first')).toBe(true);
  return links;
}

/** Query parameters of a link, as a plain object (values decoded). */
function queryOf(url: string): Record<string, string> {
  const parsed = new URL(url);
  expect(`${parsed.origin}${parsed.pathname}`).toBe(`${base}/events`);
  const query: Record<string, string> = {};
  for (const [name, value] of parsed.searchParams) {
    expect(query[name], `${name} repeated in ${url}`).toBeUndefined();
    query[name] = value;
  }
  return query;
}

interface Walk {
  readonly ids: string[];
  readonly pages: number;
  readonly events: EventSummary[];
}

/**
 * Follows `rel="next"` from the first page until it is absent, checking on every page that `first`
 * is page 1, `prev` is there exactly past page 1 and points one back, every page but the last is full,
 * and every link keeps the filters (`keep`) and `per_page`.
 */
async function walk(path: string, key: string, perPage: number, keep: Record<string, string>): Promise<Walk> {
  const events: EventSummary[] = [];
  let url: string | undefined = path;
  let page = 0;
  while (url !== undefined) {
    page++;
    expect(page, 'the walk does not end').toBeLessThan(200);
    const response = await api.call(url, { key });
    expect(response.status, response.text).toBe(200);
    const body = response.body as EventSummary[];
    const links = parseLinks(response);
    expect(queryOf(links.get('first') ?? '')).toEqual({ page: '1', per_page: String(perPage), ...keep });
    if (page === 1) expect(links.has('prev')).toBe(false);
    else
      expect(queryOf(links.get('prev') ?? '')).toEqual({
        page: String(page - 1),
        per_page: String(perPage),
        ...keep,
      });
    const next = links.get('next');
    if (next !== undefined) {
      expect(body).toHaveLength(perPage);
      expect(queryOf(next)).toEqual({ page: String(page + 1), per_page: String(perPage), ...keep });
    } else {
      expect(body.length).toBeLessThanOrEqual(perPage);
    }
    events.push(...body);
    url = next;
  }
  const ids = events.map((event) => event.id);
  expect(new Set(ids).size, 'an id was listed twice').toBe(ids.length);
  return { ids, pages: page, events };
}

function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

describe('service routes', () => {
  it('GET /health answers 200 without a key', async () => {
    const response = await api.call('/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('GET /openapi.json is the OpenAPI 3.1 document with this deployment as its server', () => {
    const { documentResponse, document } = api;
    expect(documentResponse.status).toBe(200);
    expect(documentResponse.headers.get('content-type')).toMatch(/^application\/json/);
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: base }]);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/events', '/events/{id}']));
    expect(document).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(base))));
  });

  it('answers an unknown route with a 404 problem, before authentication', async () => {
    for (const path of ['/', '/nope', '/events/x/y', `/events/${okEvent.id}/nope`, '/accounts/a/b']) {
      const problem = expectProblem(await api.call(path), 404);
      expect(problem).toMatchObject({ type: 'https://herald.dev/problems/not-found', title: 'Not found' });
    }
  });

  it('answers a known path with another method 405 and Allow', async () => {
    const cases: [method: string, path: string, allow: string][] = [
      ['POST', '/events', 'GET'],
      ['DELETE', `/events/${okEvent.id}`, 'GET'],
      ['PUT', `/events/${okEvent.id}`, 'GET'],
      ['GET', `/events/${okEvent.id}/redeliver`, 'POST'],
      ['POST', '/health', 'GET'],
      ['PATCH', `/accounts/${DE}`, 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await api.call(path, { method, key: orgA.api_key });
      const problem = expectProblem(response, 405);
      expect(response.headers.get('allow'), `${method} ${path}`).toBe(allow);
      expect(problem).toMatchObject({ type: 'https://herald.dev/problems/method-not-allowed' });
    }
  });
});

describe('authentication', () => {
  const unknownKey = `herald_${'A'.repeat(43)}`;

  it('answers 401 with WWW-Authenticate: Bearer for a missing, unknown, empty or non-Bearer key', async () => {
    const authorizations: (string | undefined)[] = [
      undefined,
      `Bearer ${unknownKey}`,
      'Bearer not-a-key',
      'Bearer',
      'Bearer    ',
      `Basic ${Buffer.from(`user:${orgA.api_key}`).toString('base64')}`,
      `Basic ${orgA.api_key}`,
      `Token ${orgA.api_key}`,
      orgA.api_key,
      `Bearer ${orgA.api_key} ${orgA.api_key}`,
    ];
    const paths = [
      '/events',
      '/events?page=0',
      `/events/${okEvent.id}`,
      `/events/${randomUUID()}`,
      '/events/not-an-id',
      '/accounts',
      `/accounts/${DE}`,
    ];
    for (const authorization of authorizations) {
      for (const path of paths) {
        const response = await api.call(
          path,
          authorization === undefined ? {} : { authorization: authorization },
        );
        const problem = expectProblem(response, 401);
        expect(response.headers.get('www-authenticate'), `${authorization} ${path}`).toBe('Bearer');
        expect(problem).toMatchObject({
          type: 'https://herald.dev/problems/unauthorized',
          title: 'Unauthorized',
        });
        expect(response.text).not.toContain(orgA.api_key);
      }
    }
  });

  it('accepts the Bearer scheme in any case', async () => {
    for (const authorization of [`bearer ${orgA.api_key}`, `BEARER ${orgA.api_key}`]) {
      expect((await api.call('/events?per_page=1', { authorization })).status).toBe(200);
    }
  });

  it("answers another organization's event exactly like an unknown one", async () => {
    const unknown = randomUUID();
    const foreign = expectProblem(await api.call(`/events/${okEvent.id}`, { key: orgB.api_key }), 404);
    const missing = expectProblem(await api.call(`/events/${unknown}`, { key: orgB.api_key }), 404);
    expect({ ...foreign, instance: '', detail: foreign.detail.replace(okEvent.id, 'ID') }).toEqual({
      ...missing,
      instance: '',
      detail: missing.detail.replace(unknown, 'ID'),
    });
    expect(foreign).toMatchObject({ type: 'https://herald.dev/problems/not-found', title: 'Not found' });
    // And the other way round.
    const bEvent = eventsB[0]?.id ?? '';
    expectProblem(await api.call(`/events/${bEvent}`, { key: orgA.api_key }), 404);
  });

  it("lists only the organization's own events, whatever the filter", async () => {
    const listB = await api.call('/events?per_page=100', { key: orgB.api_key });
    expect(listB.status).toBe(200);
    expect((listB.body as EventSummary[]).map((event) => event.id)).toEqual(expectedIds(eventsB));
    for (const [key, iban] of [
      [orgB.api_key, DE],
      [orgB.api_key, FR],
      [orgA.api_key, NL],
    ] as const) {
      const response = await api.call(`/events?account=${iban}`, { key });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    }
    const listA = await api.call(
      '/events?per_page=100&since=2026-01-15%2008:00:00&until=2026-01-16%2000:00:00',
      {
        key: orgA.api_key,
      },
    );
    const idsA = (listA.body as EventSummary[]).map((event) => event.id);
    for (const event of eventsB) expect(idsA).not.toContain(event.id);
  });

  it("answers another organization's account exactly like an unknown one", async () => {
    const accountsB = await api.call('/accounts', { key: orgB.api_key });
    expect(accountsB.status).toBe(200);
    expect((accountsB.body as AccountView[]).map((account) => account.iban)).toEqual([NL]);
    const foreign = expectProblem(await api.call(`/accounts/${DE}`, { key: orgB.api_key }), 404);
    const unknown = expectProblem(await api.call(`/accounts/${UNREGISTERED}`, { key: orgB.api_key }), 404);
    expect({ ...foreign, instance: '', detail: foreign.detail.replace(DE, 'IBAN') }).toEqual({
      ...unknown,
      instance: '',
      detail: unknown.detail.replace(UNREGISTERED, 'IBAN'),
    });
    expectProblem(await api.call(`/accounts/${NL}`, { key: orgA.api_key }), 404);
  });
});

describe('event fields', () => {
  it('lists exactly the summary fields, each matching what was published', async () => {
    const byId = new Map(eventsA.map((event) => [event.id, event]));
    const { events } = await walk('/events?per_page=100', orgA.api_key, 100, {});
    expect(events).toHaveLength(eventsA.length);
    for (const event of events) {
      expect(Object.keys(event).sort()).toEqual(SUMMARY_KEYS);
      expect(Object.keys(event._links).sort()).toEqual(['account', 'self']);
      const published = byId.get(event.id);
      if (published === undefined) throw new Error(`unexpected event ${event.id}`);
      expect(event.triggered_at).toMatch(TIMESTAMP);
      expect(event).toMatchObject({
        account: published.account,
        type: published.type,
        signature: published.signature,
        triggered_at: rendered(published.triggeredAt),
        webhook_status: statusOf(published),
        _links: { self: `${base}/events/${event.id}`, account: `${base}/accounts/${published.account}` },
      });
      expect(event.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
      if (statusOf(published) === 'skipped') expect(event.webhook_retries).toBe(0);
      else expect(event.webhook_retries).toBeGreaterThanOrEqual(1);
    }
  });

  it('shows one event with exactly the detail fields and the payload byte for byte', async () => {
    const response = await api.call(`/events/${richEvent.id}`, { key: orgA.api_key });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const event = response.body as EventDetail;
    expect(Object.keys(event).sort()).toEqual(DETAIL_KEYS);
    expect(event).toEqual({
      id: richEvent.id,
      signature: richEvent.signature,
      account: GB,
      type: TRANSFER,
      triggered_at: '2026-02-01 00:00:00',
      payload: RICH_PAYLOAD,
      webhook_status: 'skipped',
      webhook_retries: 0,
      webhook_deliveries: [],
      _links: { self: `${base}/events/${richEvent.id}`, account: `${base}/accounts/${GB}` },
    });
    // Same keys in the same order, same escapes: the payload text is the one that was published.
    expect(JSON.stringify(event.payload)).toBe(JSON.stringify(RICH_PAYLOAD));
  });

  it('shows the signature of the exact webhook body under the organization token', async () => {
    for (const published of [richEvent, ...eventsA.slice(10, 14)]) {
      const event = (await api.call(`/events/${published.id}`, { key: orgA.api_key })).body as EventDetail;
      expect(event.payload).toEqual(published.payload);
      const body = webhookBody({
        id: published.id,
        type: published.type,
        account: published.account,
        triggeredAt: published.triggeredAt,
        payloadJson: JSON.stringify(published.payload),
        baseUrl: base,
      });
      expect(event.signature).toBe(signBody(webhookKey(orgA.webhook_token), body));
    }
  });

  it('renders triggered_at in UTC with the fraction cut, also for a time given with an offset', async () => {
    const cases: [iso: string, shown: string][] = [
      [MS_EVENTS.offset, '2026-03-02 10:00:05'],
      [MS_EVENTS.inside, '2026-03-02 10:00:05'],
      [MS_EVENTS.before, '2026-03-02 10:00:04'],
    ];
    for (const [iso, shown] of cases) {
      const published = eventsA.find((event) => event.payload.at === iso);
      if (published === undefined) throw new Error(`no event at ${iso}`);
      const event = (await api.call(`/events/${published.id}`, { key: orgA.api_key })).body as EventDetail;
      expect(event.triggered_at).toBe(shown);
    }
  });

  it('records a 2xx delivery as success, with the attempt and the webhook the receiver got', async () => {
    const event = (await api.call(`/events/${okEvent.id}`, { key: orgA.api_key })).body as EventDetail;
    expect(event.webhook_status).toBe('success');
    expect(event.webhook_deliveries.length).toBeGreaterThanOrEqual(1);
    expect(event.webhook_retries).toBe(event.webhook_deliveries.length);
    const last = event.webhook_deliveries.at(-1);
    expect(last).toEqual({
      delivery_at: expect.stringMatching(TIMESTAMP),
      response_body: 'thanks',
      response_status: 200,
      response_time: expect.any(Number),
    });
    expect(Number.isInteger(last?.response_time)).toBe(true);
    expect((last?.delivery_at ?? '') >= event.triggered_at).toBe(true);

    const webhook = received.find((request) => request.path === '/ok');
    if (webhook === undefined) throw new Error('the receiver got no webhook');
    expect(webhook.headers['x-signature']).toBe(event.signature);
    expect(JSON.parse(webhook.body)).toEqual({
      id: event.id,
      type: event.type,
      account: event.account,
      triggered_at: event.triggered_at,
      payload: event.payload,
      _links: event._links,
    });
  });

  it('keeps a failing delivery pending with its attempts, and shows a settled one as failed', async () => {
    for (const [published, status] of [
      [pendingEvent, 'pending'],
      [failedEvent, 'failed'],
    ] as const) {
      const event = (await api.call(`/events/${published.id}`, { key: orgA.api_key })).body as EventDetail;
      expect(event.webhook_status).toBe(status);
      expect(event.webhook_deliveries.length).toBeGreaterThanOrEqual(1);
      expect(event.webhook_retries).toBe(event.webhook_deliveries.length);
      for (const delivery of event.webhook_deliveries) {
        expect(delivery).toMatchObject({ response_status: 500, response_body: 'nope' });
        expect(delivery.delivery_at).toMatch(TIMESTAMP);
      }
    }
  });

  it('answers a malformed event id with 400 naming id, and an unknown one with 404', async () => {
    for (const id of ['not-an-id', okEvent.id.toUpperCase(), `{${okEvent.id}}`, '123', `${okEvent.id}x`]) {
      const problem = expectProblem(
        await api.call(`/events/${encodeURIComponent(id)}`, { key: orgA.api_key }),
        400,
      );
      expect(problem.invalid_params).toEqual([{ name: 'id', reason: expect.stringMatching(/UUID/) }]);
    }
    const missing = expectProblem(await api.call(`/events/${randomUUID()}`, { key: orgA.api_key }), 404);
    expect(missing.title).toBe('Not found');
  });
});

describe('paging', () => {
  it('walks every event exactly once, newest first with ties by id, per_page 7 and 100', async () => {
    const expected = expectedIds(eventsA);
    // The data really has ties: many neighbours share a triggeredAt.
    const byId = new Map(eventsA.map((event) => [event.id, event.triggeredAt]));
    const ties = expected.filter(
      (id, index) => index > 0 && byId.get(id) === byId.get(expected[index - 1] ?? ''),
    );
    expect(ties.length).toBeGreaterThan(50);

    for (const perPage of [7, 100]) {
      const { ids, pages, events } = await walk(`/events?per_page=${perPage}`, orgA.api_key, perPage, {});
      expect(ids).toEqual(expected);
      expect(pages).toBe(Math.ceil(eventsA.length / perPage));
      // Non-increasing by the rendered time too.
      for (let index = 1; index < events.length; index++) {
        expect((events[index - 1]?.triggered_at ?? '') >= (events[index]?.triggered_at ?? '')).toBe(true);
      }
    }
  });

  it('defaults to 10 per page and links exactly in RFC 8288 form', async () => {
    const first = await api.call('/events', { key: orgA.api_key });
    expect((first.body as EventSummary[]).map((event) => event.id)).toEqual(
      expectedIds(eventsA).slice(0, 10),
    );
    expect(first.headers.get('link')).toBe(
      `<${base}/events?page=1&per_page=10>; rel="first", <${base}/events?page=2&per_page=10>; rel="next"`,
    );
    const third = await api.call('/events?page=3', { key: orgA.api_key });
    expect((third.body as EventSummary[]).map((event) => event.id)).toEqual(
      expectedIds(eventsA).slice(20, 30),
    );
    expect(third.headers.get('link')).toBe(
      `<${base}/events?page=1&per_page=10>; rel="first", <${base}/events?page=2&per_page=10>; rel="prev", ` +
        `<${base}/events?page=4&per_page=10>; rel="next"`,
    );
  });

  it('has no next link on a last page that is exactly full', async () => {
    // A listing whose size has a divisor up to 100, so its last page is full and only the store's
    // look-ahead can tell that nothing follows.
    const candidates: Filter[] = [{}, { type: DEBIT }, { type: TRANSFER }, { account: GB }, { account: DE }];
    const fit = candidates
      .map((filter) => {
        const total = expectedIds(eventsA, filter).length;
        const sizes = Array.from({ length: 99 }, (_, i) => i + 2).filter((n) => n < total && total % n === 0);
        return { filter, total, perPage: sizes.at(-1) };
      })
      .find((candidate) => candidate.perPage !== undefined);
    if (fit?.perPage === undefined) throw new Error('no listing with a full last page');
    const { filter, total, perPage } = fit;
    const lastPage = total / perPage;
    const filters = query({
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.account ? { account: filter.account } : {}),
    });
    const last = await api.call(`/events?page=${lastPage}&per_page=${perPage}&${filters}`, {
      key: orgA.api_key,
    });
    expect(last.status, last.text).toBe(200);
    expect((last.body as EventSummary[]).map((event) => event.id)).toEqual(
      expectedIds(eventsA, filter).slice(-perPage),
    );
    expect([...parseLinks(last).keys()]).toEqual(['first', 'prev']);
    const after = await api.call(`/events?page=${lastPage + 1}&per_page=${perPage}&${filters}`, {
      key: orgA.api_key,
    });
    expect(after.body).toEqual([]);
  });

  it('answers a page beyond the end with 200 [] and no next link', async () => {
    const beyond = await api.call('/events?page=1000&per_page=10', { key: orgA.api_key });
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get('link')).toBe(
      `<${base}/events?page=1&per_page=10>; rel="first", <${base}/events?page=999&per_page=10>; rel="prev"`,
    );
    const justAfter = await api.call(`/events?page=${Math.ceil(eventsA.length / 100) + 1}&per_page=100`, {
      key: orgA.api_key,
    });
    expect(justAfter.body).toEqual([]);
  });
});

describe('filters', () => {
  const since = '2026-01-15 08:10:10';
  const until = '2026-01-15 09:41:40';

  it('are built on bulk times that fall on these seconds', () => {
    expect(rendered(bulkTime(15))).toBe(since);
    expect(rendered(bulkTime(151))).toBe(until);
  });

  it('filter by account, normalising the IBAN, across pages', async () => {
    const path = `/events?${query({ account: 'gb82 west 1234 5698 7654 32', per_page: '7' })}`;
    const { ids, events } = await walk(path, orgA.api_key, 7, { account: GB });
    expect(ids).toEqual(expectedIds(eventsA, { account: GB }));
    expect(ids.length).toBeGreaterThan(60);
    for (const event of events) expect(event.account).toBe(GB);
  });

  it('filter by type', async () => {
    const { ids } = await walk(`/events?${query({ type: DEBIT, per_page: '100' })}`, orgA.api_key, 100, {
      type: DEBIT,
    });
    expect(ids).toEqual(expectedIds(eventsA, { type: DEBIT }));
    expect(ids.length).toBeGreaterThan(80);
  });

  it('filter by every webhook_status', async () => {
    for (const status of ['success', 'pending', 'failed'] as const) {
      const response = await api.call(`/events?webhook_status=${status}`, { key: orgA.api_key });
      expect(
        (response.body as EventSummary[]).map((event) => event.id),
        status,
      ).toEqual(expectedIds(eventsA, { status }));
      expect(expectedIds(eventsA, { status })).toHaveLength(1);
    }
    const { ids, events } = await walk('/events?webhook_status=skipped&per_page=100', orgA.api_key, 100, {
      webhook_status: 'skipped',
    });
    expect(ids).toEqual(expectedIds(eventsA, { status: 'skipped' }));
    for (const event of events) expect(event.webhook_status).toBe('skipped');
  });

  it('filter by since and until, both inclusive, in either accepted form', async () => {
    const expected = expectedIds(eventsA, { since, until });
    const { ids } = await walk(`/events?${query({ since, until, per_page: '100' })}`, orgA.api_key, 100, {
      since,
      until,
    });
    expect(ids).toEqual(expected);
    // Both bounds hit events exactly, so an exclusive bound would drop the first or the last.
    const timeOf = (id: string | undefined) => eventsA.find((event) => event.id === id)?.triggeredAt;
    expect(timeOf(expected[0])).toBe(bulkTime(151));
    expect(timeOf(expected.at(-1))).toBe(bulkTime(15));
    const iso = await api.call(
      `/events?${query({ since: '2026-01-15T08:10:10Z', until: '2026-01-15T09:41:40Z', per_page: '100' })}`,
      { key: orgA.api_key },
    );
    expect((iso.body as EventSummary[]).map((event) => event.id)).toEqual(expected.slice(0, 100));
    const onlySince = await api.call(
      `/events?${query({ since: rendered(bulkTime(258)), per_page: '100' })}`,
      {
        key: orgA.api_key,
      },
    );
    expect((onlySince.body as EventSummary[]).map((event) => event.id)).toEqual(
      expectedIds(eventsA, { since: rendered(bulkTime(258)) }),
    );
    const onlyUntil = await api.call(`/events?${query({ until: rendered(bulkTime(4)), per_page: '100' })}`, {
      key: orgA.api_key,
    });
    expect((onlyUntil.body as EventSummary[]).map((event) => event.id)).toEqual(
      expectedIds(eventsA, { until: rendered(bulkTime(4)) }),
    );
    expect((onlyUntil.body as EventSummary[]).length).toBe(5);
  });

  it('count milliseconds inside the until second as part of it', async () => {
    const idAt = (iso: string) => eventsA.find((event) => event.payload.at === iso)?.id;
    const oneSecond = await api.call(`/events?${query({ since: MS_SECOND, until: MS_SECOND })}`, {
      key: orgA.api_key,
    });
    expect((oneSecond.body as EventSummary[]).map((event) => event.id)).toEqual([
      idAt(MS_EVENTS.inside),
      idAt(MS_EVENTS.offset),
      idAt(MS_EVENTS.start),
    ]);
    const upTo = await api.call(`/events?${query({ since: '2026-03-02 10:00:00', until: MS_SECOND })}`, {
      key: orgA.api_key,
    });
    expect((upTo.body as EventSummary[]).map((event) => event.id)).toEqual([
      idAt(MS_EVENTS.inside),
      idAt(MS_EVENTS.offset),
      idAt(MS_EVENTS.start),
      idAt(MS_EVENTS.before),
    ]);
  });

  it('combine with each other and with paging, and every link keeps them', async () => {
    const filter = { account: GB, type: TRANSFER, status: 'skipped', since, until } as const;
    const expected = expectedIds(eventsA, filter);
    expect(expected.length).toBeGreaterThan(14);
    // Given out of canonical order, with a lower-case spaced IBAN: the links are canonical.
    const path = `/events?${query({
      until,
      webhook_status: 'skipped',
      per_page: '7',
      type: TRANSFER,
      since,
      account: 'gb82 west 1234 5698 7654 32',
    })}`;
    const keep = { account: GB, type: TRANSFER, webhook_status: 'skipped', since, until };
    const { ids } = await walk(path, orgA.api_key, 7, keep);
    expect(ids).toEqual(expected);

    const page2 = await api.call(path.replace('per_page=7', 'per_page=7&page=2'), { key: orgA.api_key });
    const filters =
      'account=GB82WEST12345698765432&type=credit_transfer_status_change&webhook_status=skipped' +
      '&since=2026-01-15%2008%3A10%3A10&until=2026-01-15%2009%3A41%3A40';
    expect(page2.headers.get('link')).toBe(
      `<${base}/events?page=1&per_page=7&${filters}>; rel="first", ` +
        `<${base}/events?page=1&per_page=7&${filters}>; rel="prev", ` +
        `<${base}/events?page=3&per_page=7&${filters}>; rel="next"`,
    );
  });

  it('answer a registered but foreign or an unregistered IBAN with an empty list', async () => {
    for (const iban of [UNREGISTERED, NL]) {
      const response = await api.call(`/events?account=${iban}`, { key: orgA.api_key });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    }
  });
});

describe('invalid parameters', () => {
  const PAGE = /integer of 1 or more/;
  const PER_PAGE = /integer from 1 to 100/;
  const TIME = /YYYY-MM-DD HH:MM:SS/;
  const cases: [query: string, name: string, reason: RegExp][] = [
    ['page=0', 'page', PAGE],
    ['page=-1', 'page', PAGE],
    ['page=abc', 'page', PAGE],
    ['page=1.5', 'page', PAGE],
    ['page=05', 'page', PAGE],
    ['page=1e1', 'page', PAGE],
    ['page=', 'page', PAGE],
    ['per_page=0', 'per_page', PER_PAGE],
    ['per_page=101', 'per_page', PER_PAGE],
    ['per_page=abc', 'per_page', PER_PAGE],
    ['per_page=1.5', 'per_page', PER_PAGE],
    ['per_page=-5', 'per_page', PER_PAGE],
    ['page=1&page=2', 'page', /more than once/],
    ['per_page=5&per_page=5', 'per_page', /more than once/],
    [
      'foo=1',
      'foo',
      /unknown parameter; allowed: page, per_page, account, type, webhook_status, since, until/,
    ],
    ['perPage=10', 'perPage', /unknown parameter/],
    ['account=DE89370400440532013001', 'account', /check digits/],
    ['account=hello', 'account', /IBAN/],
    ['account=DE8937040044053201300', 'account', /22 characters/],
    ['type=Credit-Transfer', 'type', /snake_case.*at most 64/],
    [`type=${'a'.repeat(65)}`, 'type', /at most 64/],
    ['webhook_status=done', 'webhook_status', /pending, success, failed, skipped/],
    ['webhook_status=SUCCESS', 'webhook_status', /pending, success, failed, skipped/],
    ['since=2026-01-15', 'since', TIME],
    ['since=2026-01-15T08:00:00', 'since', TIME],
    ['since=yesterday', 'since', TIME],
    ['until=2026-02-30%2000:00:00', 'until', TIME],
    ['until=2026-01-15%2024:00:00', 'until', TIME],
    ['until=2026-01-15%2010:00:00.500', 'until', TIME],
    ['since=2026-01-15%2010:00:00&until=2026-01-15%2009:59:59', 'until', /not be earlier than since/],
  ];

  it.each(cases)('?%s answers 400 naming %s and what is allowed', async (text, name, reason) => {
    const response = await api.call(`/events?${text}`, { key: orgA.api_key });
    const problem = expectProblem(response, 400);
    expect(problem).toMatchObject({
      type: 'https://herald.dev/problems/invalid-parameter',
      title: 'Invalid parameter',
    });
    expect(problem.invalid_params).toEqual([{ name, reason: expect.stringMatching(reason) }]);
    expect(problem.detail).toContain(name);
    expect(problem.detail).toMatch(reason);
  });

  it('answers a malformed account IBAN in the path with 400', async () => {
    const problem: ProblemBody = expectProblem(
      await api.call('/accounts/DE00123', { key: orgA.api_key }),
      400,
    );
    expect(problem.invalid_params?.[0]?.name).toBe('iban');
  });
});

describe('accounts', () => {
  it("lists the organization's accounts by IBAN with their webhook URLs", async () => {
    const response = await api.call('/accounts', { key: orgA.api_key });
    expect(response.status).toBe(200);
    const view = (iban: string, webhookUrl: string | null): AccountView => ({
      iban,
      webhook_url: webhookUrl,
      _links: { self: `${base}/accounts/${iban}`, events: `${base}/events?account=${iban}` },
    });
    expect(response.body).toEqual([
      view(BE, `${receiverUrl}/fail`),
      view(DE, null),
      view(FR, `${receiverUrl}/ok`),
      view(GB, null),
    ]);
  });

  it('shows one account, given in any case and spacing, and its events link works', async () => {
    const response = await api.call(`/accounts/${encodeURIComponent('de89 3704 0044 0532 0130 00')}`, {
      key: orgA.api_key,
    });
    expect(response.status).toBe(200);
    const account = response.body as AccountView;
    expect(account.iban).toBe(DE);
    const events = await api.call(account._links.events, { key: orgA.api_key });
    expect(events.status, events.text).toBe(200);
    expect((events.body as EventSummary[]).map((event) => event.id)).toEqual(
      expectedIds(eventsA, { account: DE }).slice(0, 10),
    );
    // An event's account link leads to this account.
    const first = (events.body as EventSummary[])[0];
    expect(first?._links.account).toBe(`${base}/accounts/${DE}`);
    expect((await api.call(first?._links.account ?? '', { key: orgA.api_key })).body).toEqual(account);
  });
});
