/**
 * In-memory {@link EndpointHealthStore} with the DynamoDB adapter's rules (atomic failure count, disabled
 * stays disabled, slots free themselves when their lease runs out, nothing is written unless the endpoint
 * is the organization's live one: `owners`, which the in-memory directory and endpoint store keep), for
 * use-case tests and the simulation. Endpoints are keyed by `addressKey`: the IBAN for an account's
 * default endpoint, `<IBAN>#<id>` for an extra one, `OPS#<orgId>` for an organization's operational webhook.
 */

import {
  type CircuitOpening,
  type Disabling,
  type Enabling,
  type EndpointHealth,
  type EndpointHealthStore,
  HEALTHY,
  type HealthWrite,
  type SlotLease,
} from '#delivery/endpoint-health-port';
import { addressKey, type EndpointAddress } from '#domain/endpoints/address';
import { newEndpointId } from '#domain/ids';

/** The store; `health` and `slots` are open for arrangements and assertions. */
export class InMemoryEndpointHealthStore implements EndpointHealthStore {
  readonly health = new Map<string, EndpointHealth>();
  readonly slots = new Map<string, Map<number, number>>();
  readonly owners = new Map<string, string>();
  /** Endpoint ids given by {@link endpointId} (accounts from before ids). */
  readonly endpointIds = new Map<string, string>();
  /** Write operations made, in order. */
  readonly writes: string[] = [];

  /** The health of the endpoint with this key (`addressKey`: the IBAN for a default endpoint). */
  get(key: string): EndpointHealth {
    return this.health.get(key) ?? HEALTHY;
  }

  async recordAttempt(
    endpoint: EndpointAddress,
    update: HealthWrite,
    lease?: SlotLease,
  ): Promise<EndpointHealth | undefined> {
    if (update.kind === 'disable') return this.disable(endpoint, update, lease);
    this.writes.push(`record-${update.kind}`);
    const iban = addressKey(endpoint);
    if (!this.owns(iban, endpoint.orgId)) return undefined;
    if (lease) this.slotsOf(iban).delete(lease.slot);
    const h = this.get(iban);
    if (update.kind === 'failure') {
      return this.set(iban, {
        ...h,
        state: h.state === 'healthy' ? 'degraded' : h.state,
        since: h.since ?? update.at,
        reason: h.reason ?? update.reason,
        failingSince: h.failingSince ?? update.at,
        consecutiveFailures: h.consecutiveFailures + 1,
        lastFailureAt: update.at,
        recentLatencyMs: update.latencyMs,
      });
    }
    if (h.state === 'disabled') return h;
    const base = { recentLatencyMs: update.latencyMs, consecutiveFailures: 0 };
    return this.set(
      iban,
      update.state === 'degraded'
        ? {
            ...h,
            ...base,
            state: 'degraded',
            since: h.since ?? update.at,
            reason: update.reason,
            failingSince: undefined,
            circuitOpenUntil: undefined,
            circuitOpenSeconds: undefined,
          }
        : {
            ...base,
            state: 'healthy',
            recoveredAt: update.at,
            lastFailureAt: h.lastFailureAt,
            noticed: h.noticed,
          },
    );
  }

  async openCircuit(
    endpoint: EndpointAddress,
    { until, seconds, reason }: CircuitOpening,
  ): Promise<EndpointHealth | undefined> {
    this.writes.push('open');
    const iban = addressKey(endpoint);
    if (!this.owns(iban, endpoint.orgId)) return undefined;
    const h = this.get(iban);
    if (h.state === 'disabled' || (h.circuitOpenUntil ?? 0) >= until) return h;
    return this.set(iban, {
      ...h,
      state: 'degraded',
      circuitOpenUntil: until,
      circuitOpenSeconds: seconds,
      reason,
    });
  }

  async disable(
    endpoint: EndpointAddress,
    { at, reason, noticed }: Disabling,
    lease?: SlotLease,
  ): Promise<EndpointHealth | undefined> {
    this.writes.push('disable');
    const iban = addressKey(endpoint);
    if (!this.owns(iban, endpoint.orgId)) return undefined;
    if (lease) this.slotsOf(iban).delete(lease.slot);
    // As the adapter: disabled once, the first disabling's time and reason kept.
    if (this.get(iban).state === 'disabled') return this.get(iban);
    return this.set(iban, {
      ...this.get(iban),
      state: 'disabled',
      since: at,
      reason,
      ...(noticed === undefined ? {} : { noticed }),
      circuitOpenUntil: undefined,
      circuitOpenSeconds: undefined,
    });
  }

