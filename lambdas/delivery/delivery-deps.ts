/**
 * What delivering an event needs, whatever endpoint a message is for, and the event a message names.
 */
import type { DeliveryTarget } from '#domain/delivery-message';
import type { EndpointSecretStore, PayloadEncrypter } from '#domain/endpoint-security/ports';
import type { EndpointDeliveries } from '#domain/endpoints/deliveries-port';
import type { EventRecord } from '#domain/model';
import type { NoticeDeliveries } from '#domain/notices/ports';
import type { DeliveryLedger, EndpointStore, EventReads } from '#domain/ports';
import type { SecretSealer } from '#domain/signing/secret-sealer';
import type { DeliveryDirectory } from './delivery-context';
import type { EndpointDeps } from './endpoint-health';
import type { EndpointHealth } from './endpoint-health-port';
import type { OrderDeps } from './order';
import type { SendDeps } from './webhook-request';

/** What delivering one event needs. */
export interface DeliveryDeps extends EndpointDeps, SendDeps, OrderDeps {
  readonly events: DeliveryLedger;
  /** The deliveries of fanned-out events, one per routed endpoint (see `routing.ts`). */
  readonly deliveries: EndpointDeliveries;
  /** Read through each batch's {@link DeliveryContext}, never cached across batches. */
  readonly directory: DeliveryDirectory;
  /**
   * Opens the organizations' Ed25519 keys (`v1a`; without a sealer, webhooks carry the HMAC signatures
   * only) and the endpoints' TLS client keys.
   */
  readonly sealer?: SecretSealer | undefined;
  /** The endpoints' material (payload key, TLS client certificate and key, CA), read per batch when named. */
  readonly endpointSecrets?: Pick<EndpointSecretStore, 'getSecrets'>;
  /** Encrypts bodies for endpoints with a payload key. */
  readonly encrypter?: PayloadEncrypter;
  /** The accounts' extra endpoints, read per batch for an account that counts some (its routing). */
  readonly endpointStore?: Pick<EndpointStore, 'listEndpoints'>;
  readonly schedule: readonly number[];
  readonly maxAttempts: number;
  /** Sending notices to the organizations' operational webhooks (`deliver-notice.ts`); absent: dropped. */
  readonly operational?: OperationalSending | undefined;
}

/** What sending notices needs beyond an event's delivery. */
export interface OperationalSending {
  /** The notices and their deliveries' state. */
  readonly deliveries: NoticeDeliveries;
  /** The API's base URL, for the `_links` of a notice's body. */
  readonly baseUrl: string;
  /** Reads an organization's operational webhook's health (undefined: nothing written about it). */
  readonly health: { operationalHealth(orgId: string): Promise<EndpointHealth | undefined> };
}

/**
 * The event a message names, read consistently: where the message says it is (no claim read), or, for
 * an `{"id"}` message, through its id. Undefined when it is gone, including when another event holds the
 * message's place.
 */
export async function readTarget(
  events: EventReads,
  target: DeliveryTarget,
): Promise<EventRecord | undefined> {
  if (target.at === undefined) return events.getEvent(target.id, { consistent: true });
  const event = await events.readEvent(target.at, { consistent: true });
  // An event never moves within or between logs, so another id at (log, seq) means the message outlived
  // its event (the account was erased and re-created, its log starting again at 1). The message is stale:
  // treated as gone (the consumer drops it, the reconciler counts it settled), never as the other event,
  // whose own message delivers it.
  return event?.id === target.id ? event : undefined;
}
