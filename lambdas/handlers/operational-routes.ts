/**
 * The routes of an organization's operational notices that an organization key (`manage-settings`) and an
 * operator (`administer-herald`) call alike: its operational webhook, shown and set, and (the operator's)
 * a page of its notices.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { AccountAudience } from '#http/accounts/account-view';
import { operationalEventsLink, toOperationalEventView } from '#http/organizations/operational-event-view';
import { parseOperationalEventsQuery } from '#http/organizations/operational-events-request';
import { parseOperationalWebhook } from '#http/organizations/operational-webhook-request';
import { toOperationalWebhookView } from '#http/organizations/operational-webhook-view';
import { json } from '#http/response';
import { listAnyOperationalEvents } from '#use-cases/organizations/operational-events';
import {
  type OperationalWebhookDeps,
  setOperationalWebhook,
  showOperationalWebhook,
} from '#use-cases/organizations/operational-webhook';

/** `GET …/operational-webhook`: the setting, as the caller sees it. */
export async function showOperationalWebhookRoute(
  deps: Pick<OperationalWebhookDeps, 'directory'>,
  orgId: string,
  audience: AccountAudience,
): Promise<APIGatewayProxyResult> {
  return json(200, toOperationalWebhookView(await showOperationalWebhook(deps.directory, orgId), audience));
}

/** `PUT …/operational-webhook`: its writers (`manage` keys, operators) see the URL whole. */
export async function setOperationalWebhookRoute(
  deps: OperationalWebhookDeps,
  orgId: string,
  event: APIGatewayProxyEvent,
): Promise<APIGatewayProxyResult> {
  const setting = await setOperationalWebhook(deps, orgId, parseOperationalWebhook(event));
  return json(200, toOperationalWebhookView(setting, { fullUrl: true }));
}

/** `GET /admin/organizations/{org}/operational-events`: paged as the organization's own listing. */
export async function listAnyOperationalEventsRoute(
  deps: Parameters<typeof listAnyOperationalEvents>[0],
  orgId: string,
  event: APIGatewayProxyEvent,
  baseUrl: string,
): Promise<APIGatewayProxyResult> {
  const query = parseOperationalEventsQuery(event);
  const page = await listAnyOperationalEvents(deps, orgId, query);
  const path = `/admin/organizations/${encodeURIComponent(orgId)}/operational-events`;
  const link = operationalEventsLink(baseUrl, query, page, path);
  return json(200, page.notices.map(toOperationalEventView), { Link: link });
}
