/**
 * The keys of every item kind of the events table (see docs/design.md), and the organization and account
 * items as records; the event items' layout is in `events/event-items.ts`.
 */
import { EVENT_INDEX_SHARDS, ITEM_PREFIXES, SEQUENCE_DIGITS } from '#config/storage';
import type { EndpointAddress } from '#domain/endpoints/address';
import type { DeliveryRef } from '#domain/endpoints/deliveries-port';
import type { Account, AccountTombstone, EventRef, Organization, SignatureScheme } from '#domain/model';
import { type PreviousSigningKey, type SigningKey, signingKeyId } from '#domain/signing/signing-keys';
import { ENDPOINT_SECURITY, toEndpointSecurity } from './endpoint-secret-items';
import { toEndpointHealth } from './health-items';
import { toSubscription } from './subscription-items';

/** Key of an item. */
export interface ItemKey {
  readonly pk: string;
  readonly sk: string;
}

/** Sort-key value of every event item. */
export const EVENT_SK = 'EVENT';

/** Sort-key value of an account item. */
export const ACCOUNT_SK = 'ACCOUNT';

/** Sort-key prefix of an extra endpoint's material item (beside its default endpoint's `ENDPOINT`). */
export const ENDPOINT_SK_PREFIX = 'ENDPOINT#';

/** Sort-key value of an account log's head item (see `events/log-head.ts`). */
export const LOG_HEAD_SK = 'HEAD';

