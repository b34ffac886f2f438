/**
 * An account's webhook endpoints through their use-cases (issue 32), with in-memory stores: the default
 * endpoint is the account's own, extra ones are added beside it up to the limit; a change keeps what it
 * does not name and removes what it names `null`; every refusal names the field (the URL, an unknown
 * event type, the filter's path) and writes nothing; another organization's account is not found; a
 * removal takes the endpoint's material; an account's deletion takes its extra endpoints.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkTlsMaterial } from '#adapters/http/client-tls';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { InMemoryOperationalLog } from '#adapters/memory/operational-log';
import { MAX_ENDPOINTS_PER_ACCOUNT } from '#config/limits';
import type { EndpointRequest } from '#domain/endpoints/endpoint';
import { ConflictError, NotFoundError, ValidationError } from '#domain/errors';
import { putAccount } from '#use-cases/accounts/accounts';
import { deleteAccount } from '#use-cases/accounts/delete-account';
import {
  addAccountEndpoint,
  getAccountEndpoint,
  listAccountEndpoints,
  removeAccountEndpoint,
  updateAccountEndpoint,
} from '#use-cases/accounts/endpoints';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { FakeEndpointHealthStore } from '../support/fakes/endpoint-health-store';
import { FakeEndpointSecretStore } from '../support/fakes/endpoint-secret-store';
import { InMemoryEventStore } from '../support/fakes/event-store';
import { InMemoryEventTypeStore } from '../support/fakes/event-type-store';
import { FakeSecretSealer } from '../support/fakes/secret-sealer';

const IBAN = 'DE89370400440532013000';
const ORG = { orgId: 'org-1' };
const PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ format: 'pem', type: 'spki' })
  .toString();

const request = (fields: Partial<EndpointRequest>): EndpointRequest => ({ security: {}, ...fields });

function world() {
  const health = new FakeEndpointHealthStore();
  const directory = new InMemoryDirectoryStore(health);
  directory.addOrganization('org-1');
  directory.addOrganization('org-2');
  const account = directory.addAccount({
    iban: IBAN,
    webhookUrl: 'https://orders.example.com/h',
    endpointId: 'ep_000000000001',
  });
  const secrets = new FakeEndpointSecretStore(directory);
  const endpoints = new InMemoryEndpointStore(directory, secrets.items);
  const events = new InMemoryEventStore();
  let now = Date.parse('2026-11-27T10:00:00.000Z');
  const deps = {
    directory,
    events,
    endpointSecrets: secrets,
    sealer: new FakeSecretSealer(),
    policy: 'allow-http' as const,
    checkTls: checkTlsMaterial,
    // Each write a millisecond later: endpoints list in the order they were added.
    now: () => (now += 1),
    endpoints,
    health,
    eventTypes: new InMemoryEventTypeStore(),
  };
  return {
    deps,
    directory,
    account,
    secrets,
    endpoints,
    health,
    events,
    // The organization's own calls on its account's endpoints, each named by the fields it sends.
    add: (fields: Partial<EndpointRequest>) => addAccountEndpoint(deps, ORG, IBAN, request(fields)),
    update: (id: string, fields: Partial<EndpointRequest>) =>
      updateAccountEndpoint(deps, ORG, IBAN, id, request(fields)),
    get: (id: string) => getAccountEndpoint(deps, ORG, IBAN, id),
    list: () => listAccountEndpoints(deps, ORG, IBAN),
    remove: (id: string) => removeAccountEndpoint(deps, ORG, IBAN, id),
  };
}

/** The params of the ValidationError the promise rejects with. */
async function invalidParams(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).params;
}

