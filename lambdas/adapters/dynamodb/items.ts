/**
 * Item layouts of the events table (see docs/design.md): key builders and item ↔ record mapping.
 * Attribute names are short where they repeat per attempt, because item size is billed on every write.
 */
import type { Account, DeliveryAttempt, EventRecord, Organization, WebhookStatus } from '../../domain/model';
import type { NewEvent } from '../../domain/ports';

/** Key of an item. */
export interface ItemKey {
  readonly pk: string;
  readonly sk: string;
}

/** Sort-key value of every event item. */
export const EVENT_SK = 'EVENT';

/** Key builders, one per item kind. */
export const keys = {
  organization: (orgId: string): ItemKey => ({ pk: `ORG#${orgId}`, sk: 'ORG' }),
  apiKey: (hash: string): ItemKey => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' }),
  account: (iban: string): ItemKey => ({ pk: `ACCOUNT#${iban}`, sk: 'ACCOUNT' }),
  event: (id: string): ItemKey => ({ pk: `EVENT#${id}`, sk: EVENT_SK }),
  orgEvents: (orgId: string): string => `ORG#${orgId}#EVENTS`,
  orgAccounts: (orgId: string): string => `ORG#${orgId}#ACCOUNTS`,
  /** Index sort key: ISO timestamps sort lexically, and the id breaks ties. */
  eventOrder: (triggeredAt: string, id: string): string => `${triggeredAt}#${id}`,
};

/** Stored shape of one attempt (short names: the list is rewritten on every attempt). */
interface AttemptItem {
  at: string;
  status: number;
  body: string;
  ms: number;
}

/** Stored shape of an event item. */
export interface EventItem extends ItemKey {
  gsi1pk: string;
  gsi1sk: string;
  id: string;
  org_id: string;
  account: string;
  type: string;
  triggered_at: string;
  body: string;
  signature: string;
  webhook_status: WebhookStatus;
  webhook_retries: number;
  cycle_base: number;
  deliveries: AttemptItem[];
  lease_until?: number;
  expires_at?: number;
}

/** The item written for a new event. */
export function eventItem(event: NewEvent): EventItem {
  return {
    ...keys.event(event.id),
    gsi1pk: keys.orgEvents(event.orgId),
    gsi1sk: keys.eventOrder(event.triggeredAt, event.id),
    id: event.id,
    org_id: event.orgId,
    account: event.account,
    type: event.type,
    triggered_at: event.triggeredAt,
    body: event.body,
    signature: event.signature,
    webhook_status: event.webhookStatus,
    webhook_retries: 0,
    cycle_base: 0,
    deliveries: [],
    ...(event.expiresAt === undefined ? {} : { expires_at: event.expiresAt }),
  };
}

/** Stored attempt of a recorded {@link DeliveryAttempt}. */
export function attemptItem(attempt: DeliveryAttempt): AttemptItem {
  return {
    at: attempt.deliveredAt,
    status: attempt.responseStatus,
    body: attempt.responseBody,
    ms: attempt.responseTimeMs,
  };
}

/** Record of a stored event item (tolerates the list projection, which omits the attempts). */
export function toEventRecord(item: Record<string, unknown>): EventRecord {
  const event = item as Partial<EventItem>;
  return {
    id: String(event.id),
    orgId: String(event.org_id),
    account: String(event.account),
    type: String(event.type),
    triggeredAt: String(event.triggered_at),
    body: event.body ?? '',
    signature: String(event.signature),
    webhookStatus: event.webhook_status ?? 'pending',
    webhookRetries: Number(event.webhook_retries ?? 0),
    cycleBase: Number(event.cycle_base ?? 0),
    deliveries: (event.deliveries ?? []).map((a) => ({
      deliveredAt: a.at,
      responseStatus: Number(a.status),
      responseBody: a.body,
      responseTimeMs: Number(a.ms),
    })),
    leaseUntil: event.lease_until === undefined ? undefined : Number(event.lease_until),
  };
}

/** Record of a stored organization item. */
export function toOrganization(item: Record<string, unknown>): Organization {
  return {
    id: String(item.org_id),
    name: String(item.name),
    webhookToken: String(item.webhook_token),
    createdAt: String(item.created_at),
  };
}

/** Record of a stored account item. */
export function toAccount(item: Record<string, unknown>): Account {
  return {
    iban: String(item.iban),
    orgId: String(item.org_id),
    webhookUrl: typeof item.webhook_url === 'string' ? item.webhook_url : undefined,
    createdAt: String(item.created_at),
    updatedAt: String(item.updated_at),
  };
}
