/**
 * `endpoint_enabled` with fakes: stored by every enabling (the account route's, the organization's and
 * the operator's endpoint change) of an endpoint that was disabled, once however many enablings race, its
 * epoch the enabling's time, saying why it had been disabled; also for a failing run already announced
 * (the enabling ends it); nothing for an endpoint healthy or in an unannounced run, and nothing stored for
 * another organization's.
 */
import { describe, expect, it } from 'vitest';
import { checkTlsMaterial } from '#adapters/http/client-tls';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { InMemoryOperationalLog } from '#adapters/memory/operational-log';
import { deliverEvent } from '#delivery/deliver-event';
import { NotFoundError } from '#domain/errors';
import { enableAnyEndpoint, enableEndpoint } from '#use-cases/accounts/enable-endpoint';
import { addAccountEndpoint, updateAccountEndpoint } from '#use-cases/accounts/endpoints';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { FakeEndpointHealthStore } from '../support/fakes/endpoint-health-store';
import { FakeEndpointSecretStore } from '../support/fakes/endpoint-secret-store';
import { InMemoryEventStore } from '../support/fakes/event-store';
import { InMemoryEventTypeStore } from '../support/fakes/event-type-store';
import { FakeSecretSealer } from '../support/fakes/secret-sealer';
import { answer } from '../support/fakes/webhook-sender';
import { expectNoticesInCatalog } from '../support/notice-schemas';

const DISABLED = {
  state: 'disabled',
  consecutiveFailures: 40,
  reason: 'receiver answered 410 Gone',
} as const;

function accountRoute() {
  const w = deliveryWorld();
  const deps = {
    ...w,
    health: w.health,
    events: w.events,
    queue: w.queue,
    now: w.clock.now,
    notices: w.notices,
  };
  return { w, deps };
}

describe('endpoint_enabled', () => {
  it('is stored once when the account route enables a disabled endpoint, with the enabling’s time and the old reason', async () => {
    const { w, deps } = accountRoute();
    w.health.health.set(w.iban, DISABLED);
    await enableEndpoint(deps, 'org-1', w.iban);
    expect(w.notices.notices).toEqual([
      expect.objectContaining({
        kind: 'endpoint_enabled',
        orgId: 'org-1',
        account: w.iban,
        epoch: w.clock.iso(),
        at: w.clock.iso(),
        reason: 'receiver answered 410 Gone',
        consecutiveFailures: 0,
      }),
    ]);
    expect(w.notices.notices[0]?.endpointId).toMatch(/^ep_[0-9a-f]{12}$/);
    expectNoticesInCatalog(w.notices.notices);
    // Enabling it again, or a degraded endpoint, announces nothing: it was not disabled.
    w.clock.advance(1000);
    await enableEndpoint(deps, 'org-1', w.iban);
    w.health.health.set(w.iban, {
      state: 'degraded',
      consecutiveFailures: 7,
      reason: 'failing: answered 503',
    });
    await enableAnyEndpoint({ ...deps, directory: w.directory }, w.iban);
    expect(w.notices.attempts).toHaveLength(1);
  });

  it('closes a failing run already announced: the enabling resets it, so no recovery could', async () => {
    const { w, deps } = accountRoute();
    w.health.health.set(w.iban, {
      state: 'degraded',
      consecutiveFailures: 6,
      reason: 'failing: answered 503',
      noticed: 'failing@2026-01-01T00:00:00.000Z',
    });
    await enableEndpoint(deps, 'org-1', w.iban);
    expect(w.notices.notices).toEqual([
      expect.objectContaining({ kind: 'endpoint_enabled', reason: 'failing: answered 503' }),
    ]);
    expectNoticesInCatalog(w.notices.notices);
  });

  it('is stored once when enablings race: only the first write finds the endpoint disabled', async () => {
    const { w, deps } = accountRoute();
    w.health.health.set(w.iban, DISABLED);
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? enableEndpoint(deps, 'org-1', w.iban)
          : enableAnyEndpoint({ ...deps, directory: w.directory }, w.iban),
      ),
    );
    expect(w.notices.notices.map((n) => n.kind)).toEqual(['endpoint_enabled']);
    expect(w.notices.attempts).toHaveLength(1);
  });

  it('stores nothing for another organization’s account', async () => {
    const { w, deps } = accountRoute();
    w.health.health.set(w.iban, DISABLED);
    await expect(enableEndpoint(deps, 'org-2', w.iban)).rejects.toThrow(NotFoundError);
    expect(w.notices.attempts).toEqual([]);
  });

  it('follows a 410’s disabling through the consumer: disabled, then enabled, in that order', async () => {
    const { w, deps } = accountRoute();
    w.sender.answer = () => answer(410);
    await deliverEvent(w.deps, { id: w.events.seed({ id: 'e1' }).id });
    w.clock.advance(60_000);
    await enableEndpoint(deps, 'org-1', w.iban);
    const page = await w.notices.page('org-1', 0, 10);
    expect(page.notices.map((n) => n.kind)).toEqual(['endpoint_enabled', 'endpoint_disabled']);
    expect(new Set(page.notices.map((n) => n.endpointId)).size).toBe(1);
    expectNoticesInCatalog(page.notices);
  });

  it('is stored when the organization or an operator enables an endpoint through its change (its disabling announced by itself)', async () => {
    const health = new FakeEndpointHealthStore();
    const directory = new InMemoryDirectoryStore(health);
    directory.addOrganization('org-1');
    const iban = 'DE89370400440532013000';
    directory.addAccount({ iban, webhookUrl: 'https://orders.example.com/h', endpointId: 'ep_000000000001' });
    const secrets = new FakeEndpointSecretStore(directory);
    let now = Date.parse('2026-11-27T10:00:00.000Z');
    const notices = new InMemoryOperationalLog();
    const deps = {
      directory,
      events: new InMemoryEventStore(),
      endpointSecrets: secrets,
      sealer: new FakeSecretSealer(),
      policy: 'allow-http' as const,
      checkTls: checkTlsMaterial,
      now: () => (now += 1000),
      endpoints: new InMemoryEndpointStore(directory, secrets.items),
      health,
      eventTypes: new InMemoryEventTypeStore(),
      notices,
    };
    const org = { orgId: 'org-1' };
    const change = (caller: { orgId?: string }, id: string, enabled: boolean) =>
      updateAccountEndpoint(deps, caller, iban, id, { security: {}, enabled });
    const extra = await addAccountEndpoint(deps, org, iban, {
      security: {},
      url: 'https://accounting.example.com/h',
      enabled: false,
    });
    const id = extra.id ?? '';
    expect(notices.attempts).toEqual([]);
    await change(org, id, true);
    await change(org, 'ep_000000000001', false);
    await change({}, 'ep_000000000001', true);
    await change({}, 'ep_000000000001', true);
    expect(notices.notices.map((n) => [n.kind, n.endpointId, n.reason])).toEqual([
      ['endpoint_enabled', id, 'disabled by its organization'],
      ['endpoint_disabled', 'ep_000000000001', 'disabled by its organization'],
      ['endpoint_enabled', 'ep_000000000001', 'disabled by its organization'],
    ]);
    expectNoticesInCatalog(notices.notices);
  });
});
