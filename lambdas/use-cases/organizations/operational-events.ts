/**
 * Reading an organization's operational notices: one page, newest transition first.
 */
import type { NoticePage, OperationalLog } from '#domain/notices/ports';

/** Which page, and how long pages are (1-based; `page × perPage` bounded by the caller). */
export interface NoticePageQuery {
  readonly page: number;
  readonly perPage: number;
}

/** One page of the organization's notices: only its own (the log is partitioned by organization). */
export function listOperationalEvents(
  log: Pick<OperationalLog, 'page'>,
  orgId: string,
  query: NoticePageQuery,
): Promise<NoticePage> {
  return log.page(orgId, (query.page - 1) * query.perPage, query.perPage);
}
