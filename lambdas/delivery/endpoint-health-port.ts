/**
 * What is stored about a webhook endpoint (its state, failures and latency, on the endpoint's item) and
 * the port that reads and writes it. Written only when something changes: never on a healthy
 * endpoint's successful delivery. The circuit breaker (`endpoint-health-rule.ts`) decides what to write;
 * `endpoint-health.ts` writes it.
 */
import type { EndpointAddress } from '#domain/endpoints/address';

/** `healthy`: deliveries go out freely; `degraded`: failing or slow, bounded; `disabled`: none go out. */
export type EndpointState = 'healthy' | 'degraded' | 'disabled';

/** Every {@link EndpointState}, in documentation order. */
export const ENDPOINT_STATES: readonly EndpointState[] = ['healthy', 'degraded', 'disabled'];

/**
 * What Herald knows about an endpoint. It is written only when something changes (a failure, a slow
 * answer, a recovery, a state change), never on a healthy endpoint's successful delivery.
 */
export interface EndpointHealth {
  readonly state: EndpointState;
  /** ISO: when the endpoint entered its current state (absent for an endpoint that never failed). */
  readonly since?: string | undefined;
  /** Why it is in this state. */
  readonly reason?: string | undefined;
  /** Failed attempts since the last success. */
  readonly consecutiveFailures: number;
  /** ISO: the first failure of the current run of failures. */
  readonly failingSince?: string | undefined;
  /**
   * ISO: when the endpoint last became healthy again, the success that ended a run of failures or slow
   * answers; absent while it never had to. Written only at that change of state: a healthy endpoint's
   * successes write nothing, so this is not the time of its latest delivery.
   */
  readonly recoveredAt?: string | undefined;
  /** ISO: the last failed attempt. */
  readonly lastFailureAt?: string | undefined;
  /** Duration of the last attempt that was written, in milliseconds. */
  readonly recentLatencyMs?: number | undefined;
  /** Epoch ms until which the circuit is open: no attempt goes out before, then one probe at a time. */
  readonly circuitOpenUntil?: number | undefined;
  /** Length of the current open period in seconds; a failed probe doubles it. */
  readonly circuitOpenSeconds?: number | undefined;
  /**
   * The last operational notice announced about it (`<level>@<epoch>`, see `operational-notice-rule.ts`);
   * absent when none is outstanding.
   */
  readonly noticed?: string | undefined;
  /**
   * The expiry (ISO) of the client certificate whose `client_certificate_expiring` was stored: read with
   * the endpoint, so a delivery with that certificate writes nothing more about it.
   */
  readonly certificateNoticed?: string | undefined;
}

/** An endpoint nothing has been written about. */
export const HEALTHY: EndpointHealth = { state: 'healthy', consecutiveFailures: 0 };

/** What to write about the endpoint after an attempt. */
export type HealthUpdate =
  /** Nothing: a healthy endpoint answered quickly. */
  | { readonly kind: 'none' }
  /** 2xx: the failure count resets; `degraded` stays only for a slow answer. */
  | {
      readonly kind: 'success';
      readonly at: string;
      readonly latencyMs: number;
      readonly state: 'healthy' | 'degraded';
      readonly reason?: string;
    }
  /** Any other answer: one more consecutive failure. */
  | { readonly kind: 'failure'; readonly at: string; readonly latencyMs: number; readonly reason: string }
  /** `410 Gone`: the receiver says the endpoint is gone for good. */
  | ({ readonly kind: 'disable' } & Omit<Disabling, 'noticed'>);

/** A disabling: when and why, and the notice mark its write leaves. */
export interface Disabling {
  /** ISO. */
  readonly at: string;
  readonly reason: string;
  /**
   * The notice mark written by the same write, for a disabling its own path announces (a person's), so
   * the consumer does not announce it again; absent for the consumer's own disabling.
   */
  readonly noticed?: string | undefined;
}