  async takeSlot(endpoint: EndpointAddress, slot: number, until: number, now: number) {
    this.writes.push('take-slot');
    const iban = addressKey(endpoint);
    if (!this.owns(iban, endpoint.orgId)) return { taken: false, health: undefined };
    const slots = this.slotsOf(iban);
    const held = slots.get(slot);
    const taken = this.get(iban).state !== 'disabled' && (held === undefined || held < now);
    if (taken) slots.set(slot, until);
    return { taken, health: this.get(iban) };
  }

  async releaseSlot(endpoint: EndpointAddress, lease: SlotLease): Promise<void> {
    this.writes.push('release-slot');
    const iban = addressKey(endpoint);
    const slots = this.slotsOf(iban);
    if (this.owns(iban, endpoint.orgId) && slots.get(lease.slot) === lease.until) slots.delete(lease.slot);
  }

  async markNoticed(
    endpoint: EndpointAddress,
    from: string | undefined,
    to: string | undefined,
  ): Promise<void> {
    this.writes.push('mark-noticed');
    const key = addressKey(endpoint);
    const h = this.get(key);
    if (!this.owns(key, endpoint.orgId) || h.noticed !== from) return;
    this.set(key, { ...h, noticed: to });
  }

  async markCertificateNoticed(endpoint: EndpointAddress, expiresAt: string): Promise<void> {
    this.writes.push('certificate-noticed');
    const key = addressKey(endpoint);
    if (this.owns(key, endpoint.orgId)) this.set(key, { ...this.get(key), certificateNoticed: expiresAt });
  }

  async enable(endpoint: EndpointAddress, at: string): Promise<Enabling | undefined> {
    this.writes.push('enable');
    const iban = addressKey(endpoint);
    if (!this.owns(iban, endpoint.orgId)) return undefined;
    // As the adapter: the state, failures and circuit go; the history (recovery, last failure, latency) and
    // the certificate's mark stay.
    const previous = this.get(iban);
    const { recoveredAt, lastFailureAt, recentLatencyMs, certificateNoticed } = previous;
    this.set(iban, {
      ...HEALTHY,
      since: at,
      reason: 'enabled by an operator',
      ...(recoveredAt === undefined ? {} : { recoveredAt }),
      ...(lastFailureAt === undefined ? {} : { lastFailureAt }),
      ...(recentLatencyMs === undefined ? {} : { recentLatencyMs }),
      // The certificate announced stays so: the adapter's enable keeps `wh_cert_noticed`.
      ...(certificateNoticed === undefined ? {} : { certificateNoticed }),
    });
    // In the same write, as the adapter: an account from before endpoint ids gets one.
    const endpointId = endpoint.extra ?? this.endpointIds.get(endpoint.iban) ?? newEndpointId();
    if (endpoint.extra === undefined) this.endpointIds.set(endpoint.iban, endpointId);
    return { previous, endpointId };
  }

  async endpointId(iban: string, orgId: string): Promise<string | undefined> {
    this.writes.push('endpoint-id');
    if (!this.owns(iban, orgId)) return undefined;
    const id = this.endpointIds.get(iban) ?? newEndpointId();
    this.endpointIds.set(iban, id);
    return id;
  }

  /**
   * The adapter's `org_id = :org AND attribute_not_exists(deleted_at)` (an endpoint's `addressKey`); the
   * organization's operational webhook's item is created by its first write, and is always its own.
   */
  private owns(key: string, orgId: string): boolean {
    return this.owners.get(key) === orgId || key === addressKey({ iban: '', orgId, operational: true });
  }

  /** The health of the organization's operational webhook; undefined when nothing was written about it. */
  async operationalHealth(orgId: string): Promise<EndpointHealth | undefined> {
    return this.health.get(addressKey({ iban: '', orgId, operational: true }));
  }

  private slotsOf(iban: string): Map<number, number> {
    let slots = this.slots.get(iban);
    if (!slots) {
      slots = new Map();
      this.slots.set(iban, slots);
    }
    return slots;
  }

  private set(iban: string, health: EndpointHealth): EndpointHealth {
    this.health.set(iban, health);
    return health;
  }
}
