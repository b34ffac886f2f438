import { Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/**
 * Lets the admin function register organizations' keys in the usage plan, and nothing more of API
 * Gateway: import an API key (a POST on the `/apikeys` collection; the key resource cannot be named
 * before it exists) and add keys to this plan only. No read of any key: `apigateway:GET` on `/apikeys`
 * would return every key value in the region, so the adapter imports instead of looking a key up (see
 * `lambdas/adapters/apigateway/usage-keys.ts`). A policy of its own rather than the role's default
 * policy: the function depends on its default policy, the plan on the API, the API on the function, so
 * naming the plan there would be a cycle.
 */
export function allowUsageKeyRegistration(
  scope: Construct,
  fn: lambda.Function,
  plan: apigw.UsagePlan,
): void {
  const { partition, region } = Stack.of(scope);
  const apigateway = `arn:${partition}:apigateway:${region}::`;
  const policy = new iam.Policy(new Construct(scope, 'UsageKeyRegistration'), 'Policy', {
    statements: [
      new iam.PolicyStatement({
        actions: ['apigateway:POST'],
        resources: [`${apigateway}/apikeys`, `${apigateway}/usageplans/${plan.usagePlanId}/keys`],
      }),
    ],
  });
  if (fn.role) policy.attachToRole(fn.role);
}