describe("an account's endpoints", () => {
  it('lists the default endpoint (the account) first, then the extra ones as added', async () => {
    const w = world();
    const a = await w.add({ url: 'https://accounting.example.com/h' });
    const b = await w.add({ url: 'https://store.example.com/h' });
    expect(a.id).toMatch(/^ep_[0-9a-f]{12}$/);
    const listed = await w.list();
    expect(listed.map((endpoint) => [endpoint.id, endpoint.url, endpoint.extra])).toEqual([
      ['ep_000000000001', 'https://orders.example.com/h', undefined],
      [a.id, 'https://accounting.example.com/h', a.id],
      [b.id, 'https://store.example.com/h', b.id],
    ]);
    expect(w.directory.accounts.get(IBAN)?.endpointCount).toBe(2);
    expect((await w.get(b.id ?? '')).url).toBe('https://store.example.com/h');
    // An operator (no organization) reaches it too.
    expect(await listAccountEndpoints(w.deps, {}, IBAN)).toHaveLength(3);
  });

  it("starts an ordered extra endpoint's watermark at the log's latest sequence, in the write that makes it ordered", async () => {
    const w = world();
    for (const id of ['e1', 'e2', 'e3'])
      w.events.seed({ id, account: IBAN, orgId: 'org-1', sequence: Number(id[1]) });
    const ordered = await addAccountEndpoint(
      w.deps,
      ORG,
      IBAN,
      request({ url: 'https://ledger.example.com/h', deliveryOrder: 'ordered' }),
    );
    expect(ordered).toMatchObject({ deliveryOrder: 'ordered', settledThrough: 3, orderEpoch: 1 });
    const stored = await getAccountEndpoint(w.deps, ORG, IBAN, ordered.id ?? '');
    expect(stored).toMatchObject({ deliveryOrder: 'ordered', settledThrough: 3 });
    // A concurrent endpoint made ordered starts after what it got concurrently; one already ordered keeps its own.
    const concurrent = await addAccountEndpoint(
      w.deps,
      ORG,
      IBAN,
      request({ url: 'https://store.example.com/h' }),
    );
    expect(concurrent.settledThrough).toBeUndefined();
    w.events.seed({ id: 'e4', account: IBAN, orgId: 'org-1', sequence: 4 });
    const switched = await updateAccountEndpoint(
      w.deps,
      ORG,
      IBAN,
      concurrent.id ?? '',
      request({ deliveryOrder: 'ordered' }),
    );
    expect(switched).toMatchObject({ deliveryOrder: 'ordered', settledThrough: 4 });
    const again = await updateAccountEndpoint(
      w.deps,
      ORG,
      IBAN,
      ordered.id ?? '',
      request({ deliveryOrder: 'ordered' }),
    );
    expect(again.settledThrough).toBe(3);
  });

  it('stores the subscription, description and security a new endpoint names', async () => {
    const w = world();
    const added = await w.add({
      url: 'https://accounting.example.com/h',
      eventTypes: ['direct_debit_status_change'],
      filter: { status: ['failed'] },
      description: 'Accounting',
      deliveryOrder: 'concurrent',
      security: { payloadEncryptionKey: PEM },
    });
    const got = await w.get(added.id ?? '');
    expect(got).toMatchObject({
      eventTypes: ['direct_debit_status_change'],
      filter: { status: ['failed'] },
      description: 'Accounting',
    });
    expect(got.security?.payloadEncryption).toBeDefined();
    expect(w.secrets.items.get(`${IBAN}#${added.id}`)?.secrets.payloadEncryptionKey).toBeDefined();
  });

  it('refuses the 11th endpoint (the default one counts) and stores nothing', async () => {
    const w = world();
    for (let i = 1; i < MAX_ENDPOINTS_PER_ACCOUNT; i += 1) {
      await w.add({ url: `https://r${i}.example.com/h` });
    }
    const eleventh = w.add({ url: 'https://r11.example.com/h' });
    await expect(eleventh).rejects.toThrow(ConflictError);
    await expect(eleventh).rejects.toThrow(/10 endpoints/);
    expect(await w.list()).toHaveLength(MAX_ENDPOINTS_PER_ACCOUNT);
  });

  it('refuses a new endpoint without a URL, with an unknown event type, or a bad filter, naming each', async () => {
    const w = world();
    expect(await invalidParams(w.add({}))).toMatchObject([{ name: 'url' }]);
    expect(await invalidParams(w.add({ url: 'ftp://x.example.com/h' }))).toMatchObject([{ name: 'url' }]);
    const params = await invalidParams(
      w.add({
        url: 'https://r.example.com/h',
        eventTypes: ['credit_received', 'no_such_type'],
        filter: { amount: [{ numeric: ['>>', 5] }] },
      }),
    );
    expect(params).toEqual([
      { name: 'event_types/1', reason: 'no_such_type is not an event type of the catalog' },
      expect.objectContaining({ name: expect.stringMatching(/^filter\/amount\/0/) }),
    ]);
    expect(w.directory.endpoints.size).toBe(0);
    expect(w.directory.accounts.get(IBAN)?.endpointCount).toBeUndefined();
  });

  it('a change keeps what it does not name, and null removes', async () => {
    const w = world();
    const added = await w.add({
      url: 'https://accounting.example.com/h',
      eventTypes: ['credit_received'],
      filter: { currency: ['EUR'] },
      description: 'Accounting',
    });
    const id = added.id ?? '';
    const renamed = await w.update(id, { description: 'Books' });
    expect(renamed).toMatchObject({
      url: 'https://accounting.example.com/h',
      eventTypes: ['credit_received'],
      filter: { currency: ['EUR'] },
      description: 'Books',
    });
    const cleared = await w.update(id, {
      eventTypes: null,
      filter: null,
      description: null,
      url: 'https://books.example.com/h',
    });
    expect(cleared.url).toBe('https://books.example.com/h');
    expect(cleared.eventTypes).toBeUndefined();
    expect(cleared.filter).toBeUndefined();
    expect(cleared.description).toBeUndefined();
    // An extra endpoint keeps a URL: removing it is removing the endpoint.
    expect(await invalidParams(w.update(id, { url: null }))).toMatchObject([{ name: 'url' }]);
  });

  it('a refused change writes nothing', async () => {
    const w = world();
    const added = await w.add({ url: 'https://accounting.example.com/h', eventTypes: ['credit_received'] });
    const id = added.id ?? '';
    await invalidParams(w.update(id, { description: 'changed', filter: { status: { prefix: 'x' } } }));
    expect(await w.get(id)).toMatchObject({
      eventTypes: ['credit_received'],
      description: undefined,
    });
  });

  it("the default endpoint's change is the account's: URL, subscription and description", async () => {
    const w = world();
    const changed = await w.update('ep_000000000001', {
      url: 'https://orders2.example.com/h',
      eventTypes: ['credit_received'],
      description: 'Orders',
    });
    expect(changed).toMatchObject({ id: 'ep_000000000001', eventTypes: ['credit_received'] });
    expect(changed.extra).toBeUndefined();
    expect(w.directory.accounts.get(IBAN)).toMatchObject({
      webhookUrl: 'https://orders2.example.com/h',
      eventTypes: ['credit_received'],
      description: 'Orders',
    });
  });

  it('disables an endpoint and enables it again', async () => {
    const w = world();
    const added = await w.add({ url: 'https://accounting.example.com/h', enabled: false });
    const id = added.id ?? '';
    expect(added.health?.state).toBe('disabled');
    expect(added.health?.reason).toBe('disabled by its organization');
    const enabled = await w.update(id, { enabled: true });
    expect(enabled.health?.state).toBe('healthy');
    const disabled = await updateAccountEndpoint(w.deps, {}, IBAN, id, request({ enabled: false }));
    expect(disabled.health).toMatchObject({ state: 'disabled', reason: 'disabled by an operator' });
    // The account's default endpoint is untouched.
    expect(w.health.get(IBAN).state).toBe('healthy');
  });

  it('removes an extra endpoint with its material; the default one stays with its account', async () => {
    const w = world();
    const added = await w.add({
      url: 'https://accounting.example.com/h',
      security: { payloadEncryptionKey: PEM },
    });
    const id = added.id ?? '';
    await w.remove(id);
    expect(await w.list()).toHaveLength(1);
    expect(w.secrets.items.has(`${IBAN}#${id}`)).toBe(false);
    expect(w.directory.accounts.get(IBAN)?.endpointCount).toBe(0);
    await expect(w.remove(id)).rejects.toThrow(NotFoundError);
    await expect(w.remove('ep_000000000001')).rejects.toThrow(ConflictError);
  });

  it("another organization's account and its endpoints are not found, and nothing is written", async () => {
    const w = world();
    const added = await w.add({ url: 'https://a.example.com/h' });
    const id = added.id ?? '';
    const other = { orgId: 'org-2' };
    await expect(listAccountEndpoints(w.deps, other, IBAN)).rejects.toThrow(NotFoundError);
    await expect(getAccountEndpoint(w.deps, other, IBAN, id)).rejects.toThrow(NotFoundError);
    await expect(
      addAccountEndpoint(w.deps, other, IBAN, request({ url: 'https://evil.example.com/h' })),
    ).rejects.toThrow(NotFoundError);
    await expect(
      updateAccountEndpoint(w.deps, other, IBAN, id, request({ url: 'https://evil.example.com/h' })),
    ).rejects.toThrow(NotFoundError);
    await expect(removeAccountEndpoint(w.deps, other, IBAN, id)).rejects.toThrow(NotFoundError);
    expect((await w.get(id)).url).toBe('https://a.example.com/h');
  });

  it("an account's deletion removes its extra endpoints and their material", async () => {
    const w = world();
    const added = await w.add({ url: 'https://a.example.com/h', security: { payloadEncryptionKey: PEM } });
    await deleteAccount(
      {
        directory: w.directory,
        events: w.events,
        now: w.deps.now,
        endpoints: w.endpoints,
        notices: new InMemoryOperationalLog(),
        removeEndpointSecrets: w.secrets.removeSecrets,
      },
      { iban: IBAN, erase: false },
    );
    expect(w.directory.endpoints.size).toBe(0);
    expect(w.secrets.items.has(`${IBAN}#${added.id}`)).toBe(false);
  });

  it('an account re-created after a deletion stopped at its tombstone gets none of the old extra endpoints', async () => {
    const w = world();
    await addAccountEndpoint(w.deps, ORG, IBAN, request({ url: 'https://a.example.com/h' }));
    // The request dies once the tombstone is written (a timeout): no removal after it happens.
    const endpoints = {
      removeEndpoints: async (iban: string, orgId: string) => {
        if (await w.directory.getAccountTombstone(iban)) throw new Error('timed out');
        await w.endpoints.removeEndpoints(iban, orgId);
      },
    };
    const notices = new InMemoryOperationalLog();
    const deps = { directory: w.directory, events: w.events, now: w.deps.now, endpoints, notices };
    await expect(deleteAccount(deps, { iban: IBAN, erase: false })).rejects.toThrow('timed out');
    // The organization creates the account again instead of repeating the deletion.
    await putAccount(
      w.directory,
      { ...ORG, iban: IBAN, webhookUrl: 'https://b.example.com/h' },
      'allow-http',
    );
    expect(await w.endpoints.listEndpoints(IBAN, ORG.orgId)).toEqual([]);
    expect(w.directory.endpoints.size).toBe(0);
  });
});
