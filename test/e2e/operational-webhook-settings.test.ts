/**
 * The operational webhook's settings end to end (issue 33), through the local runtime: `GET|PUT
 * /operational-webhook` with the organization's keys (a `read` key sees the URL masked and cannot change
 * it), the operator's twins and `GET /admin/organizations/{org}/operational-events`, and the CLI's
 * `operational-webhook show|set|clear` and `operational-events list`. Every answer is checked against the
 * served OpenAPI document by the API client.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { type Notice, type NoticeKind, noticeId } from '#domain/notices/notice';
import { type CliFixture, type CreatedOrg, DE, failed, ok, startCliFixture } from '../support/cli-fixture';
import { type ApiClient, expectProblem } from '../support/e2e-http';
import { useFixture } from '../support/use-fixture';
import { waitFor } from '../support/wait';

let api: ApiClient;
let herald: CliFixture['herald'];
let org: CreatedOrg;
let runtime: CliFixture['runtime'];
let readKey: string;
const documents = DynamoDBDocumentClient.from(new DynamoDBClient({}));

useFixture(
  () => startCliFixture(),
  (fixture) => {
    ({ api, herald, org, runtime } = fixture);
  },
);

beforeAll(async () => {
  const created = ok(await herald(['api-key', 'create', '--org', org.id, '--scope', 'read'])) as {
    api_key: string;
  };
  readKey = created.api_key;
});

afterAll(() => {
  documents.destroy();
});

const OPS_URL = 'http://127.0.0.1:9/ops?token=s3cret';

/** The organization item's `ops_webhook_url`, as the sender reads it. */
async function storedUrl(orgId: string): Promise<unknown> {
  const out = await documents.send(
    new GetCommand({
      TableName: runtime.tableName,
      Key: { pk: `ORG#${orgId}`, sk: 'ORG' },
      ConsistentRead: true,
    }),
  );
  return out.Item?.ops_webhook_url;
}

const put = (body: unknown, key = org.api_key) =>
  api.call('/operational-webhook', { method: 'PUT', key, body });
const admin = (method: string, path: string, body?: unknown) =>
  api.call(path, { method, sign: runtime.credentials, ...(body === undefined ? {} : { body }) });
const adminPath = (orgId: string, leaf: string) =>
  `/admin/organizations/${encodeURIComponent(orgId)}/${leaf}`;

describe('the operational webhook setting', () => {
  it('is set by a manage key (absent keeps, null removes), shown masked to a read key, refused to it', async () => {
    expect((await api.call('/operational-webhook', { key: org.api_key })).body).toEqual({ url: null });

    const set = await put({ url: OPS_URL });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ url: OPS_URL });
    expect(await storedUrl(org.id)).toBe(OPS_URL);
    expect((await api.call('/operational-webhook', { key: org.api_key })).body).toEqual({ url: OPS_URL });
    const masked = await api.call('/operational-webhook', { key: readKey });
    expect(masked.status).toBe(200);
    expect(masked.body).toEqual({ url: 'http://127.0.0.1:9/ops?token=***' });

    expectProblem(await put({ url: null }, readKey), 403);
    expect(await storedUrl(org.id)).toBe(OPS_URL);

    expect((await put({})).body).toEqual({ url: OPS_URL });
    expect(await storedUrl(org.id)).toBe(OPS_URL);

    const cleared = await put({ url: null });
    expect(cleared.body).toEqual({ url: null });
    expect(await storedUrl(org.id)).toBeUndefined();
  });

  it('refuses a URL the policy refuses or an unknown field, naming it, and keeps what is stored', async () => {
    expect((await put({ url: OPS_URL })).status).toBe(200);
    const linkLocal = expectProblem(await put({ url: 'http://169.254.169.254/latest' }), 400);
    expect(linkLocal.invalid_params).toEqual([
      {
        name: 'url',
        reason: 'host 169.254.169.254 is a link-local address, which URL policy local does not allow',
      },
    ]);
    const scheme = expectProblem(await put({ url: 'ftp://ops.example.com/' }), 400);
    expect(scheme.invalid_params?.map((param) => param.name)).toEqual(['url']);
    const unknown = expectProblem(await put({ webhook_url: 'http://127.0.0.1:9/other' }), 400);
    expect(unknown.invalid_params?.map((param) => param.name)).toEqual(['webhook_url']);
    expect(await storedUrl(org.id)).toBe(OPS_URL);
    expect((await put({ url: null })).status).toBe(200);
  });

  it('has the operator’s twins, which show the URL whole and 404 an unknown organization', async () => {
    const path = adminPath(org.id, 'operational-webhook');
    const set = await admin('PUT', path, { url: OPS_URL });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ url: OPS_URL });
    expect((await admin('GET', path)).body).toEqual({ url: OPS_URL });
    expect((await api.call('/operational-webhook', { key: readKey })).body).toEqual({
      url: 'http://127.0.0.1:9/ops?token=***',
    });
    expect((await admin('PUT', path, {})).body).toEqual({ url: OPS_URL });
    expect((await admin('PUT', path, { url: null })).body).toEqual({ url: null });
    expectProblem(await admin('GET', adminPath('org-unknown', 'operational-webhook')), 404);
    expectProblem(await admin('PUT', adminPath('org-unknown', 'operational-webhook'), { url: null }), 404);
  });

  it('is shown, set and cleared by the CLI', async () => {
    expect(ok(await herald(['operational-webhook', 'show', '--org', org.id]))).toEqual({ url: null });
    expect(ok(await herald(['operational-webhook', 'set', '--org', org.id, '--url', OPS_URL]))).toEqual({
      url: OPS_URL,
    });
    expect(ok(await herald(['operational-webhook', 'show', '--org', org.id]))).toEqual({ url: OPS_URL });
    const refused = failed(
      await herald(['operational-webhook', 'set', '--org', org.id, '--url', 'http://169.254.169.254/']),
      1,
    );
    expect(refused).toContain('url: host 169.254.169.254 is a link-local address');
    expect(failed(await herald(['operational-webhook', 'set', '--org', org.id]), 2)).toContain(
      '--url is required',
    );
    expect(await storedUrl(org.id)).toBe(OPS_URL);
    expect(ok(await herald(['operational-webhook', 'clear', '--org', org.id]))).toEqual({ url: null });
    expect(await storedUrl(org.id)).toBeUndefined();
  });
});

