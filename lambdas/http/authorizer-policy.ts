/**
 * The TOKEN authorizer's answer (an IAM policy for API Gateway) for a valid API key.
 */
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { API_ROUTES, type KeyScope } from '#config/routes';
import type { ApiKey } from '#domain/model';

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
