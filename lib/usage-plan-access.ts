import { Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/**
 * Lets the admin function register organizations' keys in the usage plan, and nothing more of API
 * Gateway: create an API key (the key resource cannot be narrowed before it exists), find one by name
 * (a repeated registration), and add keys to this plan only. A policy of its own rather than the role's
 * default policy: the function depends on its default policy, the plan on the API, the API on the
 * function, so naming the plan there would be a cycle.
 */
export function allowUsageKeyRegistration(
  scope: Construct,
  fn: lambda.Function,
  plan: apigw.UsagePlan,
): void {
  const region = Stack.of(scope).region;
  const apiKeys = `arn:${Stack.of(scope).partition}:apigateway:${region}::/apikeys`;
  const policy = new iam.Policy(new Construct(scope, 'UsageKeyRegistration'), 'Policy', {
    statements: [
      new iam.PolicyStatement({ actions: ['apigateway:POST', 'apigateway:GET'], resources: [apiKeys] }),
      new iam.PolicyStatement({
        actions: ['apigateway:POST'],
        resources: [
          `arn:${Stack.of(scope).partition}:apigateway:${region}::/usageplans/${plan.usagePlanId}/keys`,
        ],
      }),
    ],
  });
  if (fn.role) policy.attachToRole(fn.role);
}
