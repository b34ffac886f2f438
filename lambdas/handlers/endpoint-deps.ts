/**
 * What the two account writers (`manageSettings`, `administer`) give `putEndpoint` and the endpoint
 * routes.
 */
import { checkTlsMaterial } from '#adapters/http/client-tls';
import { hostChecker } from '#adapters/http/host-check';
import type { UrlPolicy } from '#domain/webhook-url';
import type { EndpointsDeps } from '#use-cases/accounts/endpoints';
import type { PutEndpointDeps } from '#use-cases/accounts/put-endpoint';

/** The stores and sealer, with the URL policy's host check, the TLS material check and the system clock. */
export function putEndpointDeps(
  ports: Pick<PutEndpointDeps, 'directory' | 'events' | 'endpointSecrets' | 'sealer'>,
  policy: UrlPolicy,
): PutEndpointDeps {
  return { ...ports, policy, checkHost: hostChecker(policy), checkTls: checkTlsMaterial, now: Date.now };
}

/**
 * {@link putEndpointDeps} with the endpoint store, the health store and operational log (`enabled`) and
 * the catalog.
 */
export function endpointsDeps(
  ports: Pick<
    EndpointsDeps,
    'directory' | 'events' | 'endpointSecrets' | 'sealer' | 'endpoints' | 'health' | 'eventTypes' | 'notices'
  >,
  policy: UrlPolicy,
): EndpointsDeps {
  return { ...ports, ...putEndpointDeps(ports, policy) };
}
