/**
 * The query of `GET /operational-events`: `page` and `per_page`, as every listing; the id of
 * `GET /operational-events/{id}`.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ValidationError } from '#domain/errors';
import { PAGING_QUERY, type PageNumbers, pageNumbers } from '#http/paging';
import { readQuery } from '#http/read-request';
import { pathParam } from '#http/request';
import { closed } from '#http/schema';

/** The listing's query. */
export const OPERATIONAL_EVENTS_QUERY = closed({ ...PAGING_QUERY });

/** @throws ValidationError naming the parameter */
export function parseOperationalEventsQuery(event: APIGatewayProxyEvent): PageNumbers {
  const query = readQuery(event.multiValueQueryStringParameters, OPERATIONAL_EVENTS_QUERY);
  return pageNumbers(query, 'older notices are beyond the listing’s depth');
}

/** A notice's id: `ntc_` and 24 lower-case hex digits. */
export const NOTICE_ID_PATTERN = /^ntc_[0-9a-f]{24}$/;

/**
 * The notice id of `GET /operational-events/{id}`.
 *
 * @throws ValidationError naming `id` when it is no notice id
 */
export function parseNoticeId(event: APIGatewayProxyEvent): string {
  const id = pathParam(event, 'id');
  if (!NOTICE_ID_PATTERN.test(id))
    throw new ValidationError('id', 'must be a notice id, `ntc_` and 24 hex digits');
  return id;
}
