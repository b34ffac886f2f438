/**
 * The store of an account's extra endpoints (its default endpoint is the account item, written by the
 * directory's `putAccount`). Every write names the organization, and is refused for another
 * organization's account: an IBAN's endpoints stay with its organization like the account does.
 */
import type { ReadOptions } from '#domain/directory-port';
import type { EndpointSecrets, EndpointSecuritySummary } from '#domain/endpoint-security/endpoint-security';
import type { DeliveryOrder } from '#domain/model';
import type { Filter } from '#domain/subscriptions/filter-model';
import type { Endpoint } from './endpoint';

/** A new extra endpoint of an account, with its material (stored in the same step as the endpoint). */
export interface NewEndpoint {
  /** Normalised IBAN. */
  readonly iban: string;
  readonly orgId: string;
  /** Its new `ep_…` id. */
  readonly id: string;
  readonly url: string;
  readonly eventTypes?: readonly string[] | undefined;
  readonly filter?: Filter | undefined;
  readonly description?: string | undefined;
  readonly deliveryOrder?: DeliveryOrder | undefined;
  /**
   * An `ordered` endpoint's watermark (`settled_through`): the log's latest sequence, read before the
   * addition. Stored with the endpoint in the same step, so its order never starts from the log's
   * beginning; the events up to it were stored before the endpoint, which they are not routed to.
   */
  readonly settledThrough?: number | undefined;
  /** The summary of its material, and the material itself (a sealed client key, never in the clear). */
  readonly security?:
    | { readonly summary: EndpointSecuritySummary; readonly material: EndpointSecrets }
    | undefined;
  /** Created disabled (by its organization): nothing is sent to it until it is enabled. */
  readonly disabled?: { readonly at: string; readonly reason: string } | undefined;
  /** ISO 8601 UTC. */
  readonly createdAt: string;
}

/** A change of an extra endpoint's settings: each field undefined keeps what is stored, null removes it. */
export interface EndpointWrite {
  readonly iban: string;
  readonly orgId: string;
  /** The extra endpoint's id. */
  readonly id: string;
  readonly url?: string | undefined;
  readonly eventTypes?: readonly string[] | null | undefined;
  readonly filter?: Filter | null | undefined;
  readonly description?: string | null | undefined;
  /** `ordered` starts a new order epoch; `concurrent` sets it back. */
  readonly deliveryOrder?: DeliveryOrder | undefined;
  /**
   * With `ordered` on an endpoint that was `concurrent`: its watermark from now on (the log's latest
   * sequence, read before the write), set in the same write, so the order starts after the events it
   * received concurrently rather than at the log's beginning.
   */
  readonly settledThrough?: number | undefined;
  /** ISO 8601 UTC. */
  readonly updatedAt: string;
}

/** The account's extra endpoints. */
export interface EndpointStore {
  /**
   * The organization's account's extra endpoints (not its default one), oldest first; none when the
   * account has none, is another organization's, or is gone.
   */
  listEndpoints(iban: string, orgId: string, options?: ReadOptions): Promise<Endpoint[]>;
  /**
   * Adds an extra endpoint with its material, and counts it on the account, in one atomic step: exact
   * under concurrent additions.
   *
   * @throws NotFoundError when the account is not the organization's live account
   * @throws ConflictError when the account has `MAX_ENDPOINTS_PER_ACCOUNT` endpoints already
   */
  addEndpoint(endpoint: NewEndpoint): Promise<Endpoint>;
  /** Changes what the write names; undefined when the organization's account has no such endpoint. */
  updateEndpoint(write: EndpointWrite): Promise<Endpoint | undefined>;
  /**
   * Removes the extra endpoint and its material, and uncounts it, in one atomic step; false when the
   * organization's account has no such endpoint.
   */
  removeEndpoint(iban: string, orgId: string, id: string): Promise<boolean>;
  /** Removes every extra endpoint of the IBAN that is the organization's, with its material. */
  removeEndpoints(iban: string, orgId: string): Promise<void>;
}
