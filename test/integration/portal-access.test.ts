/**
 * Portal sign-in against DynamoDB Local: a minted link stores only its token's hash, signs in once, and
 * gives a session key of its organization and scope that stops working when it expires.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-key-store';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoPortalLinkStore } from '#adapters/dynamodb/portal-link-store';
import { NotFoundError, UnauthorizedError, ValidationError } from '#domain/errors';
import { MAX_LINK_MINUTES, PORTAL_SESSION_KEY_NAME, SESSION_MINUTES } from '#domain/portal-access';
import { hashApiKey } from '#domain/signing/secrets';
import { parsePortalLinkRequest, parsePortalSessionRequest } from '#http/portal/portal-request';
import { toPortalLinkView, toPortalSessionView } from '#http/portal/portal-view';
import { TenantSeeder } from '#local/tenant-seed';
import { apiKeyOfBearer } from '#use-cases/organizations/authorize';
import {
  mintPortalLink,
  openPortalSession,
  type PortalLinkRequest,
} from '#use-cases/organizations/portal-access';
import { catchError } from '../domain/catch-error';
import { apiEvent } from '../support/api-event';
import { type IsolatedResources, isolatedResources } from '../support/resources';

const BASE = 'https://api.example.test/v1';
let resources: IsolatedResources;
let directory: DynamoDirectoryStore;
let apiKeys: DynamoApiKeyStore;
let links: DynamoPortalLinkStore;
let ports: Parameters<typeof openPortalSession>[0];
let orgId: string;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'portal-access' });
  directory = new DynamoDirectoryStore(resources.documents, resources.tableName);
  apiKeys = new DynamoApiKeyStore(resources.documents, resources.tableName);
  links = new DynamoPortalLinkStore(resources.documents, resources.tableName);
  ports = { directory, apiKeys, links };
  orgId = (await new TenantSeeder(resources.documents, resources.tableName).tenant('Portal org')).orgId;
});
afterAll(async () => {
  await resources?.destroy();
});

/** What the promise rejected with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

const tokenOf = (url: string): string => new URL(url).hash.replace('#token=', '');

/** Mints a link as the operator's route does, and answers its view. */
const mint = async (org: string, request: PortalLinkRequest, now?: () => number) =>
  toPortalLinkView(await mintPortalLink(directory, links, org, request, now), BASE);

/** Signs in as `POST /portal/session` does, from its body, and answers its view. */
const signIn = async (body: unknown, now?: () => number) =>
  toPortalSessionView(
    await openPortalSession(ports, parsePortalSessionRequest(apiEvent({ body })).token, now),
  );

