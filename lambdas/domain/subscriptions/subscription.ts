/**
 * An endpoint's subscription: which event types it hears of, and which of their payloads. The delivery
 * wing asks {@link matchesEvent} of each stored event and each enabled endpoint; the API checks a
 * subscription's parts when it is saved ({@link eventTypesProblems}, `checkFilter`).
 */
import { MAX_VIOLATIONS_REPORTED } from '#config/catalog-limits';
import type { InvalidParam } from '#domain/errors';
import { isEventType, MAX_EVENT_TYPE_LENGTH } from '#domain/event-input';
import { childPointer } from '#domain/event-types/schema-walk';
import { matches, type StepCounter } from './filter-match';
import type { Filter } from './filter-model';

/** What an endpoint subscribes to. Absent parts restrict nothing. */
export interface Subscription {
  /** Catalog type names; absent: every type, those registered later included. Never empty. */
  readonly eventTypes?: readonly string[] | undefined;
  /** A filter `checkFilter` accepted; absent: every payload. */
  readonly filter?: Filter | undefined;
}

/** What a subscription is matched against: a stored event's type and its payload (JSON data). */
export interface SubscribedEvent {
  readonly type: string;
  readonly payload: unknown;
}

/** Whether an event is one the subscription asks for: its type is listed (or none is) and its payload matches the filter (or there is none). */
export function matchesEvent(
  subscription: Subscription,
  event: SubscribedEvent,
  onStep?: StepCounter,
): boolean {
  const { eventTypes, filter } = subscription;
  if (eventTypes !== undefined && !eventTypes.includes(event.type)) return false;
  return filter === undefined || matches(filter, event.payload, onStep);
}

/**
 * What is wrong with a subscription's list of event types, each problem at its index
 * (`event_types/1`): an empty list (it would subscribe to nothing), a name that is no type name, one the
 * catalog does not have (`isCatalogType` says; an unknown name is quoted, a type name being no personal
 * data), or one listed twice: at most {@link MAX_VIOLATIONS_REPORTED}, none when it may be saved. A
 * list that passes is no longer than the catalog.
 */
export function eventTypesProblems(
  names: readonly string[],
  isCatalogType: (type: string) => boolean,
  name = 'event_types',
): InvalidParam[] {
  if (names.length === 0) {
    return [
      {
        name,
        reason:
          'must list at least one event type: leave it out to subscribe to every type, or disable the endpoint',
      },
    ];
  }
  const seen = new Set<string>();
  const problems: InvalidParam[] = [];
  names.forEach((type, index) => {
    const at = childPointer(name, String(index));
    if (!isEventType(type)) {
      problems.push({
        name: at,
        reason: `must be an event type's name: lower-case snake_case segments separated by dots, at most ${MAX_EVENT_TYPE_LENGTH} characters`,
      });
    } else if (!isCatalogType(type)) {
      problems.push({ name: at, reason: `${type} is not an event type of the catalog` });
    } else if (seen.has(type)) problems.push({ name: at, reason: `${type} is listed twice` });
    seen.add(type);
  });
  return problems.slice(0, MAX_VIOLATIONS_REPORTED);
}
