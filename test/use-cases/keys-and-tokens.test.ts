/**
 * The API-key, authorizer and token-rotation use-cases over in-memory fakes of the ports, with an
 * injected clock: scopes in the authorizer's policy, expiry, key limits and rotation overlaps.
 */
import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '#config/routes';
import { ConflictError, NotFoundError, ValidationError } from '#domain/errors';
import type { ApiKey, Organization } from '#domain/model';
import { MAX_API_KEYS_PER_ORG } from '#domain/ports';
import { hashApiKey } from '#domain/signing/secrets';
import { webhookTokenId } from '#domain/signing/webhook-token';
import { keyPolicy } from '#http/authorizer-policy';
import { parseApiKeyRequest } from '#http/organizations/api-key-request';
import { toApiKeyView, toCreatedApiKeyView } from '#http/organizations/api-key-view';
import { parseTokenRotation } from '#http/organizations/webhook-token-request';
import { toWebhookTokenView } from '#http/organizations/webhook-token-view';
import { createApiKey, listApiKeys, revokeApiKey } from '#use-cases/organizations/api-keys';
import { apiKeyOfBearer } from '#use-cases/organizations/authorize';
import { rotateWebhookToken, showWebhookToken } from '#use-cases/organizations/webhook-tokens';
import { apiEvent } from '../support/api-event';
import { InMemoryApiKeyStore } from '../support/fakes/api-key-store';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const ORG: Organization = {
  id: 'org-1',
  name: 'Org',
  webhookToken: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
  createdAt: '2026-11-01T00:00:00.000Z',
};

function setup() {
  const directory = new InMemoryDirectoryStore();
  directory.organizations.set(ORG.id, ORG);
  return { directory, keys: new InMemoryApiKeyStore() };
}

describe('API keys', () => {
  it('issues a key whose hash finds it, lists it without the secret, and revokes it by id', async () => {
    const { directory, keys } = setup();
    const request = parseApiKeyRequest(apiEvent({ body: { name: ' ci ', scope: 'read' } }), NOW);
    const created = toCreatedApiKeyView(await createApiKey(directory, keys, ORG.id, request, NOW));
    expect(created).toMatchObject({ name: 'ci', scope: 'read', created_at: '2026-11-22 12:00:00' });
    expect(await keys.findApiKeyByHash(hashApiKey(created.api_key))).toMatchObject({ id: created.id });
    expect((await listApiKeys(directory, keys, ORG.id)).map(toApiKeyView)).toEqual([
      { id: created.id, name: 'ci', scope: 'read', created_at: '2026-11-22 12:00:00' },
    ]);
    await revokeApiKey(keys, ORG.id, created.id);
    await expect(revokeApiKey(keys, ORG.id, created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses bad fields, unknown organizations and more than the limit', async () => {
    const { directory, keys } = setup();
    const create = async (body: Record<string, unknown>) =>
      createApiKey(directory, keys, ORG.id, parseApiKeyRequest(apiEvent({ body }), NOW), NOW);
    await expect(create({ name: 'x', scope: 'admin' })).rejects.toThrow(ValidationError);
    await expect(create({ name: 'x', scope: 'read', expires_at: NOW / 1000 })).rejects.toThrow(/expires_at/);
    await expect(createApiKey(directory, keys, 'nope', { name: 'x', scope: 'read' }, NOW)).rejects.toThrow(
      NotFoundError,
    );
    for (let i = 0; i < MAX_API_KEYS_PER_ORG; i++) {
      await createApiKey(directory, keys, ORG.id, { name: `k${i}`, scope: 'read' }, NOW + i);
    }
    await expect(
      createApiKey(directory, keys, ORG.id, { name: 'one more', scope: 'read' }, NOW),
    ).rejects.toThrow(ConflictError);
  });

  it('never passes the limit under concurrent creations, and lists every key it made', async () => {
    const { directory, keys } = setup();
    const create = (name: string) => createApiKey(directory, keys, ORG.id, { name, scope: 'read' }, NOW);
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => create(`c${i}`)));
    const made = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.key.id] : []));
    expect(made).toHaveLength(MAX_API_KEYS_PER_ORG);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConflictError);
    const listed = await listApiKeys(directory, keys, ORG.id);
    expect(listed.map((key) => key.id).sort()).toEqual([...made].sort());
    // A revoked key frees exactly one place.
    await revokeApiKey(keys, ORG.id, made[0] ?? '');
    await create('after revoke');
    await expect(create('one too many')).rejects.toThrow(ConflictError);
  });

  it('counts keys stored before the count once, and holds the limit from there', async () => {
    const { directory, keys } = setup();
    // 55 keys from before the limit was atomic (the race let organizations pass it): no count stored.
    for (let i = 0; i < 55; i++) {
      keys.byHash.set(`old-${i}`, {
        id: `old-${i}`,
        orgId: ORG.id,
        name: 'old',
        scope: 'read',
        createdAt: '',
      });
    }
    const create = () => createApiKey(directory, keys, ORG.id, { name: 'new', scope: 'read' }, NOW);
    await expect(create()).rejects.toThrow(ConflictError);
    expect(keys.counts.get(ORG.id)).toBe(55);
    expect(await listApiKeys(directory, keys, ORG.id)).toHaveLength(55);
    for (let i = 0; i < 6; i++) await revokeApiKey(keys, ORG.id, `old-${i}`);
    await create();
    await expect(create()).rejects.toThrow(ConflictError);
    expect(keys.counts.get(ORG.id)).toBe(MAX_API_KEYS_PER_ORG);
  });
});

