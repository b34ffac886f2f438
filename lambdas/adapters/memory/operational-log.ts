import { MAX_LIST_DEPTH, NOTICE_ERASE_CHUNK } from '#config/limits';
import type { LeaseClaim } from '#domain/delivery-ledger-port';
import { type DeliveryRef, type EndpointDelivery, UNTOUCHED } from '#domain/endpoints/deliveries-port';
import { ValidationError } from '#domain/errors';
import type { DeliveryAttempt, WebhookStatus } from '#domain/model';
import { type Notice, type NoticeRef, noticeSortKey } from '#domain/notices/notice';
import { noticeMinute } from '#domain/notices/notice-minute';
import type {
  NoticeDeliveries,
  NoticeDelivery,
  NoticeHead,
  NoticeIndex,
  NoticePage,
  OperationalLog,
} from '#domain/notices/ports';
import type { EraseChunk } from '#domain/queries';
import { InMemoryEndpointDeliveries, keyOf } from './endpoint-deliveries';

/**
 * In-memory {@link OperationalLog} and {@link NoticeIndex} with the DynamoDB adapter's rule (a notice whose
 * id is stored is refused) and orders (`noticeSortKey`; the minute index by `at`, then kind and id), and its
 * notices' deliveries ({@link NoticeDeliveries}, with the conditions of an endpoint's deliveries, whose
 * in-memory store keeps them), for use-case tests and the simulation.
 */
export class InMemoryOperationalLog implements OperationalLog, NoticeIndex, NoticeDeliveries {
  /** The notices' deliveries, by notice (open for assertions through {@link delivery}). */
  private readonly deliveries = new InMemoryEndpointDeliveries();

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
    const all = this.newest(orgId);
    const notices = await Promise.all(
      all.slice(offset, offset + limit).map(async (notice) => {
        const { status, retries } = await this.deliveries.readDelivery(at(refOf(notice)));
        return { ...notice, webhookStatus: status, webhookRetries: retries };
      }),
    );
    return { notices, hasMore: all.length > offset + limit };
  }

  async find(orgId: string, id: string): Promise<NoticeDelivery | undefined> {
    const notice = this.newest(orgId)
      .slice(0, MAX_LIST_DEPTH)
      .find((n) => n.id === id);
    return notice && { notice, delivery: await this.deliveries.readDelivery(at(refOf(notice))) };
  }

  async eraseAccountNotices(orgId: string, account: string, cursor?: string): Promise<EraseChunk> {
    // The adapter's walk: the organization's notices in key order after the last key examined, a bounded
    // number examined whatever account they name; the cursor is that key.
    if (cursor !== undefined && !/^[^#]+#\d+#ntc_/.test(cursor)) {
      throw new ValidationError('cursor', 'must be the cursor the previous answer returned');
    }
    const examined = this.notices
      .filter((n) => n.orgId === orgId && (cursor === undefined || noticeSortKey(n) > cursor))
      .sort((a, b) => noticeSortKey(a).localeCompare(noticeSortKey(b)))
      .slice(0, NOTICE_ERASE_CHUNK);
    const doomed = new Set(examined.filter((n) => n.account === account));
    for (const notice of doomed) this.deliveries.items.delete(keyOf(at(refOf(notice))));
    this.notices.splice(0, this.notices.length, ...this.notices.filter((n) => !doomed.has(n)));
    const last = examined.at(-1);
    const full = examined.length === NOTICE_ERASE_CHUNK;
    return { erased: doomed.size, cursor: full && last ? noticeSortKey(last) : undefined };
  }

  private newest(orgId: string): Notice[] {
    return this.notices
      .filter((n) => n.orgId === orgId)
      .sort((a, b) => noticeSortKey(b).localeCompare(noticeSortKey(a)));
  }

  async readNotice(ref: NoticeRef): Promise<NoticeDelivery | undefined> {
    const notice = this.notices.find(
      (n) => n.id === ref.id && n.orgId === ref.orgId && noticeSortKey(n) === ref.sortKey,
    );
    return notice && { notice, delivery: await this.deliveries.readDelivery(at(ref)) };
  }

  /** The delivery of a notice stored here (by its id), for assertions. */
  delivery(id: string): Promise<EndpointDelivery> {
    const notice = this.notices.find((n) => n.id === id);
    if (notice === undefined) throw new Error(`no notice ${id}`);
    return this.deliveries.readDelivery(at(refOf(notice)));
  }

  // A notice is stored whole before its delivery is written: as the adapter's, a write on one gone
  // meanwhile (erased with its account) is refused.
  async takeLease(ref: NoticeRef, claim: LeaseClaim): Promise<boolean> {
    return (await this.readNotice(ref)) !== undefined && this.deliveries.takeLease(at(ref), claim);
  }

  async recordAttempt(
    ref: NoticeRef,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EndpointDelivery> {
    if ((await this.readNotice(ref)) === undefined) return UNTOUCHED;
    return this.deliveries.recordAttempt(at(ref), attempt, status, nextAttemptAt);
  }

  async settlePending(ref: NoticeRef, status: 'skipped' | 'failed'): Promise<boolean> {
    return (await this.readNotice(ref)) !== undefined && this.deliveries.settlePending(at(ref), status);
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

function refOf(notice: Notice): NoticeRef {
  return { id: notice.id, orgId: notice.orgId, sortKey: noticeSortKey(notice) };
}

/** Where a notice's delivery is kept: a place of its own in the endpoint deliveries' store. */
function at(ref: NoticeRef): DeliveryRef {
  return { id: ref.id, orgId: ref.orgId, account: 'OPS', endpointId: ref.sortKey, sequence: 0 };
}
