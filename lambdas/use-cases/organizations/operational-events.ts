/**
 * Reading an organization's operational notices: one page, newest transition first.
 */
import { NotFoundError } from '#domain/errors';
import type { NoticeDelivery, NoticePage, OperationalLog } from '#domain/notices/ports';
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
 * One of the organization's notices with its delivery to the operational webhook.
 *
 * @throws NotFoundError when the organization has no such notice (among its newest)
 */
export async function getOperationalEvent(
  log: Pick<OperationalLog, 'find'>,
  orgId: string,
  id: string,
): Promise<NoticeDelivery> {
  const found = await log.find(orgId, id);
  if (found === undefined) throw new NotFoundError(`Operational event ${id} not found`);
  return found;
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