/** Key builders, one per item kind. */
export const keys = {
  organization: (orgId: string): ItemKey => ({ pk: `${ITEM_PREFIXES.organization}${orgId}`, sk: 'ORG' }),
  apiKey: (hash: string): ItemKey => ({ pk: `${ITEM_PREFIXES.apiKey}${hash}`, sk: 'APIKEY' }),
  portalLink: (hash: string): ItemKey => ({ pk: `${ITEM_PREFIXES.portalLink}${hash}`, sk: 'PORTAL' }),
  account: (iban: string): ItemKey => ({ pk: `${ITEM_PREFIXES.account}${iban}`, sk: ACCOUNT_SK }),
  /** The partition of an account's extra endpoints (read with one Query). */
  endpoints: (iban: string): string => `${ITEM_PREFIXES.endpoint}${iban}`,
  /** An extra endpoint of an account. */
  endpoint: (iban: string, id: string): ItemKey => ({ pk: keys.endpoints(iban), sk: id }),
  /** Where an endpoint's settings and health are: the account item, or the extra endpoint's own. */
  endpointAt: (endpoint: EndpointAddress): ItemKey => {
    if (endpoint.operational) return keys.operationalHealth(endpoint.orgId);
    return endpoint.extra === undefined
      ? keys.account(endpoint.iban)
      : keys.endpoint(endpoint.iban, endpoint.extra);
  },
  /** An endpoint's material: the default endpoint's (`ENDPOINT`), or an extra one's (`ENDPOINT#<id>`). */
  endpointSecrets: (endpoint: EndpointAddress): ItemKey => ({
    pk: `${ITEM_PREFIXES.endpointSecrets}${endpoint.iban}`,
    sk: endpoint.extra === undefined ? 'ENDPOINT' : `${ENDPOINT_SK_PREFIX}${endpoint.extra}`,
  }),
  /** A fanned-out event's delivery at one routed endpoint: the endpoint's partition, the event's sequence. */
  delivery: (ref: DeliveryRef): ItemKey => ({
    pk: `${ITEM_PREFIXES.delivery}${ref.orgId}#${ref.account}#${ref.endpointId}`,
    sk: keys.sequence(ref.sequence),
  }),
  /**
   * The health of an organization's operational webhook: an item of its own beside the organization's
   * operational log (not in it: the log's Query never reads it), so the consumer that writes it needs no
   * right on the organization's item.
   */
  operationalHealth: (orgId: string): ItemKey => ({
    pk: `${ITEM_PREFIXES.operational}${orgId}#HEALTH`,
    sk: 'HEALTH',
  }),
  /** The partition of an organization's operational log. */
  operationalLog: (orgId: string): string => `${ITEM_PREFIXES.operational}${orgId}`,
  /** The `by-org` index partition of every organization's notices of one minute (`yyyy-mm-ddThh:mm`). */
  noticeMinute: (minute: string): string => `${ITEM_PREFIXES.operational}MIN#${minute}`,
  /** A notice's `by-org` sort key: its time, then its kind (counted from the index alone) and id. */
  noticeOrder: (at: string, kind: string, id: string): string => `${at}#${kind}#${id}`,
  /** The platform team's summary cursor: the last minute covered. */
  noticeSummary: { pk: ITEM_PREFIXES.noticeSummary, sk: 'CURSOR' } as ItemKey,
  /** An event id's claim, or an event stored before sequences. */
  event: (id: string): ItemKey => ({ pk: `${ITEM_PREFIXES.event}${id}`, sk: EVENT_SK }),
  /** The partition of an account's event log. */
  log: (orgId: string, iban: string): string => `${ITEM_PREFIXES.log}${orgId}#${iban}`,
  /** A log item's sort key: the sequence zero-padded, so keys sort as numbers do. */
  sequence: (sequence: number): string => String(sequence).padStart(SEQUENCE_DIGITS, '0'),
  /** The head of a hot account log: its sort key sorts after every sequence's (a letter after digits). */
  logHead: (orgId: string, iban: string): ItemKey => ({ pk: keys.log(orgId, iban), sk: LOG_HEAD_SK }),
  /** Where an event is: its log item, or (stored before sequences) its id's item. */
  eventAt: (ref: EventRef): ItemKey =>
    ref.sequence === undefined
      ? keys.event(ref.id)
      : { pk: keys.log(ref.orgId, ref.account), sk: keys.sequence(ref.sequence) },
  /** The unsharded index partition of an organization's events stored before account logs. */
  orgEvents: (orgId: string): string => `ORG#${orgId}#EVENTS`,
  /** One write shard of an organization's event index entries. */
  orgEventShard: (orgId: string, shard: number): string => `ORG#${orgId}#EVENTS#${shard}`,
  /** The index partition of an event: its id's shard, or (stored before account logs) the unsharded one. */
  eventIndexKey: (ref: EventRef): string =>
    ref.sequence === undefined
      ? keys.orgEvents(ref.orgId)
      : keys.orgEventShard(ref.orgId, eventShard(ref.id)),
  /** An account's counter of test events, one item per organization's account. */
  testEvents: (orgId: string, iban: string): ItemKey => ({
    pk: `${ITEM_PREFIXES.testEvents}${orgId}#${iban}`,
    sk: 'TESTS',
  }),
  /** The catalog item of the operators' event types: their names. */
  eventTypeCatalog: { pk: ITEM_PREFIXES.eventTypes, sk: 'CATALOG' } as ItemKey,
  /** An operator's event type: its description, deprecation and latest version. */
  eventTypeHead: (type: string): ItemKey => ({ pk: ITEM_PREFIXES.eventTypes, sk: `TYPE#${type}` }),
  /** One version of an operator's event type; the number zero-padded, so a type's versions sort. */
  eventTypeVersion: (type: string, version: number): ItemKey => ({
    pk: ITEM_PREFIXES.eventTypes,
    sk: `VERSION#${type}#${String(version).padStart(4, '0')}`,
  }),
  orgAccounts: (orgId: string): string => `ORG#${orgId}#ACCOUNTS`,
  orgApiKeys: (orgId: string): string => `ORG#${orgId}#APIKEYS`,
  /** Index sort key: ISO timestamps sort lexically, and the id breaks ties. */
  eventOrder: (triggeredAt: string, id: string): string => `${triggeredAt}#${id}`,
};

/** The write shard of an event id: FNV-1a of its characters, modulo the shards (stable, evenly spread). */
export function eventShard(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return hash % EVENT_INDEX_SHARDS;
}

