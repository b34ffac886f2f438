import { beforeEach, describe, expect, it } from 'vitest';
import type { Account } from '#domain/model';
import { CachedDirectory } from '#use-cases/delivery/cached-directory';
import { FakeClock } from '../support/fakes/clock';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';

const IBAN = 'DE89370400440532013000';
const TTL_MS = 30_000;
const ACCOUNT: Account = {
  iban: IBAN,
  orgId: 'org-a',
  webhookUrl: 'https://hooks.example.test/old',
  createdAt: '2026-11-21T12:00:00.000Z',
  updatedAt: '2026-11-21T12:00:00.000Z',
};

let clock: FakeClock;
let store: InMemoryDirectoryStore;
let cached: CachedDirectory;

beforeEach(async () => {
  clock = new FakeClock();
  store = new InMemoryDirectoryStore();
  await store.putAccount(ACCOUNT);
  await store.createOrganization({ id: 'org-a', name: 'A', webhookToken: 'whsec_old', createdAt: '' });
  cached = new CachedDirectory(store, TTL_MS, clock.epochMs);
});

describe('CachedDirectory', () => {
  it('reads an account once within the TTL, and again after it', async () => {
    expect(await cached.getAccount(IBAN)).toEqual(ACCOUNT);
    await store.putAccount({ ...ACCOUNT, webhookUrl: 'https://hooks.example.test/new' });
    clock.advance(TTL_MS - 1);
    expect((await cached.getAccount(IBAN))?.webhookUrl).toBe('https://hooks.example.test/old');
    expect(store.reads.getAccount).toBe(1);
    clock.advance(1);
    expect((await cached.getAccount(IBAN))?.webhookUrl).toBe('https://hooks.example.test/new');
    expect(store.reads.getAccount).toBe(2);
  });

  it('caches organizations apart from accounts, with the same TTL', async () => {
    await cached.getOrganization('org-a');
    await store.setWebhookToken('org-a', 'whsec_new');
    expect((await cached.getOrganization('org-a'))?.webhookToken).toBe('whsec_old');
    clock.advance(TTL_MS);
    expect((await cached.getOrganization('org-a'))?.webhookToken).toBe('whsec_new');
    expect(store.reads).toMatchObject({ getOrganization: 2, getAccount: 0 });
  });

  it('keeps a miss too (an unknown account costs one read per TTL)', async () => {
    expect(await cached.getAccount('GB82WEST12345698765432')).toBeUndefined();
    expect(await cached.getAccount('GB82WEST12345698765432')).toBeUndefined();
    expect(store.reads.getAccount).toBe(1);
  });

  it('shares one read among concurrent callers', async () => {
    const all = await Promise.all([
      cached.getAccount(IBAN),
      cached.getAccount(IBAN),
      cached.getAccount(IBAN),
    ]);
    expect(all).toEqual([ACCOUNT, ACCOUNT, ACCOUNT]);
    expect(store.reads.getAccount).toBe(1);
  });

  it('does not keep a failed read: the next call reads again', async () => {
    let fail = true;
    const flaky = Object.assign(new InMemoryDirectoryStore(), {
      getAccount: async (iban: string) => {
        if (fail) throw new Error('throttled');
        return iban === IBAN ? ACCOUNT : undefined;
      },
    });
    const directory = new CachedDirectory(flaky, TTL_MS, clock.epochMs);
    await expect(directory.getAccount(IBAN)).rejects.toThrow('throttled');
    fail = false;
    expect(await directory.getAccount(IBAN)).toEqual(ACCOUNT);
  });
});
