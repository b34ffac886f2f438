/**
 * The `Link` header of a listing (RFC 8288): the seed's list body is a bare array, so paging metadata
 * travels in the header instead of the body.
 */

import { MAX_LIST_DEPTH } from '#config/limits';
import type { EventPageQuery } from '#domain/ports';
import { joinUrl } from '#domain/urls';
import { linkHeaderValue } from '#http/paging';
import { toQueryString } from './list-query';

/**
 * `<url>; rel="first"`, then `rel="prev"` when past page 1, then `rel="next"` when more events follow
 * within the listing depth (`MAX_LIST_DEPTH`; beyond it `until` reaches older events), joined by `, `. Every URL keeps the filters and `per_page` of the request.
 *
 * @param path - the listing's path, e.g. `/events`
 * @param hasNext - whether the store reported events after this page
 */
export function linkHeader(baseUrl: string, path: string, query: EventPageQuery, hasNext: boolean): string {
  const url = (page: number): string => `${joinUrl(baseUrl, path)}?${toQueryString({ ...query, page })}`;
  return linkHeaderValue({
    first: url(1),
    prev: query.page > 1 ? url(query.page - 1) : undefined,
    next: hasNext && (query.page + 1) * query.perPage <= MAX_LIST_DEPTH ? url(query.page + 1) : undefined,
  });
}