/** What an enabling found: the endpoint's health just before it, and the endpoint's id (`ep_…`). */
export interface Enabling {
  readonly previous: EndpointHealth;
  readonly endpointId: string;
}

/** A held concurrency slot of a degraded endpoint: released by the write that follows the attempt. */
export interface SlotLease {
  readonly slot: number;
  /** Epoch ms when the slot frees itself if its holder crashed. */
  readonly until: number;
}

/** A health update that writes something. */
export type HealthWrite = Exclude<HealthUpdate, { kind: 'none' }>;

/** An open circuit: no attempt goes out before `until`, then one probe at a time. */
export interface CircuitOpening {
  /** Epoch ms. */
  readonly until: number;
  /** The open period's length; a failed probe doubles it. */
  readonly seconds: number;
  /** Why it opened, shown as the endpoint's reason. */
  readonly reason: string;
}

/**
 * Health of webhook endpoints, stored on their items (the account item for an account's default
 * endpoint, an extra endpoint's own item) and read with them (no extra read). Every write names the
 * organization the caller read the endpoint as, and happens only while the endpoint is still that
 * organization's (its account live, an extra endpoint not removed): an attempt still under way when its
 * account was deleted, or erased and its IBAN given to another organization, writes nothing (answered
 * `undefined`, not an error). Every method returns the stored health after its write, so a consumer's
 * cached view catches up.
 */
export interface EndpointHealthStore {
  /** Applies what an attempt showed, releasing `lease` in the same write. */
  recordAttempt(
    endpoint: EndpointAddress,
    update: HealthWrite,
    lease?: SlotLease,
  ): Promise<EndpointHealth | undefined>;
  /** Opens the circuit as `opening` says, unless the endpoint is disabled or open longer already. */
  openCircuit(endpoint: EndpointAddress, opening: CircuitOpening): Promise<EndpointHealth | undefined>;
  /**
   * Disables the endpoint as `disabling` says, unless it is disabled already (the first disabling's time
   * and reason stay), releasing `lease` in the same write.
   */
  disable(
    endpoint: EndpointAddress,
    disabling: Disabling,
    lease?: SlotLease,
  ): Promise<EndpointHealth | undefined>;
  /**
   * Takes concurrency slot `slot` until `until` unless someone holds it at `now`; `health` undefined when
   * the endpoint is not the organization's any more.
   */
  takeSlot(
    endpoint: EndpointAddress,
    slot: number,
    until: number,
    now: number,
  ): Promise<{ readonly taken: boolean; readonly health: EndpointHealth | undefined }>;
  /** Frees a slot this consumer holds (when the attempt did not happen). */
  releaseSlot(endpoint: EndpointAddress, lease: SlotLease): Promise<void>;
  /**
   * Moves the endpoint's notice mark from `from` (absent: none) to `to` (undefined: removed); nothing
   * when the mark is not `from` any more (another consumer moved it) or the endpoint is not the
   * organization's.
   */
  markNoticed(endpoint: EndpointAddress, from: string | undefined, to: string | undefined): Promise<void>;
  /** Marks the certificate expiring at `expiresAt` announced; nothing when the endpoint is not the organization's. */
  markCertificateNoticed(endpoint: EndpointAddress, expiresAt: string): Promise<void>;
  /**
   * Makes the organization's endpoint healthy again, its notice mark removed (an enabling is announced by
   * its own path, not as a recovery): its health before this write, from the write itself (so of two
   * enablings at once only one finds it disabled), and its id (given to an account from before endpoint
   * ids now); undefined when it is not the organization's.
   */
  enable(endpoint: EndpointAddress, at: string): Promise<Enabling | undefined>;
  /**
   * The account's endpoint id, given to it now if it has none (an account from before endpoint ids);
   * undefined when the account is not the organization's any more.
   */
  endpointId(iban: string, orgId: string): Promise<string | undefined>;
}
