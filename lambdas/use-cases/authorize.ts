import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { API_ROUTES, BEARER_PATTERN, type KeyScope } from '#config/routes';
import type { ApiKey } from '#domain/model';
import type { ApiKeyStore } from '#domain/ports';
import { hashApiKey } from '#domain/signing';

/** `Bearer herald_…`, in the one spelling the gateway lets through. */
const BEARER = new RegExp(BEARER_PATTERN);

/**
 * The API key an `Authorization` header carries, or undefined for a missing, malformed, unknown or
 * expired key. Only the key's SHA-256 hash is looked up.
 *
 * @param nowSeconds - epoch seconds, compared with the key's `expires_at`
 */
export async function apiKeyOfBearer(
  apiKeys: Pick<ApiKeyStore, 'findApiKeyByHash'>,
  authorization: string | undefined,
  nowSeconds: number,
): Promise<ApiKey | undefined> {
  if (!authorization || !BEARER.test(authorization)) return undefined;
  const key = authorization.slice('Bearer '.length);
  const found = await apiKeys.findApiKeyByHash(hashApiKey(key));
  if (!found) return undefined;
  if (found.expiresAt !== undefined && found.expiresAt <= nowSeconds) return undefined;
  return found;
}

/**
 * The authorizer's answer for a valid key. API Gateway caches it per key for every route, so the
 * policy covers the whole API at once: it allows exactly the `api-key` routes the key's scope may call
 * (path parameters as `*`), and anything else (a `read` key on a `manage` route) is denied by the
 * gateway with 403 before any function runs. The context carries the organization, scope and key id.
 *
 * @param methodArn - the ARN of the method called, `arn:aws:execute-api:<region>:<account>:<api>/<stage>/<METHOD>/<path>`
 */
export function keyPolicy(key: ApiKey, methodArn: string): APIGatewayAuthorizerResult {
  const [apiArn, stage] = methodArn.split('/');
  const resources = API_ROUTES.filter((route) => route.auth === 'api-key' && allows(key.scope, route.scope))
    .map((route) => `${apiArn}/${stage}/${route.method}${route.path.replace(/\{\w+\}/g, '*')}`)
    .sort();
  return {
    principalId: key.orgId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: resources }],
    },
    context: { orgId: key.orgId, scope: key.scope, keyId: key.id },
  };
}

function allows(held: KeyScope, needed: KeyScope | undefined): boolean {
  return held === 'manage' || (needed ?? 'read') === 'read';
}
