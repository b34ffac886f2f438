/**
 * A person's disabling (the organization's or the operator's endpoint change with `enabled: false`)
 * announced at once by its own path, with fakes: `endpoint_disabled` with the disabling's time as epoch
 * and its reason, the mark written by the disable write itself so the consumer's disabled gate announces
 * nothing more; once however many disablings race; a notice that cannot be stored gives the mark back.
 */
import { describe, expect, it } from 'vitest';
import { checkTlsMaterial } from '#adapters/http/client-tls';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { deliverEvent } from '#delivery/deliver-event';
import { updateAccountEndpoint } from '#use-cases/accounts/endpoints';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { FakeEndpointSecretStore } from '../support/fakes/endpoint-secret-store';
import { InMemoryEventTypeStore } from '../support/fakes/event-type-store';
import { FakeSecretSealer } from '../support/fakes/secret-sealer';
import { expectNoticesInCatalog } from '../support/notice-schemas';

const ID = 'ep_000000000001';

function world() {
  const w = deliveryWorld();
  w.directory.addAccount({ iban: w.iban, webhookUrl: 'https://hooks.example.com/herald', endpointId: ID });
  const secrets = new FakeEndpointSecretStore(w.directory);
  const deps = {
    directory: w.directory,
    events: w.events,
    endpointSecrets: secrets,
    sealer: new FakeSecretSealer(),
    policy: 'allow-http' as const,
    checkTls: checkTlsMaterial,
    now: w.clock.now,
    endpoints: new InMemoryEndpointStore(w.directory, secrets.items),
    health: w.health,
    eventTypes: new InMemoryEventTypeStore(),
    notices: w.notices,
  };
  const change = (caller: { orgId?: string }, enabled: boolean) =>
    updateAccountEndpoint(deps, caller, w.iban, ID, { security: {}, enabled });
  return { w, change };
}

describe('endpoint_disabled for a person’s disabling', () => {
  it('is stored at once, with the disabling’s time and reason, and the consumer’s gate adds nothing', async () => {
    const { w, change } = world();
    const at = w.clock.iso();
    await change({ orgId: 'org-1' }, false);
    expect(w.notices.notices).toEqual([
      expect.objectContaining({
        kind: 'endpoint_disabled',
        orgId: 'org-1',
        endpointId: ID,
        account: w.iban,
        epoch: at,
        at,
        reason: 'disabled by its organization',
      }),
    ]);
    expect(w.health.health.get(w.iban)?.noticed).toBe(`disabled@${at}`);
    expectNoticesInCatalog(w.notices.notices);
    // The consumer meets the disabled endpoint: its gate finds the mark, so it writes no notice.
    w.clock.advance(60_000);
    await deliverEvent(w.deps, { id: w.events.seed({ id: 'e1' }).id });
    expect(w.notices.attempts).toHaveLength(1);
  });

  it('is stored once for an operator’s disabling, not for a second one that finds it disabled', async () => {
    const { w, change } = world();
    await change({}, false);
    w.clock.advance(1000);
    await change({ orgId: 'org-1' }, false);
    expect(w.notices.notices.map((n) => [n.kind, n.reason])).toEqual([
      ['endpoint_disabled', 'disabled by an operator'],
    ]);
  });

  it('gives the mark back when the notice cannot be stored, so the consumer’s gate announces it', async () => {
    const { w, change } = world();
    const at = w.clock.iso();
    const record = w.notices.record.bind(w.notices);
    w.notices.record = () => Promise.reject(new Error('throttled'));
    await expect(change({ orgId: 'org-1' }, false)).rejects.toThrow('throttled');
    expect(w.health.health.get(w.iban)?.noticed).toBeUndefined();
    w.notices.record = record;
    await deliverEvent(w.deps, { id: w.events.seed({ id: 'e1' }).id });
    expect(w.notices.notices.map((n) => [n.kind, n.epoch])).toEqual([['endpoint_disabled', at]]);
  });
});
