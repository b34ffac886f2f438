import { LOG_READ_MAX_BODY_BYTES } from '#config/limits';
import { NotFoundError } from '#domain/errors';
import type { EventRecord } from '#domain/model';
import type {
  DirectoryStore,
  EventListPage,
  EventPageQuery,
  EventQueries,
  EventReadOptions,
  EventReads,
  LogPage,
} from '#domain/ports';
import { type GapFreeDeps, readLogGapFree } from './gap-free-read';

/** An organization's events, newest first, one page of them, and whether more follow. */
export function listEvents(
  store: EventQueries,
  orgId: string,
  query: EventPageQuery,
): Promise<EventListPage> {
  const { until, ...filters } = query.filters;
  return store.listEvents({
    orgId,
    offset: (query.page - 1) * query.perPage,
    limit: query.perPage,
    ...filters,
    // `until` names a whole second; events stored with milliseconds inside it belong to the range.
    until: until === undefined ? undefined : new Date(Date.parse(until) + 999).toISOString(),
  });
}

/** What the catch-up feed reads: the log, and the account for its `seq_floor` (only when a sequence is missing). */
export interface FeedDeps {
  readonly events: GapFreeDeps['events'];
  readonly directory: Pick<DirectoryStore, 'getAccount'>;
  /** Epoch ms. */
  readonly now: () => number;
}

/**
 * The catch-up feed of an account: up to `limit` of its events with a sequence above `afterSequence`,
 * ascending, with their bodies, fewer when their bodies would pass {@link LOG_READ_MAX_BODY_BYTES}, and
 * whether more follow. It never passes a sequence an event may still take (`gap-free-read.ts`): at one a
 * publish may still store, the answer ends with `more: false`. The log is the organization's own (keyed
 * by organization and account), so another organization's IBAN, like an unknown one, has an empty feed.
 *
 * @param iban - a normalised IBAN (`parseIban` checks the path parameter)
 */
export function readFeed(
  deps: FeedDeps,
  orgId: string,
  iban: string,
  afterSequence: number,
  limit: number,
): Promise<LogPage> {
  const floor = async () => {
    const account = await deps.directory.getAccount(iban);
    return account?.orgId === orgId ? (account.sequenceFloor ?? 0) : 0;
  };
  return readLogGapFree({ events: deps.events, floor, now: deps.now }, orgId, iban, {
    afterSequence,
    limit,
    maxBodyBytes: LOG_READ_MAX_BODY_BYTES,
  });
}

/**
 * One event with all its attempts. Another organization's event answers exactly like an unknown one.
 *
 * @param id - an event id (`parseEventId` checks the path parameter)
 * @param options - `consistent` where the caller writes the event next (a redelivery)
 * @throws NotFoundError
 */
export async function getEvent(
  store: EventReads,
  orgId: string,
  id: string,
  options?: EventReadOptions,
): Promise<EventRecord> {
  const event = await store.getEvent(id, options);
  if (!event || event.orgId !== orgId) throw new NotFoundError(`No event ${id}.`);
  return event;
}
