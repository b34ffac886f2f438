import { Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { GATEWAY_PROBLEMS } from '#http/problem/problem-types';
import { problemBody } from '#http/problem/render';

/**
 * The web ACL Herald puts in front of the API stage (prop `waf`, context `herald:waf` as JSON). The
 * stage's throttle (`apiThrottle`) is shared by every caller, organizations and anonymous clients alike,
 * and a request with no key or a made-up one still counts against it, so without a per-client limit one
 * address could starve every organization. Fixed cost (us-east-1 list prices): $5 a month for the web
 * ACL and $1 a month per rule (two by default), plus $0.60 per million requests inspected.
 */
export interface WafSettings {
  /** `false`: no web ACL, only the stage's throttle. @default true */
  readonly enabled?: boolean;
  /**
   * Requests one client IP address may send per `windowSeconds`; above it WAF answers `429` problem+json
   * until the address's rate falls below the limit again. At least 10, and below the stage's capacity over
   * the window (`apiThrottle.rateLimit × windowSeconds`), or one address could still take it all.
   * @default a fifth of the stage's capacity over the window: 3,000 per 5 minutes (10 requests a second,
   * one organization's default usage-plan rate) with the default 50 requests a second
   */
  readonly perIpLimit?: number;
  /** How far back WAF counts an address's requests: 60, 120, 300 or 600 seconds. @default 300 */
  readonly windowSeconds?: number;
  /**
   * Block addresses on AWS's Amazon IP reputation list (managed rule group: bots, scanners, known
   * attackers; 25 capacity units, no fee beyond the $1 rule).
   * @default true
   */
  readonly ipReputation?: boolean;
}

const WINDOWS = [60, 120, 300, 600];
const DEFAULT_WINDOW_SECONDS = 300;
/** The default per-IP limit is this share of the stage's throttle over the window. */
const DEFAULT_SHARE_OF_STAGE = 1 / 5;
/** AWS WAF's bounds of a rate-based rule's limit. */
const MIN_LIMIT = 10;
const MAX_LIMIT = 2_000_000_000;
const SETTINGS_KEYS = ['enabled', 'perIpLimit', 'windowSeconds', 'ipReputation'];
const THROTTLED_BODY_KEY = 'too-many-requests';

/** Settings with their defaults applied, checked. */
export interface ResolvedWaf {
  readonly perIpLimit: number;
  readonly windowSeconds: number;
  readonly ipReputation: boolean;
}

/**
 * Applies the defaults and checks the settings (they may come from JSON in the CDK context).
 *
 * @param stageRateLimit - the stage's steady-state requests per second
 * @throws Error naming the setting that is wrong
 */
export function resolveWaf(settings: WafSettings, stageRateLimit: number): ResolvedWaf {
  const unknown = Object.keys(settings).filter((key) => !SETTINGS_KEYS.includes(key));
  if (unknown.length > 0) {
    throw new Error(`waf: unknown setting ${unknown.join(', ')} (allowed: ${SETTINGS_KEYS.join(', ')})`);
  }
  const windowSeconds = settings.windowSeconds ?? DEFAULT_WINDOW_SECONDS;
  if (!WINDOWS.includes(windowSeconds)) {
    throw new Error(`waf.windowSeconds must be one of ${WINDOWS.join(', ')} (got ${windowSeconds})`);
  }
  const stageCapacity = stageRateLimit * windowSeconds;
  const perIpLimit =
    settings.perIpLimit ?? Math.max(MIN_LIMIT, Math.floor(stageCapacity * DEFAULT_SHARE_OF_STAGE));
  if (!Number.isInteger(perIpLimit) || perIpLimit < MIN_LIMIT || perIpLimit > MAX_LIMIT) {
    throw new Error(
      `waf.perIpLimit must be a whole number from ${MIN_LIMIT} to ${MAX_LIMIT} (got ${perIpLimit})`,
    );
  }
  if (perIpLimit >= stageCapacity) {
    throw new Error(
      `waf.perIpLimit (${perIpLimit}) must be below the stage's ${stageCapacity} requests per ` +
        `${windowSeconds} s (apiThrottle.rateLimit × windowSeconds): one address could still use up the API`,
    );
  }
  for (const flag of ['enabled', 'ipReputation'] as const) {
    if (settings[flag] !== undefined && typeof settings[flag] !== 'boolean') {
      throw new Error(`waf.${flag} must be true or false (got ${JSON.stringify(settings[flag])})`);
    }
  }
  return { perIpLimit, windowSeconds, ipReputation: settings.ipReputation ?? true };
}

/** Properties of {@link StageFirewall}. */
export interface StageFirewallProps {
  readonly stage: apigw.Stage;
  /** The stage's steady-state requests per second, which the default per-IP limit is a share of. */
  readonly stageRateLimit: number;
  readonly settings: WafSettings;
}

/**
 * A regional web ACL on the API stage: the Amazon IP reputation list (unless turned off), then a per-IP
 * rate-based rule answering `429` problem+json. No logging (cdk-nag's AwsSolutions does not ask for it; the
 * rules' CloudWatch metrics count blocks) and no sampled requests: a sample shows request headers, and
 * `Authorization` carries organizations' API keys.
 */
export class StageFirewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: StageFirewallProps) {
    super(scope, id);
    const waf = resolveWaf(props.settings, props.stageRateLimit);
    const prefix = Stack.of(this).stackName;
    const visibility = (name: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      metricName: `${prefix}-${name}`,
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: false,
    });
    const { instance: _requestId, ...throttled } = problemBody(
      GATEWAY_PROBLEMS.THROTTLED,
      '',
      `This address sent more than ${waf.perIpLimit} requests in ${waf.windowSeconds} s; retry later.`,
    );
    const rules: wafv2.CfnWebACL.RuleProperty[] = [];
    if (waf.ipReputation) {
      rules.push({
        name: 'amazon-ip-reputation',
        priority: rules.length,
        statement: {
          managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesAmazonIpReputationList' },
        },
        overrideAction: { none: {} },
        visibilityConfig: visibility('ip-reputation'),
      });
    }
    rules.push({
      name: 'per-ip-rate',
      priority: rules.length,
      statement: {
        rateBasedStatement: {
          aggregateKeyType: 'IP',
          limit: waf.perIpLimit,
          evaluationWindowSec: waf.windowSeconds,
        },
      },
      action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: THROTTLED_BODY_KEY } } },
      visibilityConfig: visibility('per-ip-rate'),
    });
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: 'Herald API: per-IP rate limit in front of the shared stage throttle',
      defaultAction: { allow: {} },
      customResponseBodies: {
        [THROTTLED_BODY_KEY]: { contentType: 'APPLICATION_JSON', content: JSON.stringify(throttled) },
      },
      rules,
      visibilityConfig: visibility('api'),
    });
    new wafv2.CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
