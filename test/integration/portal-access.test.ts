/**
 * Portal sign-in against DynamoDB Local: a minted link stores only its token's hash, signs in once, and
 * gives a session key of its organization and scope that stops working when it expires.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { NotFoundError, UnauthorizedError, ValidationError } from '#domain/errors';
import { hashApiKey } from '#domain/signing';
import { createOrganization } from '#use-cases/administer';
import {
  MAX_LINK_MINUTES,
  mintPortalLink,
  openPortalSession,
  parsePortalLinkRequest,
  SESSION_MINUTES,
} from '#use-cases/portal-access';
import { catchError } from '../domain/catch-error';
import { type IsolatedResources, isolatedResources } from '../support/resources';

const BASE = 'https://api.example.test/v1';
let resources: IsolatedResources;
let directory: DynamoDirectoryStore;
let orgId: string;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'portal-access' });
  directory = new DynamoDirectoryStore(resources.documents, resources.tableName);
  orgId = (await createOrganization(directory, 'Portal org')).id;
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

describe('portal links', () => {
  it('puts the token in the fragment of <base>/portal and stores only its hash', async () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    const link = await mintPortalLink(directory, orgId, { scope: 'read', ttlMinutes: 15 }, BASE, () => now);
    expect(link.url.startsWith(`${BASE}/portal#token=`)).toBe(true);
    expect(link.expires_at).toBe('2026-11-22T10:15:00.000Z');
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

  it('signs in once with the scope of the link; the session key works until it expires', async () => {
    const link = await mintPortalLink(directory, orgId, { scope: 'manage', ttlMinutes: 60 }, BASE);
    const session = await openPortalSession(directory, { token: tokenOf(link.url) });
    expect(session).toMatchObject({ scope: 'manage', org: { id: orgId, name: 'Portal org' } });
    const minutes = (Date.parse(session.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(SESSION_MINUTES - 1);
    expect(minutes).toBeLessThanOrEqual(SESSION_MINUTES);
    expect(await directory.findOrgIdByApiKeyHash(hashApiKey(session.api_key))).toBe(orgId);

    const again = await rejection(openPortalSession(directory, { token: tokenOf(link.url) }));
    expect(again).toBeInstanceOf(UnauthorizedError);
    expect((again as Error).message).toMatch(/already used/);
  });

  it('refuses an expired link with its expiry time, and the link is gone afterwards', async () => {
    const past = Date.now() - 2 * 60_000;
    const link = await mintPortalLink(directory, orgId, { scope: 'read', ttlMinutes: 1 }, BASE, () => past);
    const error = await rejection(openPortalSession(directory, { token: tokenOf(link.url) }));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toBe(
      `This sign-in link expired at ${link.expires_at}. Ask for a new link.`,
    );
    expect(await directory.takePortalLink(hashApiKey(tokenOf(link.url)))).toBeUndefined();
  });

  it('refuses a session key once its expiry has passed', async () => {
    const link = await mintPortalLink(directory, orgId, { scope: 'read', ttlMinutes: 60 }, BASE);
    const signedInAt = Date.now() - (SESSION_MINUTES + 1) * 60_000;
    const session = await openPortalSession(directory, { token: tokenOf(link.url) }, () => signedInAt);
    expect(await directory.findOrgIdByApiKeyHash(hashApiKey(session.api_key))).toBeUndefined();
  });

  it('answers an unknown organization with 404 and bad requests with the field and what is allowed', async () => {
    const unknown = await rejection(
      mintPortalLink(directory, 'no-such-org', { scope: 'read', ttlMinutes: 5 }, BASE),
    );
    expect(unknown).toBeInstanceOf(NotFoundError);
    const cases: [unknown, string][] = [
      [{}, 'scope'],
      [{ scope: 'admin' }, 'scope'],
      [{ scope: 'read', ttl_minutes: 0 }, 'ttl_minutes'],
      [{ scope: 'read', ttl_minutes: MAX_LINK_MINUTES + 1 }, 'ttl_minutes'],
      [{ scope: 'read', ttl_minutes: 1.5 }, 'ttl_minutes'],
    ];
    for (const [body, name] of cases) {
      const error = catchError(() => parsePortalLinkRequest(body));
      expect(error, JSON.stringify(body)).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).params[0]?.name).toBe(name);
    }
    expect(parsePortalLinkRequest({ scope: 'manage' })).toEqual({ scope: 'manage', ttlMinutes: 60 });
    const noToken = await rejection(openPortalSession(directory, {}));
    expect((noToken as ValidationError).params[0]?.name).toBe('token');
  });
});
