/**
 * Reading an organization's operational notices: one page, newest transition first.
 */
import type { NoticePage, OperationalLog } from '#domain/notices/ports';
import type { DirectoryStore } from '#domain/ports';
import { requireOrganization } from './require-organization';

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

/**
 * The operator's read of an organization's notices: {@link listOperationalEvents}, once the organization
 * is known to exist (an unknown one is a 404, not an empty page).
 *
 * @throws NotFoundError for an unknown organization
 */
export async function listAnyOperationalEvents(
  deps: {
    readonly directory: Pick<DirectoryStore, 'getOrganization'>;
    readonly log: Pick<OperationalLog, 'page'>;
  },
  orgId: string,
  query: NoticePageQuery,
): Promise<NoticePage> {
  await requireOrganization(deps.directory, orgId);
  return listOperationalEvents(deps.log, orgId, query);
}
