import { Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { GATEWAY_PROBLEMS } from '#http/problem/problem-types';
import { problemBody } from '#http/problem/render';

/**
 * The web ACL Herald puts in front of the API stage (prop `waf`, context `herald:waf` as JSON). The
 * stage's throttle (`apiThrottle`) is one bucket shared by every caller, and a request counts against it
 * before the authorizer or an organization's usage plan has looked at it, so the plans alone cannot keep
 * one caller from draining it. Two rate rules stop traffic at the edge, before that bucket: per API key
 * (one organization's client, from however many addresses, above its organization's plan rate) and per
 * address (what no organization's plan meters: no key, a made-up key per request, SigV4 calls, the
 * portal). Fixed cost (us-east-1 list prices): $5 a month for the web ACL and $1 a month per rule (three
 * by default), plus $0.60 per million requests inspected.
 */
export interface WafSettings {
  /** `false`: no web ACL, only the stage's throttle. @default true */
  readonly enabled?: boolean;
  /**
   * Requests one client IP address may send per `windowSeconds`; above it WAF answers `429` problem+json
   * until the address's rate falls below the limit again. At least 10, and below the stage's capacity over
   * the window (`apiThrottle.rateLimit × windowSeconds`), or one address could still take it all.
   * @default one organization's plan rate over the window (3,000 per 5 minutes: 10 requests a second),
   * at most a fifth of the stage's capacity
   */
  readonly perIpLimit?: number;
  /**
   * Requests one API key (`Authorization: Bearer …`) may send per `windowSeconds`, from any number of
   * addresses; above it WAF answers `429` problem+json. At least 10 and below the stage's capacity over
   * the window. Every key of an organization shares its organization's usage plan, so a key never needs
   * more than the plan's rate.
   * @default as `perIpLimit`: the organization plan's rate over the window, at most a fifth of the stage's
   */
  readonly perKeyLimit?: number;
  /** How far back WAF counts an address's or a key's requests: 60, 120, 300 or 600 seconds. @default 300 */
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
/** The default limits never exceed this share of the stage's throttle over the window. */
const MAX_DEFAULT_SHARE_OF_STAGE = 1 / 5;
/** AWS WAF's bounds of a rate-based rule's limit. */
const MIN_LIMIT = 10;
const MAX_LIMIT = 2_000_000_000;
const SETTINGS_KEYS = ['enabled', 'perIpLimit', 'perKeyLimit', 'windowSeconds', 'ipReputation'];
const IP_THROTTLED_BODY_KEY = 'too-many-requests';
const KEY_THROTTLED_BODY_KEY = 'too-many-requests-key';
/** How an organization's API key starts (`BEARER_PATTERN`): the requests the per-key rule counts. */
const BEARER_PREFIX = 'Bearer ';

/** Settings with their defaults applied, checked. */
export interface ResolvedWaf {
  readonly perIpLimit: number;
  readonly perKeyLimit: number;
  readonly windowSeconds: number;
  readonly ipReputation: boolean;
}

/** The stage's and an organization's steady-state requests per second, which the limits derive from. */
export interface FirewallRates {
  readonly stageRateLimit: number;
  readonly organizationRateLimit: number;
}

/**
 * Applies the defaults and checks the settings (they may come from JSON in the CDK context).
 *
 * @throws Error naming the setting that is wrong
 */
export function resolveWaf(settings: WafSettings, rates: FirewallRates): ResolvedWaf {
  const unknown = Object.keys(settings).filter((key) => !SETTINGS_KEYS.includes(key));
  if (unknown.length > 0) {
    throw new Error(`waf: unknown setting ${unknown.join(', ')} (allowed: ${SETTINGS_KEYS.join(', ')})`);
  }
  const windowSeconds = settings.windowSeconds ?? DEFAULT_WINDOW_SECONDS;
  if (!WINDOWS.includes(windowSeconds)) {
    throw new Error(`waf.windowSeconds must be one of ${WINDOWS.join(', ')} (got ${windowSeconds})`);
  }
  const stageCapacity = rates.stageRateLimit * windowSeconds;
  const byDefault = Math.max(
    MIN_LIMIT,
    Math.floor(
      Math.min(rates.organizationRateLimit * windowSeconds, stageCapacity * MAX_DEFAULT_SHARE_OF_STAGE),
    ),
  );
  const limit = (name: 'perIpLimit' | 'perKeyLimit', who: string): number => {
    const value = settings[name] ?? byDefault;
    if (!Number.isInteger(value) || value < MIN_LIMIT || value > MAX_LIMIT) {
      throw new Error(`waf.${name} must be a whole number from ${MIN_LIMIT} to ${MAX_LIMIT} (got ${value})`);
    }
    if (value >= stageCapacity) {
      throw new Error(
        `waf.${name} (${value}) must be below the stage's ${stageCapacity} requests per ` +
          `${windowSeconds} s (apiThrottle.rateLimit × windowSeconds): ${who} could still use up the API`,
      );
    }
    return value;
  };
  const perIpLimit = limit('perIpLimit', 'one address');
  const perKeyLimit = limit('perKeyLimit', 'one API key');
  for (const flag of ['enabled', 'ipReputation'] as const) {
    if (settings[flag] !== undefined && typeof settings[flag] !== 'boolean') {
      throw new Error(`waf.${flag} must be true or false (got ${JSON.stringify(settings[flag])})`);
    }
  }
  return { perIpLimit, perKeyLimit, windowSeconds, ipReputation: settings.ipReputation ?? true };
}

/** Properties of {@link StageFirewall}. */
export interface StageFirewallProps extends FirewallRates {
  readonly stage: apigw.Stage;
  readonly settings: WafSettings;
}

/**
 * A regional web ACL on the API stage: the Amazon IP reputation list (unless turned off), then a per-IP
 * and a per-API-key rate-based rule, each answering `429` problem+json. No logging (cdk-nag's AwsSolutions
 * does not ask for it; the rules' CloudWatch metrics count blocks) and no sampled requests: a sample shows
 * request headers, and `Authorization` carries organizations' API keys.
 */
export class StageFirewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: StageFirewallProps) {
    super(scope, id);
    const waf = resolveWaf(props.settings, props);
    const prefix = Stack.of(this).stackName;
    const visibility = (name: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      metricName: `${prefix}-${name}`,
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: false,
    });
    const throttled = (detail: string) => {
      const { instance: _requestId, ...body } = problemBody(GATEWAY_PROBLEMS.THROTTLED, '', detail);
      return { contentType: 'APPLICATION_JSON', content: JSON.stringify(body) };
    };
    const block = (bodyKey: string): wafv2.CfnWebACL.RuleActionProperty => ({
      block: { customResponse: { responseCode: 429, customResponseBodyKey: bodyKey } },
    });
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
      action: block(IP_THROTTLED_BODY_KEY),
      visibilityConfig: visibility('per-ip-rate'),
    });
    rules.push({
      name: 'per-key-rate',
      priority: rules.length,
      statement: {
        rateBasedStatement: {
          // Counted per key value (WAF exposes no custom key's value, and sampling and logging are off);
          // only `Bearer` requests: a SigV4 header differs on every request and would never add up.
          aggregateKeyType: 'CUSTOM_KEYS',
          customKeys: [
            { header: { name: 'authorization', textTransformations: [{ priority: 0, type: 'NONE' }] } },
          ],
          limit: waf.perKeyLimit,
          evaluationWindowSec: waf.windowSeconds,
          scopeDownStatement: {
            byteMatchStatement: {
              fieldToMatch: { singleHeader: { Name: 'authorization' } },
              positionalConstraint: 'STARTS_WITH',
              searchString: BEARER_PREFIX,
              textTransformations: [{ priority: 0, type: 'NONE' }],
            },
          },
        },
      },
      action: block(KEY_THROTTLED_BODY_KEY),
      visibilityConfig: visibility('per-key-rate'),
    });
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: 'Herald API: per-IP and per-API-key rate limits in front of the shared stage throttle',
      defaultAction: { allow: {} },
      customResponseBodies: {
        [IP_THROTTLED_BODY_KEY]: throttled(
          `This address sent more than ${waf.perIpLimit} requests in ${waf.windowSeconds} s; retry later.`,
        ),
        [KEY_THROTTLED_BODY_KEY]: throttled(
          `This API key sent more than ${waf.perKeyLimit} requests in ${waf.windowSeconds} s; retry later.`,
        ),
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
