import { fileURLToPath } from 'node:url';
import { Duration, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import {
  type LogLevel as EsbuildLogLevel,
  NodejsFunction,
  OutputFormat,
  SourceMapMode,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct, type IConstruct } from 'constructs';
import { ESBUILD_OPTIONS, ESM_REQUIRE_BANNER, MAIN_FIELDS, NODE_TARGET } from '#config/bundling';
import type { FunctionSizing } from '#config/function-sizing';
import { heraldLogGroup, type LogSettings } from './log-group';
import type { FunctionNetwork } from './static-egress';
import { METRICS_NAMESPACE, SERVICE_NAME } from './telemetry';

/** Log level of the functions, for both Powertools and Lambda's log filtering. */
export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** Repository root: the lock file there pins esbuild's view of the dependencies. */
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Settings every Herald function shares. */
export interface HeraldFunctionDefaults extends LogSettings {
  readonly logLevel: LogLevel;
  /** Active X-Ray tracing. */
  readonly tracing: boolean;
}

/** Properties of a {@link HeraldFunction}. */
export interface HeraldFunctionProps extends HeraldFunctionDefaults {
  /** Absolute path of the handler module; it must export `handler`. */
  readonly entry: string;
  readonly sizing: FunctionSizing;
  /** A VPC to run in (the consumer behind static egress addresses). @default - none: Lambda's own network */
  readonly network?: FunctionNetwork | undefined;
}

/**
 * The one way Herald builds a Lambda function: Node 24 on arm64, a minified ESM bundle with the AWS
 * SDK inside (the runtime's SDK version is not pinned, the bundled one is) and source maps, JSON logs
 * into its own log group with a retention, and a role that can write only to that log group. Data
 * access is added per function by `bindTable`/`bindQueue`.
 */
export class HeraldFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: HeraldFunctionProps) {
    super(scope, id);
    this.logGroup = heraldLogGroup(this, 'Logs', props);
    // An own role instead of AWSLambdaBasicExecutionRole, whose logs rights cover every log group.
    const role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(role);

    this.fn = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      depsLockFilePath: `${PROJECT_ROOT}package-lock.json`,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.sizing.memoryMb,
      timeout: Duration.seconds(props.sizing.timeoutSeconds),
      description: props.sizing.reason,
      role,
      ...(props.network
        ? {
            vpc: props.network.vpc,
            vpcSubnets: props.network.subnets,
            securityGroups: [...props.network.securityGroups],
          }
        : {}),
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel[props.logLevel],
      // Platform START/REPORT lines carry duration and memory of each invocation: evidence worth keeping.
      systemLogLevelV2: lambda.SystemLogLevel.INFO,
      tracing: props.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        // Same level as Lambda's filter: a more verbose Powertools level would only be dropped by Lambda.
        POWERTOOLS_LOG_LEVEL: props.logLevel,
      },
      bundling: {
        // The same settings `npm run bench` builds with (lambdas/config/bundling.ts), so its cold starts are these.
        format: OutputFormat.ESM,
        banner: ESM_REQUIRE_BANNER,
        mainFields: MAIN_FIELDS,
        target: NODE_TARGET,
        minify: ESBUILD_OPTIONS.minify,
        sourceMap: ESBUILD_OPTIONS.sourcemap,
        sourceMapMode: SourceMapMode.DEFAULT,
        sourcesContent: ESBUILD_OPTIONS.sourcesContent,
        logLevel: ESBUILD_OPTIONS.logLevel as EsbuildLogLevel,
        bundleAwsSDK: true,
      },
    });
    if (props.network) {
      // What AWSLambdaVPCAccessExecutionRole grants, which CDK adds only to roles it creates itself.
      role.addToPolicy(
        new iam.PolicyStatement({
          actions: [
            'ec2:CreateNetworkInterface',
            'ec2:DescribeNetworkInterfaces',
            'ec2:DescribeSubnets',
            'ec2:DeleteNetworkInterface',
            'ec2:AssignPrivateIpAddresses',
            'ec2:UnassignPrivateIpAddresses',
          ],
          resources: ['*'],
        }),
      );
      acknowledgeUnscopedActions(this.fn, 'the network interface actions Lambda needs to run in a VPC');
    }
    if (props.tracing) {
      acknowledgeUnscopedActions(
        this.fn,
        'xray:PutTraceSegments and xray:PutTelemetryRecords (active tracing)',
      );
    }
  }
}

/**
 * Acknowledges cdk-nag's findings on `kms:GenerateDataKey*` and `kms:ReEncrypt*` in a function's
 * policy. CDK's grants for writing to a KMS-encrypted queue or table use these action families
 * (GenerateDataKey/WithoutPlaintext, ReEncryptFrom/To); the resource is Herald's one key.
 */
export function acknowledgeKeyActionFamilies(fn: lambda.IFunction): void {
  const policy = defaultPolicy(fn);
  for (const action of ['kms:GenerateDataKey*', 'kms:ReEncrypt*']) {
    Validations.of(policy).acknowledge({
      id: `AwsSolutions-IAM5[Action::${action}]`,
      reason: `${action} is the action family CDK grants for writing under a KMS key; the resource is Herald's key alone.`,
    });
  }
}

function defaultPolicy(fn: lambda.IFunction): IConstruct {
  const policy = fn.role?.node.tryFindChild('DefaultPolicy');
  if (!policy) throw new Error(`${fn.node.path} has no policy to acknowledge findings on`);
  return policy;
}

/**
 * Acknowledges cdk-nag's `Resource::*` finding on a function's policy for actions that support no
 * resource-level permissions, so IAM requires `*` for them. Every other right stays on named ARNs.
 */
export function acknowledgeUnscopedActions(fn: lambda.IFunction, actions: string): void {
  Validations.of(defaultPolicy(fn)).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: `${actions}: these actions support no resource-level permissions, so IAM requires Resource "*".`,
  });
}
