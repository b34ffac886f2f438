import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

/**
 * Runs cdk-nag's AwsSolutions rules on every synth of `app`. A finding that is neither fixed nor
 * acknowledged (`Validations.of(construct).acknowledge`, next to the construct, with the reason)
 * fails the synth; verbose findings explain the rule to whoever has to fix it.
 */
export function addComplianceChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
}
