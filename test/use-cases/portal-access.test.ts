/**
 * Portal sign-in over in-memory fakes with an injected clock: a link signs in once, its session key is an
 * ordinary API key of the link's scope with an expiry, expired session keys make room for new ones, and
 * the 50-key limit still holds for the operator's own keys.
 */
import { describe, expect, it } from 'vitest';
import { ConflictError, ForbiddenError, UnauthorizedError } from '#domain/errors';
import type { Organization } from '#domain/model';
import { PORTAL_SESSION_KEY_NAME, SESSION_MINUTES } from '#domain/portal-access';
import { MAX_API_KEYS_PER_ORG } from '#domain/ports';
import { hashApiKey } from '#domain/signing/secrets';
import { toPortalLinkView, toPortalSessionView } from '#http/portal/portal-view';
import { createApiKey } from '#use-cases/organizations/api-keys';
import { apiKeyOfBearer } from '#use-cases/organizations/authorize';
import {
  closePortalSession,
  mintPortalLink,
  openPortalSession,
} from '#use-cases/organizations/portal-access';
import { InMemoryApiKeyStore } from '../support/fakes/api-key-store';
import { FakeClock } from '../support/fakes/clock';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { InMemoryPortalLinkStore } from '../support/fakes/portal-link-store';

const ORG: Organization = {
  id: 'org-1',
  name: 'Org',
  webhookToken: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
  createdAt: '2026-11-01T00:00:00.000Z',
};
const BASE = 'https://api.example.test/v1';

function setup() {
  const directory = new InMemoryDirectoryStore();
  directory.organizations.set(ORG.id, ORG);
  const ports = { directory, apiKeys: new InMemoryApiKeyStore(), links: new InMemoryPortalLinkStore() };
  const clock = new FakeClock('2026-11-22T12:00:00.000Z');
  const signIn = async (scope: 'read' | 'manage') => {
    const grant = await mintPortalLink(
      directory,
      ports.links,
      ORG.id,
      { scope, ttlMinutes: 10 },
      clock.epochMs,
    );
    const token = new URL(toPortalLinkView(grant, BASE).url).hash.slice('#token='.length);
    return toPortalSessionView(await openPortalSession(ports, token, clock.epochMs));
  };
  return { ports, clock, signIn };
}

const seconds = (clock: FakeClock): number => Math.floor(clock.epochMs() / 1000);

describe('portal sessions', () => {
  it('issue a named API key of the link scope that the authorizer refuses once expired', async () => {
    const { ports, clock, signIn } = setup();
    const session = await signIn('read');
    expect(session).toMatchObject({ scope: 'read', expires_at: '2026-11-22T13:00:00.000Z' });
    expect(await apiKeyOfBearer(ports.apiKeys, `Bearer ${session.api_key}`, seconds(clock))).toMatchObject({
      orgId: ORG.id,
      name: PORTAL_SESSION_KEY_NAME,
      scope: 'read',
      expiresAt: seconds(clock) + SESSION_MINUTES * 60,
    });
    clock.advance(SESSION_MINUTES * 60_000);
    expect(await apiKeyOfBearer(ports.apiKeys, `Bearer ${session.api_key}`, seconds(clock))).toBeUndefined();
  });

  it('never use a link twice, and refuse an expired link', async () => {
    const { ports, clock } = setup();
    const grant = await mintPortalLink(
      ports.directory,
      ports.links,
      ORG.id,
      { scope: 'manage', ttlMinutes: 1 },
      clock.epochMs,
    );
    const token = new URL(toPortalLinkView(grant, BASE).url).hash.slice('#token='.length);
    expect(ports.links.byHash.has(hashApiKey(token))).toBe(true);
    clock.advance(60_000);
    await expect(openPortalSession(ports, token, clock.epochMs)).rejects.toThrow(/expired at/);
    await expect(openPortalSession(ports, token, clock.epochMs)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(ports.apiKeys.byHash.size).toBe(0);
  });

  it('delete expired session keys at sign-in, so sessions never fill the key limit', async () => {
    const { ports, clock, signIn } = setup();
    for (let i = 0; i < MAX_API_KEYS_PER_ORG; i++) {
      await signIn('read');
      clock.advance(SESSION_MINUTES * 60_000);
    }
    // Fifty sign-ins over fifty hours: each one removed the expired session before it.
    expect(await ports.apiKeys.listApiKeys(ORG.id)).toHaveLength(1);
    // An expired key the operator issued is the operator's to revoke: sign-in leaves it.
    const operatorKey = { name: 'ci', scope: 'read' as const, expiresAt: seconds(clock) + 1 };
    await createApiKey(ports.directory, ports.apiKeys, ORG.id, operatorKey, clock.epochMs());
    clock.advance(SESSION_MINUTES * 60_000);
    await signIn('manage');
    const names = (await ports.apiKeys.listApiKeys(ORG.id)).map((key) => key.name).sort();
    expect(names).toEqual(['ci', PORTAL_SESSION_KEY_NAME]);
  });

  it('hold the key limit under 60 concurrent sign-ins, every session key listed', async () => {
    const { ports, signIn } = setup();
    const results = await Promise.allSettled(Array.from({ length: 60 }, () => signIn('read')));
    const sessions = results.filter((r) => r.status === 'fulfilled');
    expect(sessions).toHaveLength(MAX_API_KEYS_PER_ORG);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConflictError);
    expect(await ports.apiKeys.listApiKeys(ORG.id)).toHaveLength(MAX_API_KEYS_PER_ORG);
    expect(ports.apiKeys.byHash.size).toBe(MAX_API_KEYS_PER_ORG);
  });

  it('sign out by revoking their own key, which frees its place; other keys may not', async () => {
    const { ports, clock, signIn } = setup();
    const session = await signIn('read');
    const key = await apiKeyOfBearer(ports.apiKeys, `Bearer ${session.api_key}`, seconds(clock));
    const caller = { orgId: ORG.id, keyId: key?.id ?? '', secret: session.api_key };
    await closePortalSession(ports.apiKeys, caller);
    expect(await apiKeyOfBearer(ports.apiKeys, `Bearer ${session.api_key}`, seconds(clock))).toBeUndefined();
    expect(ports.apiKeys.counts.get(ORG.id)).toBe(0);
    // Twice is not an error: the gateway's cache may still let the revoked key through for a minute.
    await closePortalSession(ports.apiKeys, caller);
    const ci = await createApiKey(ports.directory, ports.apiKeys, ORG.id, { name: 'ci', scope: 'manage' });
    const own = { orgId: ORG.id, keyId: ci.key.id, secret: ci.secret };
    await expect(closePortalSession(ports.apiKeys, own)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await ports.apiKeys.listApiKeys(ORG.id)).toHaveLength(1);
    // The key the authorizer named must be the one the secret is.
    const other = await signIn('manage');
    const mismatched = { orgId: ORG.id, keyId: ci.key.id, secret: other.api_key };
    await expect(closePortalSession(ports.apiKeys, mismatched)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('still refuse a session when the organization holds the most live keys', async () => {
    const { ports, clock, signIn } = setup();
    for (let i = 0; i < MAX_API_KEYS_PER_ORG; i++) {
      await createApiKey(
        ports.directory,
        ports.apiKeys,
        ORG.id,
        { name: `k${i}`, scope: 'read' },
        clock.epochMs(),
      );
    }
    await expect(signIn('read')).rejects.toBeInstanceOf(ConflictError);
  });
});