describe('the operator’s operational events', () => {
  /** A notice of `orgId`, recorded as the consumer records one. */
  function notice(orgId: string, kind: NoticeKind, epoch: string): Notice {
    const key = { kind, orgId, endpointId: 'ep_0123456789ab', epoch };
    return {
      ...key,
      id: noticeId(key),
      account: DE,
      at: epoch,
      consecutiveFailures: 4,
      disableAt: '2026-11-25T10:00:00.000Z',
      lastAnswer: { status: 503, bodyExcerpt: 'busy' },
    };
  }

  it('pages the organization’s notices, newest first, like its own route, in the API and the CLI', async () => {
    const log = new DynamoOperationalLog(documents, runtime.tableName);
    await log.record(notice(org.id, 'endpoint_failing', '2026-11-20T10:00:00.000Z'));
    await log.record(notice(org.id, 'endpoint_recovered', '2026-11-20T10:00:00.000Z'));
    await log.record(notice(org.id, 'endpoint_failing', '2026-11-21T10:00:00.000Z'));
    await log.record(notice('org-other', 'endpoint_disabled', '2026-11-22T10:00:00.000Z'));
    // Each notice's creation is sent to the operational webhook (none here: it settles `skipped`); the
    // listings compared below are read once every delivery has settled.
    const own = await waitFor(
      async () => {
        const read = await api.call('/operational-events', { key: readKey });
        const settled = (read.body as { webhook_status: string }[]).every(
          (n) => n.webhook_status !== 'pending',
        );
        return settled && read;
      },
      { timeoutMs: 20_000, what: "the notices' deliveries to settle" },
    );
    const first = await admin('GET', `${adminPath(org.id, 'operational-events')}?per_page=2`);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual((own.body as unknown[]).slice(0, 2));
    expect((first.body as { type: string }[]).map((n) => n.type)).toEqual([
      'endpoint_failing',
      'endpoint_recovered',
    ]);
    const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBe(`${api.baseUrl}${adminPath(org.id, 'operational-events')}?page=2&per_page=2`);
    const second = await admin('GET', new URL(next ?? '').pathname + new URL(next ?? '').search);
    expect((second.body as { type: string }[]).map((n) => n.type)).toEqual(['endpoint_failing']);
    expect(second.headers.get('link')).not.toContain('rel="next"');
    expectProblem(await admin('GET', adminPath('org-unknown', 'operational-events')), 404);
    expectProblem(await admin('GET', `${adminPath(org.id, 'operational-events')}?page=0`), 400);

    const listed = ok(await herald(['operational-events', 'list', '--org', org.id])) as { id: string }[];
    expect(listed).toEqual(own.body);
    const page = ok(
      await herald(['operational-events', 'list', '--org', org.id, '--page', '2', '--per-page', '2']),
    ) as { id: string }[];
    expect(page).toEqual((own.body as unknown[]).slice(2));
    expect(failed(await herald(['operational-events', 'list', '--org', org.id, '--page', 'x']), 2)).toContain(
      '--page must be a page number',
    );
  });
});
