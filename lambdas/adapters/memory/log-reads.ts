/**
 * Reads of the in-memory account logs as the DynamoDB adapter reads them (`account-log.ts`,
 * `log-entries.ts`): in sequence order, within a read's limit and byte budget, the voids among the events.
 */
import type { EventRecord } from '#domain/model';
import type { LogPage, LogRead, LogWindow } from '#domain/ports';
import type { EventMap } from './event-map';
import type { LogNumbering } from './log-numbering';

/** See `EventLog.readLog`. */
export function readLog(
  events: EventMap,
  numbering: LogNumbering,
  orgId: string,
  account: string,
  read: LogRead,
): LogPage {
  const after = events
    .log(orgId, account)
    .filter((event) => (event.sequence ?? 0) > read.afterSequence)
    .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0));
  const page: EventRecord[] = [];
  let bytes = 0;
  for (const event of after.slice(0, read.limit)) {
    bytes += Buffer.byteLength(event.body);
    if (page.length > 0 && read.maxBodyBytes !== undefined && bytes > read.maxBodyBytes) break;
    page.push(event);
  }
  const more = page.length < after.length;
  // As the adapter's read: the voids among what it read, up to where it stopped.
  const end = more ? (after[page.length]?.sequence ?? 0) : Number.POSITIVE_INFINITY;
  const voids = numbering
    .voidItems(orgId, account)
    .filter(({ sequence }) => sequence > read.afterSequence && sequence < end);
  return { events: page, voids, more, nextAfterSequence: page.at(-1)?.sequence ?? read.afterSequence };
}

/**
 * The first `limit` items of a read (events and voids, as one Query's `Limit` counts them), as the order
 * gate's read returns them (`DeliveryLedger.readLogEntries`); at most `pageItems`, as DynamoDB's 1 MB page
 * of large items ends a Query first, and then the read is cut when more items follow.
 */
export function firstItems(page: LogPage, limit: number, pageItems = limit): LogWindow {
  const all = [
    ...page.events.map((event) => ({ sequence: event.sequence ?? 0, event })),
    ...page.voids.map((closed) => ({ sequence: closed.sequence, event: undefined, closed })),
  ].sort((a, b) => a.sequence - b.sequence);
  const items = all.slice(0, Math.min(limit, pageItems));
  return {
    entries: items.flatMap((item) => (item.event ? [item.event] : [])),
    voids: items.flatMap((item) => (item.event ? [] : [item.closed])),
    cut: items.length < limit && (items.length < all.length || page.more),
  };
}
