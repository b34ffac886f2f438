/**
 * The CDK app: one Herald stack, configured from context (`herald:*` keys, see
 * `lib/context-props.ts`), checked by cdk-nag's AwsSolutions rules on every synth.
 */
import { App, Tags } from 'aws-cdk-lib';
import { addComplianceChecks } from '#lib/compliance';
import { stackPropsFromContext } from '#lib/context-props';
import { HeraldStack } from '#lib/herald-stack';
import { SERVICE_NAME } from '#lib/telemetry';

const app = new App();
const { stackName, ...props } = stackPropsFromContext(app.node);
// The CLI sets these from the current credentials; where it cannot, the stack stays environment-agnostic.
const { CDK_DEFAULT_ACCOUNT: account, CDK_DEFAULT_REGION: region } = process.env;
const stack = new HeraldStack(app, stackName, {
  ...props,
  env: { ...(account === undefined ? {} : { account }), ...(region === undefined ? {} : { region }) },
  description: 'Herald: event records and signed, retried webhooks',
});
// Not on the dashboard: AWS::CloudWatch::Dashboard takes no Tags in CloudFormation's schema (cfn-lint E3002).
Tags.of(stack).add('service', SERVICE_NAME, { excludeResourceTypes: ['AWS::CloudWatch::Dashboard'] });
addComplianceChecks(app);
