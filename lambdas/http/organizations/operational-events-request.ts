/**
 * The query of `GET /operational-events`: `page` and `per_page`, as every listing.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { PAGING_QUERY, type PageNumbers, pageNumbers } from '#http/paging';
import { readQuery } from '#http/read-request';
import { closed } from '#http/schema';

/** The listing's query. */
export const OPERATIONAL_EVENTS_QUERY = closed({ ...PAGING_QUERY });

/** @throws ValidationError naming the parameter */
export function parseOperationalEventsQuery(event: APIGatewayProxyEvent): PageNumbers {
  const query = readQuery(event.multiValueQueryStringParameters, OPERATIONAL_EVENTS_QUERY);
  return pageNumbers(query, 'older notices are beyond the listing’s depth');
}
