/**
 * The catalog's read routes, which an organization key (`get-event-types`) and an operator
 * (`administer-herald`) call alike: a listing within one answer's size, and one type.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { EventTypeCatalog } from '#domain/event-types/catalog-port';
import { parseEventTypeListQuery, parseEventTypeName } from '#http/event-types/event-type-request';
import { toEventTypeListAnswer, toEventTypeView } from '#http/event-types/event-type-view';
import { baseUrlOf } from '#http/request';
import { json } from '#http/response';
import { requireEventType } from '#use-cases/event-types/catalog';

/** `GET <path>`: the types after `after`, as many as one answer carries, and `Link: next` when more follow. */
export async function listEventTypes(
  catalog: EventTypeCatalog,
  event: APIGatewayProxyEvent,
  publicBaseUrl: string | undefined,
): Promise<APIGatewayProxyResult> {
  const { after } = parseEventTypeListQuery(event);
  const baseUrl = baseUrlOf(event, publicBaseUrl);
  const answer = await toEventTypeListAnswer(catalog.list(after), baseUrl, event.resource);
  return json(200, answer.types, answer.link === undefined ? {} : { Link: answer.link });
}

/** `GET <path>/{type}`: one type with its versions. */
export async function getEventType(
  catalog: EventTypeCatalog,
  event: APIGatewayProxyEvent,
): Promise<APIGatewayProxyResult> {
  return json(200, toEventTypeView(await requireEventType(catalog, parseEventTypeName(event))));
}
