import { Stack, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as targets from 'aws-cdk-lib/aws-route53-targets';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { FunctionKey } from '#config/functions';
import type { OrganizationUsage } from '#config/limits';
import { accessLogFormat, authorizerFailureFilter } from './access-log';
import { addApiRoutes } from './api-routes';
import { addGatewayProblems } from './gateway-problems';
import { heraldLogGroup, type LogSettings } from './log-group';
import { StageFirewall, type WafSettings } from './stage-firewall';

/** Stage-wide request rate limits (token bucket), applied to every method. */
export interface ApiThrottle {
  /** Steady-state requests per second. */
  readonly rateLimit: number;
  /** Requests allowed in a burst above the rate. */
  readonly burstLimit: number;
}

/** A custom domain in front of the API; the certificate must be in the stack's region. */
export interface CustomDomain {
  /** Lower-case host name, e.g. `events.example.com`. */
  readonly domainName: string;
  /** ACM certificate covering `domainName`. */
  readonly certificateArn: string;
  /** Zone in which to create the alias A record. @default - no record; create it yourself */
  readonly hostedZone?: { readonly hostedZoneId: string; readonly zoneName: string } | undefined;
  /**
   * Refuse calls to the default `execute-api` host, so every caller goes through the domain and its
   * TLS policy. @default true
   */
  readonly disableDefaultEndpoint?: boolean;
}

/** Properties of {@link EventsApi}. */
export interface EventsApiProps extends LogSettings {
  /** Functions by key; the API uses the ones `API_ROUTES` names. */
  readonly functions: Readonly<Record<FunctionKey, lambda.IFunction>>;
  readonly stageName: string;
  readonly throttle: ApiThrottle;
  /** Each organization's own throttle and quota (usage plan keyed by the organization id). */
  readonly organizationUsage: OrganizationUsage;
  readonly tracing: boolean;
  /** API Gateway execution logs; needs the account's API Gateway CloudWatch role. */
  readonly executionLogLevel?: 'ERROR' | 'INFO' | undefined;
  /** Origins allowed by CORS preflights. */
  readonly corsAllowOrigins?: readonly string[] | undefined;
  readonly customDomain?: CustomDomain | undefined;
  /** An AWS WAF web ACL of your own to associate with the stage, instead of the one Herald creates. */
  readonly webAclArn?: string | undefined;
  /** The web ACL Herald creates when no `webAclArn` is given (see {@link WafSettings}). */
  readonly waf?: WafSettings | undefined;
}

/** TLS 1.3 and 1.2 with forward secrecy only, on the API and on a custom domain alike. */
const API_SECURITY_POLICY = apigw.SecurityPolicy.TLS13_1_2_PFS_PQ_2025_09;

/** The REST API of Herald (see docs/design.md for why REST and not HTTP API). */
export class EventsApi extends Construct {
  readonly api: apigw.RestApi;
  readonly accessLogs: logs.LogGroup;
  /** The organizations' usage plan: each organization's API key (value = its id) belongs to it. */
  readonly usagePlan: apigw.UsagePlan;
  /** `https://<custom domain>` when one is configured, else the stage URL. */
  readonly publicBaseUrl: string;
  /** The web ACL Herald created on the stage; undefined with `webAclArn` or `waf.enabled: false`. */
  readonly webAcl: wafv2.CfnWebACL | undefined;

  constructor(scope: Construct, id: string, props: EventsApiProps) {
    super(scope, id);
    this.accessLogs = heraldLogGroup(this, 'AccessLogs', props);
    this.api = new apigw.RestApi(this, 'Api', {
      // The ApiName dimension of API Gateway's metrics: unique per stack, so deployments stay apart.
      restApiName: Stack.of(this).stackName,
      description: 'Herald events and webhooks API',
      endpointConfiguration: { types: [apigw.EndpointType.REGIONAL] },
      // The API Gateway CloudWatch role is an account-wide singleton; a stack must not own it.
      cloudWatchRole: false,
      // The authorizer names the usage-plan key (the organization id), so callers send no x-api-key.
      apiKeySourceType: apigw.ApiKeySourceType.AUTHORIZER,
      disableExecuteApiEndpoint: props.customDomain
        ? (props.customDomain.disableDefaultEndpoint ?? true)
        : false,
      deployOptions: {
        stageName: props.stageName,
        throttlingRateLimit: props.throttle.rateLimit,
        throttlingBurstLimit: props.throttle.burstLimit,
        tracingEnabled: props.tracing,
        accessLogDestination: new apigw.LogGroupLogDestination(this.accessLogs),
        accessLogFormat: accessLogFormat(),
        loggingLevel: props.executionLogLevel
          ? apigw.MethodLoggingLevel[props.executionLogLevel]
          : apigw.MethodLoggingLevel.OFF,
        // Never log request or response bodies: they carry payment data.
        dataTraceEnabled: false,
      },
    });
    // RestApi adds an `Endpoint` output (the execute-api URL) of its own. The stack's `ApiUrl` output is
    // the one to use (it follows a custom domain, with which the execute-api endpoint is off by default),
    // so the duplicate goes.
    this.api.node.tryRemoveChild('Endpoint');
    // The default endpoint's TLS floor: TLS 1.2 (forward secrecy only) instead of the legacy TLS_1_0.
    // An enhanced policy needs an endpoint access mode; STRICT also checks SNI against the Host header.
    const cfnApi = this.api.node.defaultChild as apigw.CfnRestApi;
    cfnApi.securityPolicy = API_SECURITY_POLICY;
    cfnApi.endpointAccessMode = apigw.EndpointAccessMode.STRICT;
    authorizerFailureFilter(this, this.accessLogs);
    addGatewayProblems(this.api);
    const usage = props.organizationUsage;
    this.usagePlan = this.api.addUsagePlan('OrganizationPlan', {
      description: 'Per-organization throttle and quota; key value = organization id',
      throttle: { rateLimit: usage.rateLimit, burstLimit: usage.burstLimit },
      quota: { limit: usage.quotaPerDay, period: apigw.Period.DAY },
      // The stage names its API: CDK takes the API's id from it.
      apiStages: [{ stage: this.api.deploymentStage }],
    });
    addApiRoutes(this, this.api, props);
    this.publicBaseUrl = props.customDomain ? `https://${props.customDomain.domainName}` : this.api.url;
    if (props.customDomain) this.addCustomDomain(props.customDomain);
    this.webAcl = this.protectStage(props);
  }

  private addCustomDomain(domain: CustomDomain): void {
    const domainName = this.api.addDomainName('Domain', {
      domainName: domain.domainName,
      certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
      endpointType: apigw.EndpointType.REGIONAL,
      securityPolicy: API_SECURITY_POLICY,
      endpointAccessMode: apigw.EndpointAccessMode.STRICT,
    });
    if (domain.hostedZone) {
      new route53.ARecord(this, 'DomainAlias', {
        zone: route53.HostedZone.fromHostedZoneAttributes(this, 'Zone', domain.hostedZone),
        recordName: domain.domainName,
        target: route53.RecordTarget.fromAlias(new targets.ApiGatewayDomain(domainName)),
      });
    }
  }

  /** Puts a web ACL on the stage (yours, or Herald's unless turned off); returns Herald's. */
  private protectStage(props: EventsApiProps): wafv2.CfnWebACL | undefined {
    const stage = this.api.deploymentStage;
    let webAcl: wafv2.CfnWebACL | undefined;
    if (props.webAclArn) {
      if (props.waf) {
        throw new Error('webAclArn and waf exclude each other: waf configures the web ACL Herald creates');
      }
      new wafv2.CfnWebACLAssociation(this, 'WebAcl', {
        resourceArn: stage.stageArn,
        webAclArn: props.webAclArn,
      });
    } else if (props.waf?.enabled === false) {
      Validations.of(stage).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason:
          'The web ACL was turned off (waf.enabled false), e.g. because Firewall Manager attaches one. ' +
          'The stage still throttles every method, but one address can then use up that shared throttle.',
      });
    } else {
      webAcl = new StageFirewall(this, 'Firewall', {
        stage,
        stageRateLimit: props.throttle.rateLimit,
        organizationRateLimit: props.organizationUsage.rateLimit,
        settings: props.waf ?? {},
      }).webAcl;
    }
    if (!props.executionLogLevel) {
      Validations.of(stage).acknowledge({
        id: 'AwsSolutions-APIG6',
        reason:
          'Execution logs need the account-wide API Gateway CloudWatch role, which this stack must not own; ' +
          'JSON access logs record every request. Set executionLogLevel once the account has the role.',
      });
    }
    return webAcl;
  }
}
