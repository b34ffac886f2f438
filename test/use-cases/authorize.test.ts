import { beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '#use-cases/organizations/api-keys';
import { apiKeyOfBearer } from '#use-cases/organizations/authorize';
import { createOrganization } from '#use-cases/organizations/organizations';
import { InMemoryApiKeyStore } from '../support/fakes/api-key-store';
import { FakeClock } from '../support/fakes/clock';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';

let directory: InMemoryDirectoryStore;
let apiKeys: InMemoryApiKeyStore;
let clock: FakeClock;
let orgId: string;
let apiKey: string;
const nowSeconds = () => Math.floor(clock.date().getTime() / 1000);

beforeEach(async () => {
  directory = new InMemoryDirectoryStore();
  apiKeys = new InMemoryApiKeyStore();
  clock = new FakeClock();
  const created = await createOrganization(directory, apiKeys, 'Acme', clock.date);
  orgId = created.organization.id;
  apiKey = created.firstKey.secret;
  apiKeys.lookups = 0;
});

describe('apiKeyOfBearer', () => {
  it('finds the key of `Bearer <key>`, with its organization and scope', async () => {
    expect(await apiKeyOfBearer(apiKeys, `Bearer ${apiKey}`, nowSeconds())).toMatchObject({
      orgId,
      scope: 'manage',
    });
  });

  it('finds every key of the organization', async () => {
    const second = await createApiKey(
      directory,
      apiKeys,
      orgId,
      { name: 'ci', scope: 'read' },
      clock.date().getTime(),
    );
    expect(await apiKeyOfBearer(apiKeys, `Bearer ${second.secret}`, nowSeconds())).toMatchObject({
      orgId,
      scope: 'read',
    });
  });

  it('answers undefined for an unknown key after one lookup by hash', async () => {
    expect(await apiKeyOfBearer(apiKeys, `Bearer herald_${'A'.repeat(43)}`, nowSeconds())).toBeUndefined();
    expect(apiKeys.lookups).toBe(1);
  });

  it('answers undefined for an expired key', async () => {
    const expiresAt = nowSeconds() + 60;
    const key = await createApiKey(
      directory,
      apiKeys,
      orgId,
      { name: 'session', scope: 'read', expiresAt },
      clock.date().getTime(),
    );
    expect(await apiKeyOfBearer(apiKeys, `Bearer ${key.secret}`, expiresAt - 1)).toBeDefined();
    expect(await apiKeyOfBearer(apiKeys, `Bearer ${key.secret}`, expiresAt)).toBeUndefined();
  });

  it.each([
    ['no header', () => undefined],
    ['an empty header', () => ''],
    ['another scheme', () => 'Basic dXNlcjpwYXNz'],
    ['a scheme without key', () => 'Bearer'],
    ['a lower-case scheme (one spelling, so the cache cannot be sidestepped)', () => `bearer ${apiKey}`],
    ['two spaces', () => `Bearer  ${apiKey}`],
    ['a trailing space', () => `Bearer ${apiKey} `],
    ['two tokens', () => 'Bearer a b'],
  ])('answers undefined for %s without any lookup', async (_case, header) => {
    expect(await apiKeyOfBearer(apiKeys, header(), nowSeconds())).toBeUndefined();
    expect(apiKeys.lookups).toBe(0);
  });
});