describe('portal links', () => {
  it('puts the token in the fragment of <base>/portal and stores only its hash', async () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    const link = await mint(orgId, { scope: 'read', ttlMinutes: 15 }, () => now);
    expect(link.url.startsWith(`${BASE}/portal#token=`)).toBe(true);
    expect(link.expires_at).toBe('2026-11-22 10:15:00');
    const token = tokenOf(link.url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await resources.documents.send(
      new GetCommand({
        TableName: resources.tableName,
        Key: { pk: `PORTAL#${hashApiKey(token)}`, sk: 'PORTAL' },
      }),
    );
    expect(stored.Item).toMatchObject({ org_id: orgId, scope: 'read', expires_at: now / 1000 + 900 });
    expect(JSON.stringify(stored.Item)).not.toContain(token);
  });

  it('signs in once with the scope of the link; the session key is an expiring API key of that scope', async () => {
    const link = await mint(orgId, { scope: 'manage', ttlMinutes: 60 });
    const session = await signIn({ token: tokenOf(link.url) });
    expect(session).toMatchObject({ scope: 'manage', org: { id: orgId, name: 'Portal org' } });
    const minutes = (Date.parse(session.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(SESSION_MINUTES - 1);
    expect(minutes).toBeLessThanOrEqual(SESSION_MINUTES);
    const key = await apiKeyOfBearer(apiKeys, `Bearer ${session.api_key}`, Math.floor(Date.now() / 1000));
    expect(key).toMatchObject({ orgId, scope: 'manage', name: PORTAL_SESSION_KEY_NAME });
    expect(key?.expiresAt).toBe(Date.parse(session.expires_at) / 1000);

    const again = await rejection(signIn({ token: tokenOf(link.url) }));
    expect(again).toBeInstanceOf(UnauthorizedError);
    expect((again as Error).message).toMatch(/already used/);
  });

  it('refuses an expired link with its expiry time, and the link is gone afterwards', async () => {
    const past = Date.now() - 2 * 60_000;
    const link = await mint(orgId, { scope: 'read', ttlMinutes: 1 }, () => past);
    const error = await rejection(signIn({ token: tokenOf(link.url) }));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toBe(
      `This sign-in link expired at ${link.expires_at} UTC. Ask for a new link.`,
    );
    expect(await links.takePortalLink(hashApiKey(tokenOf(link.url)))).toBeUndefined();
  });

  it('refuses a session key once its expiry has passed', async () => {
    const link = await mint(orgId, { scope: 'read', ttlMinutes: 60 });
    const signedInAt = Date.now() - (SESSION_MINUTES + 1) * 60_000;
    const session = await signIn({ token: tokenOf(link.url) }, () => signedInAt);
    const nowSeconds = Math.floor(Date.now() / 1000);
    expect(await apiKeyOfBearer(apiKeys, `Bearer ${session.api_key}`, nowSeconds)).toBeUndefined();
  });

  it('deletes expired session keys at the next sign-in, and keeps every other key', async () => {
    const org = await new TenantSeeder(resources.documents, resources.tableName).tenant('Pruned org');
    const mintOne = () => mint(org.orgId, { scope: 'read', ttlMinutes: 60 });
    const longAgo = Date.now() - (SESSION_MINUTES + 1) * 60_000;
    await signIn({ token: tokenOf((await mintOne()).url) }, () => longAgo);
    const before = await apiKeys.listApiKeys(org.orgId);
    // The organization's first key and the expired session key.
    expect(before.filter((key) => key.name === PORTAL_SESSION_KEY_NAME)).toHaveLength(1);
    expect(before).toHaveLength(2);
    const live = await signIn({ token: tokenOf((await mintOne()).url) });
    const after = await apiKeys.listApiKeys(org.orgId);
    expect(after).toHaveLength(2);
    expect(after.filter((key) => key.name === PORTAL_SESSION_KEY_NAME)).toHaveLength(1);
    const liveKey = await apiKeys.findApiKeyByHash(hashApiKey(live.api_key));
    expect(after.map((key) => key.id)).toContain(liveKey?.id);
  });

  it('answers an unknown organization with 404 and bad requests with the field and what is allowed', async () => {
    const unknown = await rejection(mint('no-such-org', { scope: 'read', ttlMinutes: 5 }));
    expect(unknown).toBeInstanceOf(NotFoundError);
    const cases: [unknown, string][] = [
      [{}, 'scope'],
      [{ scope: 'admin' }, 'scope'],
      [{ scope: 'read', ttl_minutes: 0 }, 'ttl_minutes'],
      [{ scope: 'read', ttl_minutes: MAX_LINK_MINUTES + 1 }, 'ttl_minutes'],
      [{ scope: 'read', ttl_minutes: 1.5 }, 'ttl_minutes'],
    ];
    for (const [body, name] of cases) {
      const error = catchError(() => parsePortalLinkRequest(apiEvent({ body })));
      expect(error, JSON.stringify(body)).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).params[0]?.name).toBe(name);
    }
    expect(parsePortalLinkRequest(apiEvent({ body: { scope: 'manage' } }))).toEqual({
      scope: 'manage',
      ttlMinutes: 60,
    });
    const noToken = await rejection(signIn({}));
    expect((noToken as ValidationError).params[0]?.name).toBe('token');
  });
});
