/**
 * An account's endpoint routes, which an organization key (`get-account` reads, `manage-settings`
 * writes) and an operator (`administer-herald`) call alike; the caller's organization (none for an
 * operator) decides which accounts it reaches and how it is named in a disabled endpoint's reason.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { parseEndpointChange, parseEndpointCreation, parseEndpointId } from '#http/accounts/endpoint-request';
import { toEndpointView } from '#http/accounts/endpoint-view';
import { baseUrlOf, pathParam } from '#http/request';
import { json, noContent } from '#http/response';
import {
  addAccountEndpoint,
  type EndpointCaller,
  type EndpointsDeps,
  getAccountEndpoint,
  listAccountEndpoints,
  removeAccountEndpoint,
  updateAccountEndpoint,
} from '#use-cases/accounts/endpoints';

/** Who asks, and how much of the URLs they see (`manage` keys and operators: whole). */
export interface EndpointRouteCaller extends EndpointCaller {
  readonly fullUrl: boolean;
  readonly publicBaseUrl?: string | undefined;
}

/** `GET …/endpoints`: the account's endpoints, its default one first. */
export async function listEndpoints(
  deps: Pick<EndpointsDeps, 'directory' | 'endpoints'>,
  caller: EndpointRouteCaller,
  event: APIGatewayProxyEvent,
): Promise<APIGatewayProxyResult> {
  const endpoints = await listAccountEndpoints(deps, caller, pathParam(event, 'iban'));
  return json(
    200,
    endpoints.map((endpoint) => view(endpoint, caller, event)),
  );
}

/** `GET …/endpoints/{endpoint_id}`. */
export async function getEndpoint(
  deps: Pick<EndpointsDeps, 'directory' | 'endpoints'>,
  caller: EndpointRouteCaller,
  event: APIGatewayProxyEvent,
): Promise<APIGatewayProxyResult> {
  const endpoint = await getAccountEndpoint(deps, caller, pathParam(event, 'iban'), parseEndpointId(event));
  return json(200, view(endpoint, caller, event));
}

/** `POST …/endpoints`: 201 with the endpoint added. */
export async function addEndpoint(
  deps: EndpointsDeps,
  caller: EndpointRouteCaller,
  event: APIGatewayProxyEvent,
): Promise<APIGatewayProxyResult> {
  const request = parseEndpointCreation(event);
  const endpoint = await addAccountEndpoint(deps, caller, pathParam(event, 'iban'), request);
  return json(201, view(endpoint, caller, event));
}

/** `PUT …/endpoints/{endpoint_id}`: the endpoint as changed. */
export async function updateEndpoint(
  deps: EndpointsDeps,
  caller: EndpointRouteCaller,
  event: APIGatewayProxyEvent,
): Promise<APIGatewayProxyResult> {
  const id = parseEndpointId(event);
  const request = parseEndpointChange(event);
  const endpoint = await updateAccountEndpoint(deps, caller, pathParam(event, 'iban'), id, request);
  return json(200, view(endpoint, caller, event));
}

/** `DELETE …/endpoints/{endpoint_id}`: 204. */
export async function removeEndpoint(
  deps: Pick<EndpointsDeps, 'directory' | 'endpoints'>,
  caller: EndpointRouteCaller,
  event: APIGatewayProxyEvent,
): Promise<APIGatewayProxyResult> {
  await removeAccountEndpoint(deps, caller, pathParam(event, 'iban'), parseEndpointId(event));
  return noContent();
}

function view(
  endpoint: Parameters<typeof toEndpointView>[0],
  caller: EndpointRouteCaller,
  event: APIGatewayProxyEvent,
) {
  return toEndpointView(endpoint, baseUrlOf(event, caller.publicBaseUrl), caller);
}
