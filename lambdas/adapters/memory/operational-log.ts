import { type Notice, noticeSortKey } from '#domain/notices/notice';
import { noticeMinute } from '#domain/notices/notice-minute';
import type { NoticeHead, NoticeIndex, NoticePage, OperationalLog } from '#domain/notices/ports';

/**
 * In-memory {@link OperationalLog} and {@link NoticeIndex} with the DynamoDB adapter's rule (a notice whose
 * id is stored is refused) and orders (`noticeSortKey`; the minute index by `at`, then kind and id), for
 * use-case tests and the simulation.
 */
export class InMemoryOperationalLog implements OperationalLog, NoticeIndex {
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

  async minute(minute: string, limit: number): Promise<{ heads: NoticeHead[]; more: boolean }> {
    const heads = this.notices
      .filter((n) => noticeMinute(n.at) === minute)
      .map((n) => ({ orgId: n.orgId, kind: n.kind, at: n.at, id: n.id, ref: n.id }))
      .sort((a, b) => `${a.at}#${a.kind}#${a.id}`.localeCompare(`${b.at}#${b.kind}#${b.id}`));
    return { heads: heads.slice(0, limit), more: heads.length > limit };
  }

  async read(heads: readonly NoticeHead[]): Promise<Notice[]> {
    return heads.flatMap((head) => this.notices.filter((n) => n.id === head.ref));
  }
}
