/**
 * Herald's records as the domain sees them. Storage layouts live in the DynamoDB adapter; these types
 * carry no key attributes and no AWS types.
 */

import type { KeyScope } from '#config/routes';
import type { EndpointHealth } from '#delivery/endpoint-health-port';
import type { EndpointSecuritySummary } from '#domain/endpoint-security/endpoint-security';
import type { PreviousSigningKey, SigningKey } from '#domain/signing/signing-keys';
import type { Subscription } from '#domain/subscriptions/subscription';

/**
 * A scheme of the `webhook-signature` header: `v1` (HMAC-SHA256 with the webhook token; also
 * `X-Signature`) or `v1a` (Ed25519 with the organization's signing key).
 */
export type SignatureScheme = 'v1' | 'v1a';

/** Every {@link SignatureScheme}; an organization signs with all of them unless its setting says less. */
export const SIGNATURE_SCHEMES: readonly SignatureScheme[] = ['v1', 'v1a'];

/** Delivery state of an event's webhook. */
export type WebhookStatus = 'pending' | 'success' | 'failed' | 'skipped';

/** Every value of {@link WebhookStatus}, in documentation order. */
export const WEBHOOK_STATUSES: readonly WebhookStatus[] = ['pending', 'success', 'failed', 'skipped'];

/** How an account's events are delivered: `ordered` ones wait for every earlier one to settle. */
export type DeliveryOrder = 'concurrent' | 'ordered';

/** Every value of {@link DeliveryOrder}; the first is the default. */
export const DELIVERY_ORDERS: readonly DeliveryOrder[] = ['concurrent', 'ordered'];

/**
 * An endpoint's delivery order and where its order gate stands: the same fields on an account (for its
 * default endpoint) and on an extra endpoint.
 */
export interface EndpointOrder {
  /** `ordered`: each event waits until every earlier one is settled. Absent: `concurrent`. */
  readonly deliveryOrder?: DeliveryOrder | undefined;
  /**
   * An ordered endpoint's watermark: every event up to this sequence is settled for it (`success`,
   * `failed`, `skipped`). Absent: 0. Only ever a lower bound of the truth, which is the log.
   */
  readonly settledThrough?: number | undefined;
  /**
   * The endpoint's order generation (`order_epoch`), absent: 0. A replay or redelivery (whatever the
   * order) and a put that makes it ordered increment it; the watermark only moves within one epoch, so a
   * gate that read the log before a cycle restarted cannot move it past the restarted event.
   */
  readonly orderEpoch?: number | undefined;
  /**
   * The highest sequence the account's log ever held when retention may have emptied it (the account's
   * `seq_floor`, see docs/design.md): new events continue after it, so a sequence is never reused, and an
   * ordered endpoint's gate starts above it. Absent: 0.
   */
  readonly sequenceFloor?: number | undefined;
}

/** An organization: the tenant that owns accounts, events and API keys. */
export interface Organization {
  readonly id: string;
  readonly name: string;
  /** `whsec_` + base64 of 32 random bytes; the signing key of every webhook. */
  readonly webhookToken: string;
  /** The token before the last rotation, which also signs webhooks until it expires. */
  readonly previousWebhookToken?: PreviousToken | undefined;
  /** The Ed25519 key that makes the `v1a` signatures; absent until the organization's first key. */
  readonly signingKey?: SigningKey | undefined;
  /** The signing key before the last rotation, which also signs until it expires. */
  readonly previousSigningKey?: PreviousSigningKey | undefined;
  /** The schemes its webhooks carry; absent: every scheme it has a key for. */
  readonly signatureSchemes?: readonly SignatureScheme[] | undefined;
  /**
   * Where its operational notices go (its operational webhook): checked as webhook URLs are; absent:
   * nowhere (they stay readable through `GET /operational-events`).
   */
  readonly opsWebhookUrl?: string | undefined;
  /** ISO 8601 UTC. */
  readonly createdAt: string;
}

/** A replaced webhook token during its overlap with the new one. */
export interface PreviousToken {
  readonly token: string;
  /** ISO 8601 UTC; webhooks sent from then on carry only the current token's signature. */
  readonly expiresAt: string;
}

