import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_LIST_DEPTH } from '#config/limits';
import { ConflictError, NotFoundError, ValidationError } from '#domain/errors';
import { ENDPOINT_ID_PATTERN } from '#domain/ids';
import { API_KEY_PREFIX, hashApiKey } from '#domain/signing/secrets';
import { WEBHOOK_TOKEN_PREFIX } from '#domain/signing/webhook-token';
import { parseAccountListQuery } from '#http/accounts/account-request';
import { accountListLink } from '#http/accounts/account-view';
import { parseNewOrganization } from '#http/organizations/organization-request';
import { toCreatedOrganizationView } from '#http/organizations/organization-view';
import { getAccount, listAccounts, putAccount } from '#use-cases/accounts/accounts';
import { createOrganization } from '#use-cases/organizations/organizations';
import { apiEvent } from '../support/api-event';
import { testIban } from '../support/delivery-queue-helpers';
import { InMemoryApiKeyStore } from '../support/fakes/api-key-store';
import { FakeClock } from '../support/fakes/clock';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';

/** A URL's query as API Gateway hands it over (multi-value). */
const queryOf = (url: URL): Record<string, string[]> =>
  Object.fromEntries([...url.searchParams.keys()].map((name) => [name, url.searchParams.getAll(name)]));

const IBAN = 'DE89370400440532013000';
const OTHER_IBAN = 'GB82WEST12345698765432';
const UNKNOWN_ORG = '00000000-0000-4000-8000-000000000000';

let clock: FakeClock;
let directory: InMemoryDirectoryStore;
let apiKeys: InMemoryApiKeyStore;

beforeEach(() => {
  clock = new FakeClock('2026-11-21T12:00:00.000Z');
  directory = new InMemoryDirectoryStore();
  apiKeys = new InMemoryApiKeyStore();
});

const newOrg = async (name = 'Acme') =>
  (await createOrganization(directory, apiKeys, name, clock.date)).organization.id;

