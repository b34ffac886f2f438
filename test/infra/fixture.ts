/**
 * Synthesizes Herald stacks for the infrastructure tests: the feature flags of cdk.json, bundling
 * skipped (the templates are what is tested, not the bundles), no emulators.
 */
import { App, type CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { FunctionKey } from '#config/functions';
import cdkJson from '../../cdk.json' with { type: 'json' };
import { HeraldStack } from '../../lib/herald-stack';
import type { HeraldStackProps } from '../../lib/herald-stack-props';

/** Synthesized CloudFormation: untyped JSON, navigated freely by the assertions. */
// biome-ignore lint/suspicious/noExplicitAny: a template's shape is only known to the assertion reading it
export type Json = any;

/** A resource of a synthesized template. */
export interface CfnJson {
  readonly Type: string;
  readonly Properties: Json;
}

/** A synthesized stack and its template. */
export interface Synthesized {
  readonly stack: HeraldStack;
  readonly template: Template;
  /** Logical id of a construct's CloudFormation resource. */
  logicalId(construct: IConstruct | undefined): string;
  /** The Lambda function resource of a function. */
  fn(key: FunctionKey): CfnJson;
  /** Environment variables of a function. */
  env(key: FunctionKey): Record<string, Json>;
  /** Every IAM statement attached to a function's role. */
  statements(key: FunctionKey): Statement[];
}

/** An IAM policy statement as synthesized. */
export interface Statement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Condition?: unknown;
}

/**
 * An app with the project's feature flags and bundling skipped. CloudFormation's built-in template
 * validation costs seconds per file, so only the compliance test, which synthesizes as the app entry
 * does, turns it on.
 */
export function testApp(options: { validate?: boolean } = {}): App {
  return new App({
    context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: options.validate ?? false,
  });
}

/** Synthesizes one stack with `props`. */
export function synth(props: HeraldStackProps = {}): Synthesized {
  const stack = new HeraldStack(testApp(), 'Herald', props);
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, CfnJson>;
  const logicalId = (construct: IConstruct | undefined) => {
    if (!construct) throw new Error('no such construct');
    return stack.getLogicalId(construct.node.defaultChild as CfnResource);
  };
  const fn = (key: FunctionKey) => {
    const resource = resources[logicalId(stack.functions[key])];
    if (!resource) throw new Error(`no function ${key}`);
    return resource;
  };
  return {
    stack,
    template,
    logicalId,
    fn,
    env: (key) => fn(key).Properties.Environment?.Variables ?? {},
    statements: (key) => {
      const role = fn(key).Properties.Role['Fn::GetAtt'][0];
      return Object.values(resources)
        .filter((r) => r.Type === 'AWS::IAM::Policy')
        .filter((r) => r.Properties.Roles.some((ref: { Ref?: string }) => ref.Ref === role))
        .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
    },
  };
}

/** The actions of a statement as an array. */
export function actionsOf(statement: Statement): string[] {
  return Array.isArray(statement.Action) ? statement.Action : [statement.Action];
}

/** Whether any of `statements` allows `action` on a resource mentioning `logicalId` (any, if omitted). */
export function allows(statements: readonly Statement[], action: string, logicalId?: string): boolean {
  return statements.some(
    (statement) =>
      statement.Effect === 'Allow' &&
      actionsOf(statement).includes(action) &&
      (logicalId === undefined || JSON.stringify(statement.Resource).includes(`"${logicalId}"`)),
  );
}
