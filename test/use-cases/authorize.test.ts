import { beforeEach, describe, expect, it } from 'vitest';
import { createApiKey, createOrganization } from '#use-cases/administer';
import { organizationOfBearer } from '#use-cases/authorize';
import { FakeClock } from '../support/fakes/clock';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';

let directory: InMemoryDirectoryStore;
let orgId: string;
let apiKey: string;

beforeEach(async () => {
  directory = new InMemoryDirectoryStore();
  const created = await createOrganization(directory, 'Acme', new FakeClock().date);
  orgId = created.id;
  apiKey = created.api_key;
});

describe('organizationOfBearer', () => {
  it.each([
    ['Bearer <key>', (key: string) => `Bearer ${key}`],
    ['a case-insensitive scheme', (key: string) => `bEaReR ${key}`],
    ['several spaces and a trailing one', (key: string) => `Bearer    ${key} `],
  ])('finds the organization of a known key: %s', async (_case, header) => {
    expect(await organizationOfBearer(directory, header(apiKey))).toBe(orgId);
  });

  it('finds every key of the organization', async () => {
    const second = await createApiKey(directory, orgId);
    expect(await organizationOfBearer(directory, `Bearer ${second.api_key}`)).toBe(orgId);
  });

  it('answers undefined for an unknown key after one lookup by hash', async () => {
    expect(await organizationOfBearer(directory, 'Bearer herald_unknown')).toBeUndefined();
    expect(directory.reads.findOrgIdByApiKeyHash).toBe(1);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another scheme', `Basic dXNlcjpwYXNz`],
    ['a scheme without key', 'Bearer'],
    ['a scheme and blanks', 'Bearer   '],
    ['two tokens', 'Bearer a b'],
  ])('answers undefined for %s without any lookup', async (_case, header) => {
    expect(await organizationOfBearer(directory, header)).toBeUndefined();
    expect(directory.reads.findOrgIdByApiKeyHash).toBe(0);
  });
});