describe('createOrganization', () => {
  it('stores the trimmed name, a webhook token and the hash of a first API key, at the clock time', async () => {
    const { name } = parseNewOrganization(apiEvent({ body: { name: '  Acme GmbH ' } }));
    const created = toCreatedOrganizationView(await createOrganization(directory, apiKeys, name, clock.date));
    expect(created.name).toBe('Acme GmbH');
    expect(created.webhook_token.startsWith(WEBHOOK_TOKEN_PREFIX)).toBe(true);
    expect(created.api_key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(directory.organizations.get(created.id)).toEqual({
      id: created.id,
      name: 'Acme GmbH',
      webhookToken: created.webhook_token,
      createdAt: clock.iso(),
    });
    expect([...apiKeys.byHash]).toEqual([
      [
        hashApiKey(created.api_key),
        expect.objectContaining({
          orgId: created.id,
          name: 'default',
          scope: 'manage',
          createdAt: clock.iso(),
        }),
      ],
    ]);
  });

  it.each(['', '   ', 'x'.repeat(201)])('refuses the name %j and stores nothing', async (name) => {
    const create = async () =>
      createOrganization(directory, apiKeys, parseNewOrganization(apiEvent({ body: { name } })).name);
    await expect(create()).rejects.toMatchObject({
      params: [{ name: 'name', reason: 'must be a string of 1 to 200 characters' }],
    });
    expect(directory.organizations.size).toBe(0);
  });
});

describe('putAccount', () => {
  it('stores a normalised IBAN and the checked webhook URL', async () => {
    const orgId = await newOrg();
    const account = await putAccount(
      directory,
      { orgId, iban: 'de89 3704 0044 0532 0130 00', webhookUrl: 'https://Hooks.Example.test/in' },
      'public-https',
      { clock: clock.date },
    );
    expect(account).toEqual({
      iban: IBAN,
      orgId,
      webhookUrl: 'https://hooks.example.test/in',
      endpointId: expect.stringMatching(ENDPOINT_ID_PATTERN),
      createdAt: clock.iso(),
      updatedAt: clock.iso(),
    });
    expect(directory.accounts.get(IBAN)).toEqual(account);
  });

  it('creates an account without a URL when none is given; keeps a stored one then, removes it for null', async () => {
    const orgId = await newOrg();
    expect((await putAccount(directory, { orgId, iban: IBAN }, 'public-https')).webhookUrl).toBeUndefined();
    const url = 'https://hooks.example.test/in';
    await putAccount(directory, { orgId, iban: IBAN, webhookUrl: url }, 'public-https');
    const kept = await putAccount(directory, { orgId, iban: IBAN, deliveryOrder: 'ordered' }, 'public-https');
    expect(kept).toMatchObject({ webhookUrl: url, deliveryOrder: 'ordered' });
    const removed = await putAccount(directory, { orgId, iban: IBAN, webhookUrl: null }, 'public-https');
    expect(removed.webhookUrl).toBeUndefined();
    expect(removed.deliveryOrder).toBe('ordered');
  });

  it('refuses an empty URL rather than reading it as a removal, and keeps the stored one', async () => {
    const orgId = await newOrg();
    const url = 'https://hooks.example.test/in';
    await putAccount(directory, { orgId, iban: IBAN, webhookUrl: url }, 'public-https');
    await expect(
      putAccount(directory, { orgId, iban: IBAN, webhookUrl: '' }, 'public-https'),
    ).rejects.toMatchObject({ params: [{ name: 'webhook_url' }] });
    expect(directory.accounts.get(IBAN)?.webhookUrl).toBe(url);
  });

  it('updates an account of the same organization and keeps its creation time and endpoint id', async () => {
    const orgId = await newOrg();
    const first = await putAccount(directory, { orgId, iban: IBAN }, 'public-https', { clock: clock.date });
    const created = clock.iso();
    clock.advance(5_000);
    const updated = await putAccount(
      directory,
      { orgId, iban: IBAN, webhookUrl: 'https://hooks.example.test/new' },
      'public-https',
      { clock: clock.date },
    );
    expect(updated).toMatchObject({
      createdAt: created,
      updatedAt: clock.iso(),
      endpointId: first.endpointId,
    });
    // An account from before endpoint ids gets one at its next write.
    directory.accounts.set(IBAN, { ...updated, endpointId: undefined });
    const again = await putAccount(directory, { orgId, iban: IBAN }, 'public-https', { clock: clock.date });
    expect(again.endpointId).toMatch(ENDPOINT_ID_PATTERN);
  });

  it('refuses an IBAN that belongs to another organization', async () => {
    const first = await newOrg('First');
    const second = await newOrg('Second');
    await putAccount(directory, { orgId: first, iban: IBAN }, 'public-https');
    const attempt = putAccount(directory, { orgId: second, iban: IBAN }, 'public-https');
    await expect(attempt).rejects.toBeInstanceOf(ConflictError);
    expect(directory.accounts.get(IBAN)?.orgId).toBe(first);
  });

  it('refuses a malformed IBAN, an unknown organization and a URL the policy forbids, storing nothing', async () => {
    const orgId = await newOrg();
    await expect(
      putAccount(directory, { orgId, iban: 'DE00370400440532013000' }, 'public-https'),
    ).rejects.toMatchObject({
      params: [{ name: 'iban' }],
    });
    await expect(
      putAccount(directory, { orgId: UNKNOWN_ORG, iban: IBAN }, 'public-https'),
    ).rejects.toBeInstanceOf(NotFoundError);
    const plainHttp = { orgId, iban: IBAN, webhookUrl: 'http://hooks.example.test/in' };
    await expect(putAccount(directory, plainHttp, 'public-https')).rejects.toMatchObject({
      params: [{ name: 'webhook_url' }],
    });
    expect(directory.accounts.size).toBe(0);
    // The same URL under a policy that allows it.
    expect((await putAccount(directory, plainHttp, 'allow-http')).webhookUrl).toBe(
      'http://hooks.example.test/in',
    );
  });

  it('asks checkHost about the parsed URL and stores nothing when it refuses', async () => {
    const orgId = await newOrg();
    const asked: string[] = [];
    const checkHost = async (url: URL): Promise<void> => {
      asked.push(url.hostname);
      throw new ValidationError('webhook_url', 'resolves to a private address');
    };
    const input = { orgId, iban: IBAN, webhookUrl: 'https://internal.example.test/in' };
    await expect(putAccount(directory, input, 'public-https', { checkHost })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(asked).toEqual(['internal.example.test']);
    expect(directory.accounts.size).toBe(0);
  });
});

describe('listAccounts and getAccount', () => {
  it("list only the organization's accounts, in IBAN order", async () => {
    const orgId = await newOrg('Mine');
    const otherOrg = await newOrg('Theirs');
    await putAccount(directory, { orgId, iban: OTHER_IBAN }, 'public-https');
    await putAccount(directory, { orgId, iban: IBAN }, 'public-https');
    await putAccount(directory, { orgId: otherOrg, iban: 'NL91ABNA0417164300' }, 'public-https');
    const page = await listAccounts(directory, orgId, { page: 1, perPage: 10 });
    expect(page.accounts.map((account) => account.iban)).toEqual([IBAN, OTHER_IBAN]);
    expect(page.hasMore).toBe(false);
    expect(await listAccounts(directory, UNKNOWN_ORG, { page: 1, perPage: 10 })).toEqual({
      accounts: [],
      hasMore: false,
    });
  });

  it('page 3,000 accounts with bounded reads, the next links reaching every one', async () => {
    const orgId = await newOrg('Big');
    const ibans = Array.from({ length: 3_000 }, (_, i) => testIban(i));
    for (const iban of ibans) directory.addAccount({ iban, orgId });
    const base = 'https://api.example.test/v1';
    let next: string | undefined = `${base}/accounts?per_page=100`;
    const seen: string[] = [];
    let requests = 0;
    while (next !== undefined) {
      const url: URL = new URL(next);
      const query = parseAccountListQuery(apiEvent({ query: queryOf(url) }));
      const before = directory.reads.listedEntries;
      const page = await listAccounts(directory, orgId, query);
      // Each request reads at most the depth bound (plus one) of index entries, and its page of items.
      expect(directory.reads.listedEntries - before).toBeLessThanOrEqual(MAX_LIST_DEPTH + 1);
      expect(page.accounts.length).toBeLessThanOrEqual(100);
      seen.push(...page.accounts.map((account) => account.iban));
      next = /<([^>]+)>; rel="next"/.exec(accountListLink(base, '/accounts', query, page))?.[1];
      requests++;
    }
    expect(seen).toEqual([...ibans].sort());
    expect(requests).toBe(30);
  });

  it("get an account by a spaced IBAN; another organization's answers like an unknown one", async () => {
    const orgId = await newOrg('Mine');
    const otherOrg = await newOrg('Theirs');
    await putAccount(directory, { orgId, iban: IBAN }, 'public-https');
    expect((await getAccount(directory, orgId, 'DE89 3704 0044 0532 0130 00')).iban).toBe(IBAN);
    const foreign = getAccount(directory, otherOrg, IBAN);
    await expect(foreign).rejects.toBeInstanceOf(NotFoundError);
    await expect(foreign).rejects.toThrow(`No account ${IBAN}.`);
    await expect(getAccount(directory, orgId, OTHER_IBAN)).rejects.toThrow(`No account ${OTHER_IBAN}.`);
    await expect(getAccount(directory, orgId, 'not-an-iban')).rejects.toMatchObject({
      params: [{ name: 'iban' }],
    });
  });
});
