/**
 * An endpoint's subscription and description as its item stores them (the account item for an
 * account's default endpoint, an extra endpoint's own item otherwise): the event types as a list, the
 * payload filter as its JSON text (kept exactly as checked: a number's digits, an empty string, nesting).
 */
import type { Filter } from '#domain/subscriptions/filter-model';

/** Attribute names of the subscription fields. */
export const SUBSCRIPTION_ATTR = {
  eventTypes: 'event_types',
  filter: 'payload_filter',
  description: 'ep_description',
} as const;

/** The subscription and description an item holds; absent attributes are left out. */
export function toSubscription(item: Record<string, unknown>): {
  eventTypes?: readonly string[];
  filter?: Filter;
  description?: string;
} {
  const types = item[SUBSCRIPTION_ATTR.eventTypes];
  const filter = item[SUBSCRIPTION_ATTR.filter];
  const description = item[SUBSCRIPTION_ATTR.description];
  return {
    ...(Array.isArray(types) ? { eventTypes: types.map(String) } : {}),
    ...(typeof filter === 'string' ? { filter: JSON.parse(filter) as Filter } : {}),
    ...(typeof description === 'string' ? { description } : {}),
  };
}

/** A subscription field's stored value: the event types as a list, the filter as JSON text. */
export function storedSubscription(fields: {
  readonly eventTypes?: readonly string[] | null | undefined;
  readonly filter?: Filter | null | undefined;
  readonly description?: string | null | undefined;
}): { set: Record<string, unknown>; remove: string[] } {
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  const put = (name: string, value: unknown) => {
    if (value === null) remove.push(name);
    else if (value !== undefined) set[name] = value;
  };
  put(
    SUBSCRIPTION_ATTR.eventTypes,
    fields.eventTypes === undefined || fields.eventTypes === null
      ? fields.eventTypes
      : [...fields.eventTypes],
  );
  put(
    SUBSCRIPTION_ATTR.filter,
    fields.filter === undefined || fields.filter === null ? fields.filter : JSON.stringify(fields.filter),
  );
  put(SUBSCRIPTION_ATTR.description, fields.description);
  return { set, remove };
}
