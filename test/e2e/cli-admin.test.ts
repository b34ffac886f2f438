/**
 * The operator CLI end to end, administration: organizations, keys, tokens and accounts. `bin/herald.mjs`
 * runs as a child process, exactly as `npx herald` runs it, against this file's local runtime (see
 * `test/support/cli-fixture.ts`); what it writes is then read back through the API (every answer checked
 * against the served OpenAPI document). Publishing and usage errors are in `cli-events.test.ts`.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { HEALTHY } from '#delivery/endpoint-health-port';
import { ENDPOINT_ID_PATTERN } from '#domain/ids';
import { toEndpointHealthView } from '#http/accounts/account-view';
import { toEndpointSecurityView } from '#http/accounts/endpoint-security-view';
import { TenantSeeder } from '#local/tenant-seed';
import {
  type AccountView,
  API_KEY,
  type CliFixture,
  type CliResult,
  type CreatedOrg,
  DE,
  type EventDetail,
  failed,
  GB,
  ok,
  PAYLOAD,
  startCliFixture,
  TRANSFER,
  UNREGISTERED,
  UUID,
  WEBHOOK_TOKEN,
} from '../support/cli-fixture';
import { testIban } from '../support/delivery-queue-helpers';
import { type ApiClient, expectProblem } from '../support/e2e-http';
import { reply, startReceiver } from '../support/receiver';
import { useFixture } from '../support/use-fixture';
import { waitFor } from '../support/wait';

let api: ApiClient;
let runtime: CliFixture['runtime'];
let base: string;
let herald: CliFixture['herald'];
let createdRaw: CliResult;
let org: CreatedOrg;

useFixture(
  () => startCliFixture(),
  (fixture) => {
    ({ api, base, herald, createdRaw, org, runtime } = fixture);
  },
);

describe('org and keys', () => {
  it('org create prints id, name, webhook_token and api_key as JSON', () => {
    expect(Object.keys(org).sort()).toEqual(['api_key', 'id', 'name', 'token_id', 'webhook_token']);
    expect(org.id).toMatch(UUID);
    expect(org.name).toBe('Acme CLI');
    expect(org.webhook_token).toMatch(WEBHOOK_TOKEN);
    expect(Buffer.from(org.webhook_token.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(org.api_key).toMatch(API_KEY);
    // Pretty-printed JSON, so an operator can read it and a script can parse it.
    expect(createdRaw.stdout).toBe(`${JSON.stringify(org, null, 2)}\n`);
  });

  it('the printed api key works against the API, and only for its own organization', async () => {
    const events = await api.call('/events', { key: org.api_key });
    expect(events.status).toBe(200);
    expect(events.body).toEqual([]);
    expect((await api.call('/accounts', { key: org.api_key })).body).toEqual([]);
    expect((await api.call('/events', { key: `${org.api_key.slice(0, -1)}x` })).status).toBe(401);
  });

  it('refuses an empty organization name', async () => {
    expect(failed(await herald(['org', 'create', '--name', '   ']), 1)).toMatch(
      /name: must be a string of 1 to 200/,
    );
  });

  it('api-key create issues another key that works too', async () => {
    const created = ok(await herald(['api-key', 'create', '--org', org.id])) as { api_key: string };
    expect(created).toMatchObject({ name: 'cli', scope: 'manage', id: expect.any(String) });
    expect(created.api_key).toMatch(API_KEY);
    expect(created.api_key).not.toBe(org.api_key);
    expect((await api.call('/accounts', { key: created.api_key })).status).toBe(200);
    expect((await api.call('/accounts', { key: org.api_key })).status).toBe(200);

    const [unknown, missing] = await Promise.all([
      herald(['api-key', 'create', '--org', randomUUID()]),
      herald(['api-key', 'create']),
    ]);
    expect(failed(unknown, 1)).toMatch(/no organization/);
    expect(failed(missing, 2)).toContain('--org is required');
  });

  it('api-key list shows ids, names and scopes without secrets; api-key revoke makes a key answer 401', async () => {
    const read = ok(
      await herald(['api-key', 'create', '--org', org.id, '--name', 'reader', '--scope', 'read']),
    ) as { id: string; api_key: string };
    expect((await api.call('/events', { key: read.api_key })).status).toBe(200);
    const listed = ok(await herald(['api-key', 'list', '--org', org.id])) as Record<string, unknown>[];
    expect(listed.find((key) => key.id === read.id)).toEqual({
      id: read.id,
      name: 'reader',
      scope: 'read',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expect(ok(await herald(['api-key', 'revoke', '--org', org.id, '--key-id', read.id]))).toEqual({
      revoked: read.id,
    });
    expect((await api.call('/events', { key: read.api_key })).status).toBe(401);
    expect(failed(await herald(['api-key', 'revoke', '--org', org.id, '--key-id', read.id]), 1)).toMatch(
      /no API key/,
    );
    expect(failed(await herald(['api-key', 'create', '--org', org.id, '--scope', 'admin']), 1)).toMatch(
      /scope: must be "read" or "manage"/,
    );
  });

  it('org show and token show print the organization and its tokens', async () => {
    const shown = ok(await herald(['org', 'show', '--org', org.id])) as Record<string, unknown>;
    expect(shown).toMatchObject({ id: org.id, name: 'Acme CLI', webhook_token: org.webhook_token });
    expect(ok(await herald(['token', 'show', '--org', org.id]))).toEqual({
      webhook_token: org.webhook_token,
      token_id: shown.token_id,
      previous: null,
    });
    expect(shown.token_id).toMatch(/^whk_[0-9a-f]{16}$/);
    expect(failed(await herald(['org', 'show', '--org', randomUUID()]), 1)).toMatch(/no organization/);
  });

  it('org token rotate replaces the token, and events wait unsigned for their attempts', async () => {
    const rotated = ok(await herald(['org', 'token', 'rotate', '--org', org.id, '--overlap-hours', '1'])) as {
      webhook_token: string;
      token_id: string;
      previous: { webhook_token: string; token_id: string; expires_at: string };
    };
    expect(rotated.previous.webhook_token).toBe(org.webhook_token);
    expect(rotated.token_id).not.toBe(rotated.previous.token_id);
    expect(ok(await herald(['token', 'show', '--org', org.id]))).toEqual(rotated);
    expect(rotated.webhook_token).toMatch(WEBHOOK_TOKEN);
    expect(rotated.webhook_token).not.toBe(org.webhook_token);

    ok(await herald(['account', 'put', '--org', org.id, '--iban', DE]));
    const orderedAccount = ok(
      await herald(['account', 'put', '--org', org.id, '--iban', DE, '--delivery-order', 'ordered']),
    ) as { delivery_order: string };
    expect(orderedAccount.delivery_order).toBe('ordered');
    // Absent, the order stays; `concurrent` sets it back.
    expect(ok(await herald(['account', 'put', '--org', org.id, '--iban', DE]))).toMatchObject({
      delivery_order: 'ordered',
    });
    ok(await herald(['account', 'put', '--org', org.id, '--iban', DE, '--delivery-order', 'concurrent']));
    // Given as every answer shows times; sent to the API as ISO.
    const published = ok(
      await herald([
        'publish',
        '--account',
        DE,
        '--type',
        TRANSFER,
        '--payload',
        JSON.stringify(PAYLOAD),
        '--triggered-at',
        '2026-05-01 10:00:00',
      ]),
    ) as { id: string };
    const event = (await api.call(`/events/${published.id}`, { key: org.api_key })).body as EventDetail;
    // Signed by each attempt with the tokens of its moment (the delivery tests check them), not at publish.
    expect(event).toMatchObject({ id: published.id, triggered_at: '2026-05-01 10:00:00', signature: null });

    expect(failed(await herald(['org', 'token', 'rotate', '--org', randomUUID()]), 1)).toMatch(
      /no organization/,
    );
  });
});

describe('accounts', () => {
  it('account put normalises a spaced, lower-case IBAN and stores the webhook URL', async () => {
    const put = ok(
      await herald([
        'account',
        'put',
        '--org',
        org.id,
        '--iban',
        'gb82 west 1234 5698 7654 32',
        '--webhook-url',
        'http://127.0.0.1:9/hooks',
      ]),
    ) as AccountView;
    const expected: AccountView = {
      iban: GB,
      webhook_url: 'http://127.0.0.1:9/hooks',
      endpoint_id: expect.stringMatching(ENDPOINT_ID_PATTERN),
      delivery_order: 'concurrent',
      webhook_health: toEndpointHealthView(HEALTHY),
      ...toEndpointSecurityView(undefined),
      _links: { self: `${base}/accounts/${GB}`, events: `${base}/events?account=${GB}` },
    };
    expect(put).toEqual(expected);
    expect((await api.call(`/accounts/${GB}`, { key: org.api_key })).body).toEqual(expected);

    // Putting it again without a URL keeps the URL (issue 28); `--webhook-url none` removes it: its
    // events will be `skipped`.
    expect(ok(await herald(['account', 'put', '--org', org.id, '--iban', GB]))).toEqual(expected);
    const cleared = ok(
      await herald(['account', 'put', '--org', org.id, '--iban', GB, '--webhook-url', 'none']),
    );
    // The endpoint id stays with the account: metrics keep naming the same endpoint.
    expect(cleared).toEqual({ ...expected, webhook_url: null, endpoint_id: put.endpoint_id });
    expect(ok(await herald(['account', 'put', '--org', org.id, '--iban', GB]))).toEqual(cleared);
  });

  it("account put with --delivery-order alone keeps the URL, and the account's next event is delivered", async () => {
    const receiver = await startReceiver();
    try {
      // An organization of its own: nothing another test did to `org` (a token overlap) is in its webhooks.
      const own = ok(await herald(['org', 'create', '--name', 'Order only'])) as CreatedOrg;
      const iban = testIban();
      const account = ['account', 'put', '--org', own.id, '--iban', iban];
      ok(await herald([...account, '--webhook-url', receiver.url]));
      expect(ok(await herald([...account, '--delivery-order', 'ordered']))).toMatchObject({
        iban,
        webhook_url: receiver.url,
        delivery_order: 'ordered',
      });
      const published = ok(
        await herald([
          'publish',
          '--account',
          iban,
          '--type',
          TRANSFER,
          '--payload',
          JSON.stringify(PAYLOAD),
        ]),
      ) as { id: string; webhook_status: string };
      expect(published.webhook_status).toBe('pending');
      await waitFor(
        async () => {
          const shown = await api.call(`/events/${published.id}`, { key: own.api_key });
          return (shown.body as EventDetail).webhook_status === 'success';
        },
        { timeoutMs: 30_000, what: `the webhook of ${published.id} to succeed` },
      );
      expect(receiver.requests.map((request) => request.headers['webhook-id'])).toContain(published.id);
    } finally {
      await receiver.close();
    }
  });

  it('account put refuses a bad IBAN or webhook URL with a message and stores nothing', async () => {
    const results = await Promise.all([
      herald(['account', 'put', '--org', org.id, '--iban', 'DE89370400440532013001']),
      herald(['account', 'put', '--org', org.id, '--iban', 'not an iban']),
      herald(['account', 'put', '--org', org.id, '--iban', UNREGISTERED, '--webhook-url', '/hooks']),
      herald([
        'account',
        'put',
        '--org',
        org.id,
        '--iban',
        UNREGISTERED,
        '--webhook-url',
        'ftp://127.0.0.1/x',
      ]),
      herald([
        'account',
        'put',
        '--org',
        org.id,
        '--iban',
        UNREGISTERED,
        '--webhook-url',
        'http://user:secret@127.0.0.1/x',
      ]),
      herald(['account', 'put', '--org', randomUUID(), '--iban', UNREGISTERED]),
    ]);
    const messages = results.map((result) => failed(result, 1));
    expect(messages[0]).toMatch(/^herald: iban: the check digits do not match/);
    expect(messages[1]).toMatch(/^herald: iban: expected an IBAN/);
    expect(messages[2]).toMatch(/^herald: webhook_url: must be an absolute URL/);
    expect(messages[3]).toMatch(/^herald: webhook_url: must use https: or http:/);
    expect(messages[4]).toMatch(/^herald: webhook_url: must not contain credentials/);
    expect(messages[4]).not.toContain('secret');
    expect(messages[5]).toMatch(/no organization/);
    expect((await api.call(`/accounts/${UNREGISTERED}`, { key: org.api_key })).status).toBe(404);

    expect(failed(await herald(['account', 'put', '--org', org.id]), 2)).toContain('--iban is required');
    const emptyUrl = ['account', 'put', '--org', org.id, '--iban', UNREGISTERED, '--webhook-url', ''];
    expect(failed(await herald(emptyUrl), 2)).toContain('--webhook-url takes a URL, or none.');
  });

  it('account list prints what GET /accounts shows', async () => {
    const listed = ok(await herald(['account', 'list', '--org', org.id])) as AccountView[];
    expect(listed.map((account) => account.iban)).toEqual([DE, GB]);
    expect((await api.call('/accounts', { key: org.api_key })).body).toEqual(listed);
    expect(ok(await herald(['account', 'list', '--org', randomUUID()]))).toEqual([]);
  });

  it('account list follows the pages to list every account; GET /accounts pages with a bound', async () => {
    const ibans = Array.from({ length: 230 }, (_, i) => testIban(i));
    const many = await new TenantSeeder(createDocumentClient(), runtime.tableName).tenant(
      'Many accounts',
      ibans.map((iban) => ({ iban })),
    );
    const listed = ok(await herald(['account', 'list', '--org', many.orgId])) as AccountView[];
    expect(listed.map((account) => account.iban)).toEqual([...ibans].sort());
    expect(new Set(listed.map((account) => account.endpoint_id)).size).toBe(230);

    const first = await api.call('/accounts', { key: many.apiKey });
    expect(first.body).toHaveLength(10);
    expect(first.headers.get('link')).toContain('page=2&per_page=10>; rel="next"');
    const deepest = await api.call('/accounts?page=10&per_page=100', { key: many.apiKey });
    expect(deepest.body).toEqual([]);
    expect(
      expectProblem(await api.call('/accounts?per_page=101', { key: many.apiKey }), 400).invalid_params,
    ).toEqual([{ name: 'per_page', reason: 'must be an integer from 1 to 100' }]);
    const tooDeep = expectProblem(
      await api.call('/accounts?page=11&per_page=100', { key: many.apiKey }),
      400,
    );
    expect(tooDeep.invalid_params?.[0]?.name).toBe('page');
  });
});

describe('account enable', () => {
  it('makes a disabled endpoint healthy again, as GET /accounts/{iban} shows', async () => {
    ok(
      await herald([
        'account',
        'put',
        '--org',
        org.id,
        '--iban',
        GB,
        '--webhook-url',
        'http://127.0.0.1:9/hooks',
      ]),
    );
    const health = new DynamoEndpointHealthStore(createDocumentClient(), runtime.tableName);
    await health.disable(
      { iban: GB, orgId: org.id },
      { at: new Date().toISOString(), reason: 'receiver answered 410 Gone' },
    );
    const before = (await api.call(`/accounts/${GB}`, { key: org.api_key })).body as AccountView;
    expect(before.webhook_health).toMatchObject({ state: 'disabled', reason: 'receiver answered 410 Gone' });

    expect(ok(await herald(['account', 'enable', '--iban', GB]))).toEqual({
      iban: GB,
      webhook_health: 'healthy',
      queued: [],
    });
    const after = (await api.call(`/accounts/${GB}`, { key: org.api_key })).body as AccountView;
    expect(after.webhook_health).toMatchObject({ state: 'healthy', reason: 'enabled by an operator' });
  });

  it('refuses an unknown account and a malformed time with a message', async () => {
    expect(failed(await herald(['account', 'enable', '--iban', UNREGISTERED]), 1)).toContain('No account');
    expect(
      failed(await herald(['account', 'enable', '--iban', GB, '--recover-since', 'yesterday']), 1),
    ).toContain('recover_since');
  });
});

describe('account test-event', () => {
  it("sends the type's example to the account's URL now, marked as a test, and prints what the receiver answered", async () => {
    const receiver = await startReceiver(() => reply.status(202, 'seen it'));
    try {
      const own = ok(await herald(['org', 'create', '--name', 'Test event'])) as CreatedOrg;
      const iban = testIban();
      ok(await herald(['account', 'put', '--org', own.id, '--iban', iban, '--webhook-url', receiver.url]));
      const sent = ok(
        await herald([
          'account',
          'test-event',
          '--iban',
          iban,
          '--type',
          'credit_received',
          '--version',
          '1',
        ]),
      ) as { id: string; type: string; version: number; delivery: Record<string, unknown> };
      expect(sent).toMatchObject({
        id: expect.stringMatching(UUID),
        type: 'credit_received',
        version: 1,
        delivery: { response_status: 202, response_body: 'seen it', url: receiver.url },
      });
      const [request] = receiver.requests;
      expect(receiver.requests).toHaveLength(1);
      expect(request?.headers['herald-test']).toBe('true');
      expect(request?.headers['webhook-id']).toBe(sent.id);
      expect(JSON.parse(request?.body ?? '')).toMatchObject({ account: iban, sequence: null, test: true });
      // Nothing stored: no event of the account.
      const events = await api.call(`/accounts/${iban}/events?after_sequence=0`, { key: own.api_key });
      expect(events.body).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('refuses an unknown type, an account without a URL and a missing --type with a message', async () => {
    const hooked = testIban();
    const bare = testIban();
    ok(
      await herald([
        'account',
        'put',
        '--org',
        org.id,
        '--iban',
        hooked,
        '--webhook-url',
        'http://127.0.0.1:9/',
      ]),
    );
    ok(await herald(['account', 'put', '--org', org.id, '--iban', bare]));
    const unknown = failed(
      await herald(['account', 'test-event', '--iban', hooked, '--type', 'no_such_type']),
      1,
    );
    expect(unknown).toContain('credit_transfer_status_change');
    expect(failed(await herald(['account', 'test-event', '--iban', bare, '--type', TRANSFER]), 1)).toContain(
      'no webhook_url',
    );
    expect(failed(await herald(['account', 'test-event', '--iban', hooked]), 2)).toContain(
      '--type is required',
    );
  });
});

describe('portal-link', () => {
  it('prints a one-time link whose token signs in to the portal with the asked scope', async () => {
    const link = ok(
      await herald(['portal-link', '--org', org.id, '--scope', 'manage', '--ttl-minutes', '5']),
    ) as { url: string; expires_at: string };
    expect(link.url.startsWith(`${base}/portal#token=`)).toBe(true);
    // The API's time format, like every other timestamp the CLI prints.
    expect(link.expires_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const minutes = (Date.parse(`${link.expires_at.replace(' ', 'T')}Z`) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(4);
    expect(minutes).toBeLessThanOrEqual(5);
    const exchange = () =>
      fetch(`${base}/portal/session`, {
        method: 'POST',
        body: JSON.stringify({ token: new URL(link.url).hash.slice('#token='.length) }),
      });
    const session = (await (await exchange()).json()) as { api_key: string; scope: string };
    expect(session.scope).toBe('manage');
    expect((await api.call('/accounts', { key: session.api_key })).status).toBe(200);
    expect((await exchange()).status).toBe(401);
  });

  it('defaults to read and refuses an unknown scope or organization', async () => {
    const link = ok(await herald(['portal-link', '--org', org.id])) as { url: string };
    const answer = await fetch(`${base}/portal/session`, {
      method: 'POST',
      body: JSON.stringify({ token: new URL(link.url).hash.slice('#token='.length) }),
    });
    expect(((await answer.json()) as { scope: string }).scope).toBe('read');
    expect(failed(await herald(['portal-link', '--org', org.id, '--scope', 'admin']), 1)).toMatch(
      /scope: is required: "read" or "manage"/,
    );
    expect(failed(await herald(['portal-link', '--org', randomUUID()]), 1)).toMatch(/no organization/);
  });
});
