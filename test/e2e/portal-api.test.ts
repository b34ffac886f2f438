/**
 * The portal's HTTP side through the local runtime, every answer checked against the served OpenAPI
 * document: the page and its CSP, minting and exchanging links, signing out (the session key revokes
 * itself and answers 401 once the emulated authorizer cache lets go of it), and that a sign-in token or
 * session key reaches no log even when the functions log every invocation event
 * (`POWERTOOLS_LOGGER_LOG_EVENT=true`). The handlers run in this process, so what they print is
 * captured here.
 */
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { PORTAL_SCRIPT } from '#http/portal/portal-assets.generated';
import { TenantSeeder } from '#local/tenant-seed';
import { type LocalRuntime, startLocalRuntime } from '../../scripts/local/runtime';
import { type ApiClient, connectApi, expectProblem } from '../support/e2e-http';
import { testEndpoints, uniquePrefix } from '../support/resources';
import { waitFor } from '../support/wait';

/** The emulated authorizer cache, short here so that a signed-out key's 401 comes within the test. */
const CACHE_SECONDS = 2;
let runtime: LocalRuntime;
let orgId: string;
let orgKey: string;
const printed: string[] = [];
const writers = { out: process.stdout.write, err: process.stderr.write };

beforeAll(async () => {
  runtime = await startLocalRuntime({
    endpoints: testEndpoints(),
    prefix: uniquePrefix('portal-logging'),
    env: { POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_LOGGER_LOG_EVENT: 'true' },
    authorizerCacheTtlSeconds: CACHE_SECONDS,
  });
  const client = createDocumentClient();
  ({ orgId, apiKey: orgKey } = await new TenantSeeder(client, runtime.tableName).tenant('Logs'));
  const capture =
    (original: typeof process.stdout.write) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      printed.push(String(chunk));
      return (original as (...args: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
    };
  process.stdout.write = capture(writers.out) as typeof process.stdout.write;
  process.stderr.write = capture(writers.err) as typeof process.stderr.write;
});

afterAll(async () => {
  process.stdout.write = writers.out;
  process.stderr.write = writers.err;
  await runtime?.stop();
});

/** The token of a new `read` sign-in link of the organization, minted through the operator route. */
async function readLinkToken(api: ApiClient): Promise<string> {
  const minted = await api.call(`/admin/organizations/${orgId}/portal-links`, {
    method: 'POST',
    sign: runtime.credentials,
    body: { scope: 'read' },
  });
  return new URL((minted.body as { url: string }).url).hash.slice('#token='.length);
}

describe('the portal over HTTP', () => {
  it('is served at /portal with a hash-pinned CSP, lists the link route in OpenAPI, and stays small', async () => {
    const api = await connectApi(runtime.baseUrl);
    const page = await api.call('/portal');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe');
    expect(page.text).not.toMatch(/<(script|link|img)[^>]+(src|href)=/);
    expect(api.document.paths['/admin/organizations/{org}/portal-links']?.post?.security).toEqual([
      { awsSigV4: [] },
    ]);
    expect(gzipSync(PORTAL_SCRIPT).length).toBeLessThanOrEqual(100 * 1024);
  });

  it('mints links and exchanges them as the OpenAPI document says, refusing bad input by name', async () => {
    const api = await connectApi(runtime.baseUrl);
    const links = `/admin/organizations/${orgId}/portal-links`;
    const sign = runtime.credentials;
    const minted = await api.call(links, { method: 'POST', sign, body: { scope: 'read' } });
    expect(minted.status).toBe(201);
    const token = new URL((minted.body as { url: string }).url).hash.slice('#token='.length);
    const unsigned = expectProblem(await api.call(links, { method: 'POST', body: { scope: 'read' } }), 403);
    expect(unsigned.type).toMatch(/signature-required$/);
    const badScope = expectProblem(
      await api.call(links, { method: 'POST', sign, body: { scope: 'root' } }),
      400,
    );
    expect(badScope.invalid_params?.[0]?.name).toBe('scope');
    const unknown = expectProblem(
      await api.call(links, { method: 'POST', sign, body: { scope: 'read', org: 'x' } }),
      400,
    );
    expect(unknown.invalid_params?.[0]?.name).toBe('org');
    expectProblem(
      await api.call('/admin/organizations/nope/portal-links', {
        method: 'POST',
        sign,
        body: { scope: 'read' },
      }),
      404,
    );

    const session = await api.call('/portal/session', { method: 'POST', body: { token } });
    expect(session.status).toBe(201);
    expect(session.body).toMatchObject({ scope: 'read', org: { id: orgId, name: 'Logs' } });
    // The session key is an API key of the link's scope: it reads, and the authorizer's policy refuses
    // a manage route with 403 before any function runs.
    const sessionKey = (session.body as { api_key: string }).api_key;
    expect((await api.call('/events', { key: sessionKey })).status).toBe(200);
    const refused = expectProblem(
      await api.call(`/events/${randomUUID()}/redeliver`, { method: 'POST', key: sessionKey }),
      403,
    );
    expect(refused.detail).toMatch(/manage scope/);
    const used = expectProblem(await api.call('/portal/session', { method: 'POST', body: { token } }), 401);
    expect(used.detail).toMatch(/already used/);
    const missing = expectProblem(await api.call('/portal/session', { method: 'POST', body: {} }), 400);
    expect(missing.invalid_params?.[0]?.name).toBe('token');
  });

  it('signs out: the session key revokes itself, and answers 401 once the cached decision expires', async () => {
    const api = await connectApi(runtime.baseUrl);
    const token = await readLinkToken(api);
    const session = await api.call('/portal/session', { method: 'POST', body: { token } });
    const key = (session.body as { api_key: string }).api_key;
    expect((await api.call('/events', { key })).status).toBe(200);

    // A read session may sign out; the key is deleted at once.
    const sessions = async () => {
      const listed = await api.call(`/admin/organizations/${orgId}/api-keys`, { sign: runtime.credentials });
      return (listed.body as { name: string }[]).filter((k) => k.name === 'portal session').length;
    };
    const before = await sessions();
    expect((await api.call('/portal/session', { method: 'DELETE', key })).status).toBe(204);
    expect(await sessions()).toBe(before - 1);
    // The gateway keeps its decision for the cache's lifetime (60 s in AWS), then refuses the key.
    await waitFor(async () => (await api.call('/events', { key })).status === 401, {
      timeoutMs: (CACHE_SECONDS + 5) * 1000,
    });
    expectProblem(await api.call('/portal/session', { method: 'DELETE', key }), 401);

    // An ordinary key cannot sign itself out: revoking it is an operator's decision.
    const refused = expectProblem(await api.call('/portal/session', { method: 'DELETE', key: orgKey }), 403);
    expect(refused.detail).toMatch(/Only a portal session key/);
    expect((await api.call('/events', { key: orgKey })).status).toBe(200);
  });

  it('logs the link request event but neither the token nor the session key', async () => {
    const api = await connectApi(runtime.baseUrl);
    const token = await readLinkToken(api);
    // Event logging is on: the link request was logged (it holds no secret).
    expect(printed.join('')).toContain('Lambda invocation event');
    expect(printed.join('')).toContain(`/admin/organizations/${orgId}/portal-links`);

    const answer = await fetch(`${runtime.baseUrl}/portal/session`, {
      method: 'POST',
      body: JSON.stringify({ token }),
    });
    expect(answer.status).toBe(201);
    const { api_key } = (await answer.json()) as { api_key: string };
    const output = printed.join('');
    expect(output).not.toContain(token);
    expect(output).not.toContain(api_key);
  });
});