/** Record of a stored organization item. */
export function toOrganization(item: Record<string, unknown>): Organization {
  return {
    id: String(item.org_id),
    name: String(item.name),
    webhookToken: String(item.webhook_token),
    previousWebhookToken:
      typeof item.previous_webhook_token === 'string' && typeof item.previous_token_expires_at === 'string'
        ? { token: item.previous_webhook_token, expiresAt: item.previous_token_expires_at }
        : undefined,
    signingKey: toSigningKey(item.signing_key),
    previousSigningKey: toPreviousSigningKey(item.previous_signing_key),
    signatureSchemes: Array.isArray(item.signature_schemes)
      ? (item.signature_schemes as SignatureScheme[])
      : undefined,
    opsWebhookUrl: typeof item.ops_webhook_url === 'string' ? item.ops_webhook_url : undefined,
    createdAt: String(item.created_at),
  };
}

/**
 * The stored map of a signing key (the private key stays sealed). Its `id` is written for readers of
 * earlier versions; this one derives the id from the public key (see {@link toSigningKey}).
 */
export function signingKeyItem(key: SigningKey | PreviousSigningKey): Record<string, string> {
  return {
    id: key.id,
    public_key: key.publicKey,
    sealed_private_key: key.sealedPrivateKey,
    created_at: key.createdAt,
    ...('expiresAt' in key ? { expires_at: key.expiresAt } : {}),
  };
}

/** A stored signing key; its id derived from its public key, so a key stored with a `whk_` id shows `whak_`. */
function toSigningKey(value: unknown): SigningKey | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const map = value as Record<string, unknown>;
  return {
    id: signingKeyId(String(map.public_key)),
    publicKey: String(map.public_key),
    sealedPrivateKey: String(map.sealed_private_key),
    createdAt: String(map.created_at),
  };
}

function toPreviousSigningKey(value: unknown): PreviousSigningKey | undefined {
  const key = toSigningKey(value);
  const expiresAt = (value as Record<string, unknown> | undefined)?.expires_at;
  return key && typeof expiresAt === 'string' ? { ...key, expiresAt } : undefined;
}

/**
 * Attribute that makes an account item a tombstone (`pk`, `sk`, `iban`, `org_id`, `seq_floor` and this,
 * nothing else): an account deleted without erasing its events.
 */
export const DELETED_AT = 'deleted_at';

/** Whether a stored account item is a tombstone. */
export function isTombstone(item: Record<string, unknown>): boolean {
  return item[DELETED_AT] !== undefined;
}

/** Record of a stored tombstone. */
export function toAccountTombstone(item: Record<string, unknown>): AccountTombstone {
  return {
    iban: String(item.iban),
    orgId: String(item.org_id),
    deletedAt: String(item[DELETED_AT]),
    ...(typeof item.seq_floor === 'number' ? { sequenceFloor: item.seq_floor } : {}),
  };
}

/** Record of a stored account item. */
export function toAccount(item: Record<string, unknown>): Account {
  return {
    iban: String(item.iban),
    orgId: String(item.org_id),
    webhookUrl: typeof item.webhook_url === 'string' ? item.webhook_url : undefined,
    endpointId: typeof item.endpoint_id === 'string' ? item.endpoint_id : undefined,
    health: toEndpointHealth(item),
    sequenceFloor: typeof item.seq_floor === 'number' ? item.seq_floor : undefined,
    deliveryOrder: item.delivery_order === 'ordered' ? 'ordered' : undefined,
    settledThrough: typeof item.settled_through === 'number' ? item.settled_through : undefined,
    orderEpoch: typeof item.order_epoch === 'number' ? item.order_epoch : undefined,
    security: toEndpointSecurity(item[ENDPOINT_SECURITY]),
    ...toSubscription(item),
    endpointCount:
      typeof item.endpoint_count === 'number' && item.endpoint_count > 0 ? item.endpoint_count : undefined,
    createdAt: String(item.created_at),
    updatedAt: String(item.updated_at),
  };
}
