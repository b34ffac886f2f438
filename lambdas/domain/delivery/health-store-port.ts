/**
 * The port of endpoint health (see `circuit-breaker.ts`): stored on the account items, read with the
 * account, written only when an attempt changes something. Re-exported by `domain/ports.ts` with the
 * other ports.
 */
import type { HealthUpdate } from './circuit-breaker';
import type { EndpointHealth } from './endpoint-health';

/** A held concurrency slot of a degraded endpoint: released by the write that follows the attempt. */
export interface SlotLease {
  readonly slot: number;
  /** Epoch ms when the slot frees itself if its holder crashed. */
  readonly until: number;
}

/** A health update that writes something. */
export type HealthWrite = Exclude<HealthUpdate, { kind: 'none' }>;

/**
 * Health of webhook endpoints, stored on their account items and read with the account (no extra read).
 * Every write names the organization the caller read the account as, and happens only while the IBAN is
 * still that organization's live account: an attempt still under way when its account was deleted, or
 * erased and its IBAN given to another organization, writes nothing (answered `undefined`, not an error).
 * Every method returns the stored health after its write, so a consumer's cached view catches up.
 */
export interface EndpointHealthStore {
  /** Applies what an attempt showed, releasing `lease` in the same write. */
  recordAttempt(
    iban: string,
    orgId: string,
    update: HealthWrite,
    lease?: SlotLease,
  ): Promise<EndpointHealth | undefined>;
  /**
   * Opens the circuit until `until` (epoch ms), a period of `seconds`, unless the endpoint is disabled or
   * open longer already.
   */
  openCircuit(
    iban: string,
    orgId: string,
    until: number,
    seconds: number,
    reason: string,
  ): Promise<EndpointHealth | undefined>;
  /** Disables the endpoint. */
  disable(iban: string, orgId: string, at: string, reason: string): Promise<EndpointHealth | undefined>;
  /**
   * Takes concurrency slot `slot` until `until` unless someone holds it at `now`; `health` undefined when
   * the account is not the organization's any more.
   */
  takeSlot(
    iban: string,
    orgId: string,
    slot: number,
    until: number,
    now: number,
  ): Promise<{ readonly taken: boolean; readonly health: EndpointHealth | undefined }>;
  /** Frees a slot this consumer holds (when the attempt did not happen). */
  releaseSlot(iban: string, orgId: string, lease: SlotLease): Promise<void>;
  /** Makes the organization's endpoint healthy again; false when the account is not the organization's. */
  enable(iban: string, orgId: string, at: string): Promise<boolean>;
  /**
   * The account's endpoint id, given to it now if it has none (an account from before endpoint ids);
   * undefined when the account is not the organization's any more.
   */
  endpointId(iban: string, orgId: string): Promise<string | undefined>;
}
