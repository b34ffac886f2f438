/** What the two account writers (`manageSettings`, `administer`) give `putEndpoint`. */
import { checkTlsMaterial } from '#adapters/http/client-tls';
import { hostChecker } from '#adapters/http/host-check';
import type { UrlPolicy } from '#domain/webhook-url';
import type { PutEndpointDeps } from '#use-cases/accounts/put-endpoint';

/** The stores and sealer, with the URL policy's host check, the TLS material check and the system clock. */
export function putEndpointDeps(
  ports: Pick<PutEndpointDeps, 'directory' | 'events' | 'endpointSecrets' | 'sealer'>,
  policy: UrlPolicy,
): PutEndpointDeps {
  return { ...ports, policy, checkHost: hostChecker(policy), checkTls: checkTlsMaterial, now: Date.now };
}
