/**
 * `client_certificate_expiring` with fakes: stored once per certificate when fewer than 14 days are left,
 * however many consumers see it at once; then marked on the endpoint's item, so the deliveries of the
 * window write nothing more; a new certificate is a new notice; nothing while more days are left.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryOperationalLog } from '#adapters/memory/operational-log';
import { deliverEvent } from '#delivery/deliver-event';
import { DEFAULT_HEALTH_POLICY } from '#delivery/endpoint-health-rule';
import { announceCertificate } from '#delivery/operational-notices';
import { CERTIFICATE_WARNING_DAYS } from '#domain/endpoint-security/client-certificate';
import type { Endpoint } from '#domain/endpoints/endpoint';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { FakeEndpointHealthStore } from '../support/fakes/endpoint-health-store';
import { expectNoticesInCatalog } from '../support/notice-schemas';

const IBAN = 'DE89370400440532013000';
const NOW = Date.parse('2026-12-01T12:00:00.000Z');
const DAY = 86_400_000;
const expiry = (days: number) => new Date(NOW + days * DAY).toISOString();

function setup() {
  const health = new FakeEndpointHealthStore();
  health.owners.set(IBAN, 'org-1');
  const notices = new InMemoryOperationalLog();
  const deps = { health, healthPolicy: DEFAULT_HEALTH_POLICY, notices, now: () => NOW };
  /** The endpoint as a batch reads it: its certificate's summary and its health (with the mark). */
  const endpoint = (expiresAt: string): Endpoint => ({
    iban: IBAN,
    orgId: 'org-1',
    id: 'ep_00000000000c',
    url: 'https://hooks.example.com/h',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    security: { tlsClient: { subject: 'CN=herald', issuer: 'CN=bank CA', expiresAt } },
    health: health.get(IBAN),
  });
  return { health, notices, deps, endpoint };
}

describe('client_certificate_expiring', () => {
  it('is stored once per certificate, from when its last 14 days began, then costs nothing at each delivery', async () => {
    const { health, notices, deps, endpoint } = setup();
    expect(await announceCertificate(deps, endpoint(expiry(CERTIFICATE_WARNING_DAYS + 1)))).toBeUndefined();
    expect(health.writes).toEqual([]);

    const expiresAt = expiry(10);
    await announceCertificate(deps, endpoint(expiresAt));
    expect(notices.notices).toEqual([
      expect.objectContaining({
        kind: 'client_certificate_expiring',
        endpointId: 'ep_00000000000c',
        account: IBAN,
        expiresAt,
        epoch: new Date(Date.parse(expiresAt) - CERTIFICATE_WARNING_DAYS * DAY).toISOString(),
      }),
    ]);
    expectNoticesInCatalog(notices.notices);
    const writes = health.writes.length;
    for (let i = 0; i < 5; i++) await announceCertificate(deps, endpoint(expiresAt));
    expect(notices.attempts).toHaveLength(1);
    expect(health.writes).toHaveLength(writes);

    // A new certificate, near its own expiry in turn: its own notice.
    await announceCertificate(deps, endpoint(expiry(3)));
    expect(notices.notices.map((n) => n.expiresAt)).toEqual([expiresAt, expiry(3)]);
  });

  it('is stored once when consumers see it at once, before any mark', async () => {
    const { notices, deps, endpoint } = setup();
    const seen = endpoint(expiry(5));
    await Promise.all(Array.from({ length: 6 }, () => announceCertificate(deps, seen)));
    expect(notices.notices).toHaveLength(1);
  });

  it('is announced by the consumer’s delivery to an endpoint presenting such a certificate, once', async () => {
    const w = deliveryWorld();
    const expiresAt = new Date(w.clock.now() + 5 * DAY).toISOString();
    w.directory.addAccount({
      iban: w.iban,
      webhookUrl: 'https://hooks.example.com/herald',
      security: { tlsClient: { subject: 'CN=herald', issuer: 'CN=bank CA', expiresAt } },
    });
    for (const id of ['e1', 'e2', 'e3']) {
      w.events.seed({ id });
      await deliverEvent(w.deps, { id });
    }
    expect(w.notices.notices.map((n) => [n.kind, n.expiresAt])).toEqual([
      ['client_certificate_expiring', expiresAt],
    ]);
    expect(w.notices.attempts).toHaveLength(1);
    expect(w.health.get(w.iban).certificateNoticed).toBe(expiresAt);
  });
});
