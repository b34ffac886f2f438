import { MAX_LIST_DEPTH } from '#config/limits';
import type { DeliveryRef, EndpointDelivery } from '#domain/endpoints/deliveries-port';
import type { LeaseClaim } from '#domain/event-store-port';
import type { DeliveryAttempt, WebhookStatus } from '#domain/model';
import { type Notice, type NoticeRef, noticeSortKey } from '#domain/notices/notice';
import type { NoticeDeliveries, NoticeDelivery, NoticePage, OperationalLog } from '#domain/notices/ports';
import { InMemoryEndpointDeliveries } from './endpoint-deliveries';

/**
 * In-memory {@link OperationalLog} with the DynamoDB adapter's rule (a notice whose id is stored is
 * refused) and order (`noticeSortKey`), and its notices' deliveries ({@link NoticeDeliveries}, with the
 * conditions of an endpoint's deliveries, whose in-memory store keeps them), for use-case tests and the
 * simulation.
 */
export class InMemoryOperationalLog implements OperationalLog, NoticeDeliveries {
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

  takeLease(ref: NoticeRef, claim: LeaseClaim): Promise<boolean> {
    return this.deliveries.takeLease(at(ref), claim);
  }

  recordAttempt(
    ref: NoticeRef,
    attempt: DeliveryAttempt,
    status: WebhookStatus,
    nextAttemptAt?: number,
  ): Promise<EndpointDelivery> {
    return this.deliveries.recordAttempt(at(ref), attempt, status, nextAttemptAt);
  }

  settlePending(ref: NoticeRef, status: 'skipped' | 'failed'): Promise<boolean> {
    return this.deliveries.settlePending(at(ref), status);
  }
}

function refOf(notice: Notice): NoticeRef {
  return { id: notice.id, orgId: notice.orgId, sortKey: noticeSortKey(notice) };
}

/** Where a notice's delivery is kept: a place of its own in the endpoint deliveries' store. */
function at(ref: NoticeRef): DeliveryRef {
  return { id: ref.id, orgId: ref.orgId, account: 'OPS', endpointId: ref.sortKey, sequence: 0 };
}