/** An organization API key; the secret itself is never stored, only its SHA-256 hash. */
export interface ApiKey {
  /** Listed and revoked by this id; absent on keys issued before keys had ids. */
  readonly id: string;
  readonly orgId: string;
  readonly name: string;
  readonly scope: KeyScope;
  /** ISO 8601 UTC. */
  readonly createdAt: string;
  /** Epoch seconds after which the key is refused (short-lived keys); absent: no expiry. */
  readonly expiresAt?: number | undefined;
}

/** A one-time portal sign-in link, stored only by the SHA-256 hash of its token. */
export interface PortalLink {
  readonly tokenHash: string;
  readonly orgId: string;
  readonly scope: KeyScope;
  /** Epoch seconds after which the link no longer signs anyone in. */
  readonly expiresAt: number;
}

/**
 * What every webhook endpoint of an account has: its subscription, order, description, health and
 * security, and when it was made and last written. The default endpoint's are its account's own fields;
 * an extra endpoint's are on its own item (`domain/endpoints/endpoint.ts`).
 */
export interface EndpointFields extends Subscription, EndpointOrder {
  readonly description?: string | undefined;
  /** Absent: nothing was ever written about it (healthy). */
  readonly health?: EndpointHealth | undefined;
  /**
   * What it demands beyond HTTPS (encrypted payloads, a client certificate, a private CA); absent:
   * nothing.
   */
  readonly security?: EndpointSecuritySummary | undefined;
  /** ISO 8601 UTC. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * A tracked bank account. Its default endpoint's fields are the account's own ({@link EndpointFields});
 * its URL and id keep the names the API and the stored item give them (`webhook_url`, `endpoint_id`).
 */
export interface Account extends EndpointFields {
  /** Normalised IBAN (upper case, no spaces). */
  readonly iban: string;
  readonly orgId: string;
  /** Absent: events of the account are recorded but not delivered (`skipped`). */
  readonly webhookUrl?: string | undefined;
  /**
   * The webhook endpoint's non-personal id (`ep_…`), which metrics carry instead of the IBAN. Given when
   * the account is created; absent only on an account created before ids and not written since.
   */
  readonly endpointId?: string | undefined;
  /** How many extra endpoints the account has beside its default one (absent: none). */
  readonly endpointCount?: number | undefined;
}

/**
 * What stays of an account deleted without erasing its events: its IBAN keeps its organization, so no
 * other organization can take the IBAN over while the first one's events (and their retries) remain.
 * Erasing the events removes it. Invisible to every read of accounts.
 */
export interface AccountTombstone {
  /** Normalised IBAN. */
  readonly iban: string;
  readonly orgId: string;
  /** ISO 8601 UTC. */
  readonly deletedAt: string;
  /**
   * The sequence the log continues above when the account is created again (`seq_floor`): the deleted
   * account's floor or its log's latest sequence, whichever was higher, raised by retention's deletions
   * after it, so a log that retention empties meanwhile never starts again at 1. Absent: 0.
   */
  readonly sequenceFloor?: number | undefined;
}

/** One recorded delivery attempt. */
export interface DeliveryAttempt {
  /** ISO 8601 UTC, millisecond precision. */
  readonly deliveredAt: string;
  /** HTTP status of the receiver's answer; 0 when there was no HTTP response. */
  readonly responseStatus: number;
  /** Receiver's body cut to 4 KiB at a UTF-8 boundary, or the network error when there was no response. */
  readonly responseBody: string;
  /** Milliseconds from sending the request to the end of reading the (cut) response. */
  readonly responseTimeMs: number;
  /** The URL the attempt was sent to (or refused); absent on attempts recorded before it was kept. */
  readonly url?: string | undefined;
  /**
   * Ids of what signed the attempt, in the order of `webhook-signature`: the tokens (`whk_…`), then the
   * Ed25519 keys (`whak_…`), each new first; empty when nothing was sent, absent on attempts recorded
   * before they were kept.
   */
  readonly signingKeys?: readonly string[] | undefined;
  /**
   * The `X-Signature` the attempt carried. Stored only as the event's {@link EventRecord.signature} (the
   * latest attempt's), not with every attempt: item size is billed on every write.
   */
  readonly signature?: string | undefined;
}

/**
 * Where a stored event is: its id, and the account log it lives in at its sequence. Everything the
 * writes of its delivery need, so the consumer reaches the event without reading its id's claim.
 */
export interface EventRef {
  readonly id: string;
  readonly orgId: string;
  /** IBAN of the account. */
  readonly account: string;
  /**
   * The event's place in its account's log: 1, 2, 3, … per (organization, account), gap-free and never
   * reused. Absent only on an event stored before sequences (the old layout, until it is migrated).
   */
  readonly sequence?: number | undefined;
}

/**
 * Where one delivery stands in its attempts: the same fields on an event (its own delivery) and on its
 * delivery to an extra endpoint (`EndpointDelivery`).
 */
export interface DeliveryProgress {
  /** Attempts recorded before the current cycle started (a redelivery starts a new cycle of 20). */
  readonly cycleBase: number;
  /** Oldest first. */
  readonly deliveries: readonly DeliveryAttempt[];
  /** Epoch ms until which a consumer holds the right to make the next attempt. */
  readonly leaseUntil?: number | undefined;
  /** Epoch ms before which the next attempt of a pending delivery is not due (set after a failure). */
  readonly nextAttemptAt?: number | undefined;
}

/** A stored event with its delivery state and attempts. */
export interface EventRecord extends EventRef, DeliveryProgress {
  readonly type: string;
  /**
   * The version of its type's payload schema the payload passed at publish; absent on events stored before
   * the catalog, and on those of a type outside it that a deployment accepted during a transition.
   */
  readonly typeVersion?: number | undefined;
  /** ISO 8601 UTC, millisecond precision. */
  readonly triggeredAt: string;
  /** The exact webhook body, fixed at publish time so every attempt sends identical bytes. */
  readonly body: string;
  /**
   * The `X-Signature` header of the event's most recent attempt that sent a request
   * (`t=<timestamp>,sha256=<hex>…`); undefined before the first. Signatures are made per attempt.
   */
  readonly signature?: string | undefined;
  readonly webhookStatus: WebhookStatus;
  /** Number of recorded attempts over all cycles; always equals `deliveries.length`. */
  readonly webhookRetries: number;
  /**
   * Delivery cycles counted, the current one (the first, from publish, at first) included: 1 to
   * `MAX_CYCLES`. A new cycle after one that made an attempt counts, however few attempts it made, and is
   * refused at the cap; one after a cycle that sent nothing (a skipped event) takes its place uncounted.
   */
  readonly cycles: number;
  /**
   * Epoch ms of the ticket that numbered the event (its account's log was hot, see
   * `use-cases/events/sequencing.ts`); absent for an event stored at the log's next sequence without
   * one. Readers of the log judge a missing sequence below it by this time (`domain/log-holes.ts`).
   */
  readonly ticketedAt?: number | undefined;
  /**
   * The ids of the endpoints the event was routed to (its account's default one first), decided once,
   * when a consumer first handled it for an account whose events need a routing decision (see
   * `needsRouting`), and never changed after: retries, redeliveries and later changes of the endpoints or
   * their subscriptions go by it. Absent: not routed (an account with one endpoint subscribed to every
   * event, whose events all go to it).
   */
  readonly routes?: readonly string[] | undefined;
  /**
   * A fanned-out event's delivery cycles started after its first (each new cycle of the event counts
   * one): a routed endpoint's delivery in an earlier one starts the event's current cycle when its
   * message comes (see `EndpointDeliveries.startCycle`). Absent: 0.
   */
  readonly routeCycle?: number | undefined;
  /**
   * Epoch seconds after which the table may delete the event (its retention); absent: kept. Its
   * deliveries at routed endpoints carry the same, so none outlives it.
   */
  readonly expiresAt?: number | undefined;
}
