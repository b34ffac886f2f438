/**
 * The in-memory API reads across an organization's events (`EventQueries`): the listing and a delivery
 * summary's recent attempts, in the DynamoDB adapter's order and within its read bounds. Listing returns
 * whole records (the adapter returns summaries); the order is the adapter's: newest `triggeredAt` first,
 * ties by id descending.
 */
import type { EventListPage, EventListRequest, EventQueries, RecentAttempts } from '#domain/ports';
import { InMemoryEventReads } from './event-log';

/** The organization's reads the API answers with, in memory. */
export class InMemoryEventQueries extends InMemoryEventReads implements EventQueries {
  async listEvents(request: EventListRequest): Promise<EventListPage> {
    const matching = this.table
      .ofOrg(request.orgId)
      .filter(
        (event) =>
          (request.account === undefined || event.account === request.account) &&
          (request.type === undefined || event.type === request.type) &&
          (request.status === undefined || event.webhookStatus === request.status) &&
          (request.since === undefined || event.triggeredAt >= request.since) &&
          (request.until === undefined || event.triggeredAt <= request.until),
      );
    const end = request.offset + request.limit;
    return { events: matching.slice(request.offset, end), hasMore: matching.length > end };
  }

  async recentAttempts(
    orgId: string,
    account: string,
    since: string,
    limit: number,
  ): Promise<RecentAttempts> {
    // The adapter's one Query: the window's entries newest first, at most the read bound of them.
    const window = this.table.ofOrg(orgId).filter((event) => event.triggeredAt >= since);
    const examined = window.slice(0, this.table.indexEntriesBound);
    const matching = examined.filter((event) => event.account === account);
    const read = matching.slice(0, limit);
    this.table.attemptReads.push(read.length);
    return {
      attempts: read.flatMap((event) => event.deliveries),
      events: read.length,
      complete: matching.length <= limit && window.length <= this.table.indexEntriesBound,
    };
  }
}
