import { type Notice, noticeSortKey } from '#domain/notices/notice';
import type { NoticePage, OperationalLog } from '#domain/notices/ports';

/**
 * In-memory {@link OperationalLog} with the DynamoDB adapter's rule (a notice whose id is stored is
 * refused) and order (`noticeSortKey`), for use-case tests and the simulation.
 */
export class InMemoryOperationalLog implements OperationalLog {
  /** Every notice stored, in the order stored: open for assertions. */
  readonly notices: Notice[] = [];
  /** The id of every call to {@link record}, stored or refused, in order. */
  readonly attempts: string[] = [];

  async record(notice: Notice): Promise<boolean> {
    this.attempts.push(notice.id);
    if (this.notices.some((stored) => stored.id === notice.id)) return false;
    this.notices.push(notice);
    return true;
  }

  async page(orgId: string, offset: number, limit: number): Promise<NoticePage> {
    const all = this.notices
      .filter((n) => n.orgId === orgId)
      .sort((a, b) => noticeSortKey(b).localeCompare(noticeSortKey(a)));
    return { notices: all.slice(offset, offset + limit), hasMore: all.length > offset + limit };
  }
}