describe('the authorizer', () => {
  const ARN = 'arn:aws:execute-api:eu-central-1:123456789012:abc123/v1/GET/events';

  it('finds a key only in the exact Bearer spelling, and not once it has expired', async () => {
    const { directory, keys } = setup();
    const nowSeconds = NOW / 1000;
    const key = await createApiKey(
      directory,
      keys,
      ORG.id,
      { name: 's', scope: 'read', expiresAt: nowSeconds + 60 },
      NOW,
    );
    expect(await apiKeyOfBearer(keys, `Bearer ${key.secret}`, nowSeconds)).toMatchObject({ id: key.key.id });
    expect(await apiKeyOfBearer(keys, `bearer ${key.secret}`, nowSeconds)).toBeUndefined();
    expect(await apiKeyOfBearer(keys, `Bearer  ${key.secret}`, nowSeconds)).toBeUndefined();
    expect(await apiKeyOfBearer(keys, `Bearer ${key.secret}`, nowSeconds + 60)).toBeUndefined();
    expect(await apiKeyOfBearer(keys, undefined, nowSeconds)).toBeUndefined();
  });

  it('allows a read key exactly the read routes and a manage key every key route, in one cacheable policy', () => {
    const key: ApiKey = { id: 'k', orgId: ORG.id, name: 'n', scope: 'read', createdAt: '' };
    const resources = (scope: ApiKey['scope']) => {
      const statement = keyPolicy({ ...key, scope }, ARN).policyDocument.Statement[0] as {
        Resource: string[];
      };
      return statement.Resource;
    };
    const keyRoutes = API_ROUTES.filter((route) => route.auth === 'api-key');
    const arn = (route: (typeof keyRoutes)[number]) =>
      `arn:aws:execute-api:eu-central-1:123456789012:abc123/v1/${route.method}${route.path.replace(/\{\w+\}/g, '*')}`;
    expect(resources('read')).toEqual(
      keyRoutes
        .filter((route) => route.scope !== 'manage')
        .map(arn)
        .sort(),
    );
    expect(resources('manage')).toEqual(keyRoutes.map(arn).sort());
    expect(resources('read')).not.toContain(
      'arn:aws:execute-api:eu-central-1:123456789012:abc123/v1/POST/management/webhooks/reset',
    );
    expect(keyPolicy(key, ARN).context).toEqual({ orgId: ORG.id, scope: 'read', keyId: 'k' });
  });
});

describe('webhook token rotation', () => {
  it('keeps the replaced token for the overlap (24 h by default) and shows it until it expires', async () => {
    const { directory } = setup();
    const { overlapHours } = parseTokenRotation(apiEvent());
    const rotated = toWebhookTokenView(await rotateWebhookToken(directory, ORG.id, overlapHours, NOW));
    expect(rotated.previous).toEqual({
      webhook_token: ORG.webhookToken,
      token_id: webhookTokenId(ORG.webhookToken),
      expires_at: '2026-11-23 12:00:00',
    });
    // The ids let an operator correlate attempts with tokens; they never show a secret.
    expect(rotated.token_id).toBe(webhookTokenId(rotated.webhook_token));
    expect(rotated.token_id).not.toBe(rotated.previous?.token_id);
    expect(directory.organizations.get(ORG.id)?.webhookToken).toBe(rotated.webhook_token);
    const day = 24 * 3_600_000;
    const shown = async (nowMs: number) =>
      toWebhookTokenView(await showWebhookToken(directory, ORG.id, nowMs));
    expect((await shown(NOW + day - 1)).previous).not.toBeNull();
    expect((await shown(NOW + day)).previous).toBeNull();

    const again = toWebhookTokenView(await rotateWebhookToken(directory, ORG.id, 0, NOW));
    expect(again.previous).toBeNull();
    expect(directory.organizations.get(ORG.id)?.previousWebhookToken).toBeUndefined();
  });

  it('refuses an overlap out of range and an unknown organization', async () => {
    const { directory } = setup();
    // As the JSON of a body; 1e999 reads as Infinity, the one non-finite number JSON can carry.
    for (const hours of ['-1', '169', '"2"', '1e999']) {
      const body = `{"overlap_hours":${hours}}`;
      const rotate = async () =>
        rotateWebhookToken(directory, ORG.id, parseTokenRotation(apiEvent({ body })).overlapHours, NOW);
      await expect(rotate()).rejects.toThrow(/overlap_hours/);
    }
    await expect(rotateWebhookToken(directory, 'nope', 1, NOW)).rejects.toThrow(NotFoundError);
  });
});
