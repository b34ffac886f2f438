import * as logs from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import type { HealthSettings } from '#delivery/endpoint-health-rule';
import type { ApiCallers } from './api-callers';
import type { TableCapacity } from './events-table';
import type { LogLevel } from './herald-function';
import type { HeraldEncryption, HeraldStackProps, WebhookUrlPolicy } from './herald-stack-props';
import type { WafSettings } from './stage-firewall';
import type { EgressSettings } from './static-egress';

/** Prefix of every context key Herald reads (`cdk.json` or `-c herald:<name>=<value>`). */
export const CONTEXT_PREFIX = 'herald:';

/**
 * Reads the stack props from CDK context. Values from `-c` arrive as strings, values from `cdk.json`
 * keep their JSON type; both are accepted. Keys (after `herald:`): `stackName`, `retrySchedule`
 * (comma-separated seconds), `webhookUrlPolicy`, `acceptUnknownEventTypes` (`true`/`false`), `eventRetentionDays`, `encryption` (`aws-managed`,
 * `customer-managed` or a KMS key ARN), `consumerMaxConcurrency`, `alarmEmail`, `logLevel`,
 * `logRetentionDays`, `apiRateLimit` + `apiBurstLimit`, `orgRateLimit`, `orgBurstLimit`, `orgQuotaPerDay`, `domainName` + `certificateArn` (+
 * `hostedZoneId` + `hostedZoneName`, `disableDefaultEndpoint` `true`/`false`), `tableCapacity` (JSON of `TableCapacity`), `tracing`,
 * `stageName`, `corsAllowOrigins` (comma-separated), `executionLogLevel`, `webAclArn`, `waf` (JSON of
 * `WafSettings`, or `false`), `endpointHealth` (JSON of `HealthSettings`), `egress` (JSON of
 * `EgressSettings`, e.g. `{"staticIps":true,"azs":2}`), `publishers` and `operators` (comma-separated IAM
 * principal ARNs the API admits to its IAM routes, see `ApiCallers`).
 */
export function stackPropsFromContext(node: Node): HeraldStackProps & { stackName: string } {
  const raw = (name: string): unknown => node.tryGetContext(`${CONTEXT_PREFIX}${name}`);
  const str = (name: string): string | undefined => {
    const value = raw(name);
    return value === undefined || value === '' ? undefined : String(value);
  };
  const num = (name: string): number | undefined => {
    const value = str(name);
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (Number.isNaN(parsed)) throw new Error(`${CONTEXT_PREFIX}${name} must be a number (got ${value})`);
    return parsed;
  };
  const list = (name: string): string[] | undefined => {
    const value = raw(name);
    if (value === undefined || value === '') return undefined;
    return Array.isArray(value)
      ? value.map(String)
      : String(value)
          .split(',')
          .map((item) => item.trim());
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[]): T | undefined => {
    const value = str(name);
    if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
    throw new Error(`${CONTEXT_PREFIX}${name} must be one of ${allowed.join(', ')} (got ${value})`);
  };
  const bool = (name: string): boolean | undefined => {
    const value = oneOf(name, ['true', 'false'] as const);
    return value === undefined ? undefined : value === 'true';
  };

  const rateLimit = num('apiRateLimit');
  const burstLimit = num('apiBurstLimit');
  const domainName = str('domainName');
  const certificateArn = str('certificateArn');
  if ((rateLimit === undefined) !== (burstLimit === undefined)) {
    throw new Error(`${CONTEXT_PREFIX}apiRateLimit and apiBurstLimit go together`);
  }
  if ((domainName === undefined) !== (certificateArn === undefined)) {
    throw new Error(`${CONTEXT_PREFIX}domainName and certificateArn go together`);
  }
  const usage = {
    rateLimit: num('orgRateLimit'),
    burstLimit: num('orgBurstLimit'),
    quotaPerDay: num('orgQuotaPerDay'),
  };
  const orgUsage = Object.values(usage).some((value) => value !== undefined) ? usage : undefined;
  const hostedZoneId = str('hostedZoneId');
  const zoneName = str('hostedZoneName');
  const tracing = str('tracing');

  return {
    stackName: str('stackName') ?? 'Herald',
    retrySchedule: list('retrySchedule')?.map(Number),
    webhookUrlPolicy: oneOf<WebhookUrlPolicy>('webhookUrlPolicy', [
      'public-https',
      'allow-private',
      'allow-http',
      'allow-private-http',
    ]),
    acceptUnknownEventTypes: bool('acceptUnknownEventTypes'),
    eventRetentionDays: num('eventRetentionDays'),
    encryption: encryption(str('encryption')),
    consumerMaxConcurrency: num('consumerMaxConcurrency'),
    alarmEmail: str('alarmEmail'),
    logLevel: oneOf<LogLevel>('logLevel', ['DEBUG', 'INFO', 'WARN', 'ERROR']),
    logRetention: retention(num('logRetentionDays')),
    apiThrottle: rateLimit !== undefined && burstLimit !== undefined ? { rateLimit, burstLimit } : undefined,
    organizationUsage: orgUsage,
    customDomain:
      domainName && certificateArn
        ? {
            domainName,
            certificateArn,
            hostedZone: hostedZoneId && zoneName ? { hostedZoneId, zoneName } : undefined,
            disableDefaultEndpoint: oneOf('disableDefaultEndpoint', ['true', 'false'] as const) !== 'false',
          }
        : undefined,
    tableCapacity: json(raw('tableCapacity')) as TableCapacity | undefined,
    tracing: tracing === undefined ? undefined : tracing === 'true',
    stageName: str('stageName'),
    corsAllowOrigins: list('corsAllowOrigins'),
    executionLogLevel: oneOf('executionLogLevel', ['ERROR', 'INFO'] as const),
    webAclArn: str('webAclArn'),
    waf: wafSettings(json(raw('waf'))),
    endpointHealth: json(raw('endpointHealth')) as HealthSettings | undefined,
    egress: json(raw('egress')) as EgressSettings | undefined,
    callers: callers(list('publishers'), list('operators')),
  };
}

/** `herald:publishers` and `herald:operators`: only the lists given. */
function callers(publishers: string[] | undefined, operators: string[] | undefined): ApiCallers | undefined {
  if (publishers === undefined && operators === undefined) return undefined;
  return {
    ...(publishers === undefined ? {} : { publishers }),
    ...(operators === undefined ? {} : { operators }),
  };
}

/** A JSON value from the context: `-c` gives a string to parse, `cdk.json` the value itself. */
function json(value: unknown): unknown {
  if (value === undefined || value === '') return undefined;
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/** `herald:waf`: the settings object, or `true`/`false` for on with the defaults, or off. */
function wafSettings(value: unknown): WafSettings | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return { enabled: value };
  if (typeof value === 'object' && !Array.isArray(value)) return value as WafSettings;
  throw new Error(
    `${CONTEXT_PREFIX}waf must be a JSON object of WafSettings, true or false (got ${JSON.stringify(value)})`,
  );
}

function encryption(value: string | undefined): HeraldEncryption | undefined {
  if (value === undefined) return undefined;
  if (value === 'aws-managed' || value === 'customer-managed') return { kind: value };
  if (value.startsWith('arn:')) return { kind: 'customer-managed', keyArn: value };
  throw new Error(
    `${CONTEXT_PREFIX}encryption must be aws-managed, customer-managed or a key ARN (got ${value})`,
  );
}

function retention(days: number | undefined): logs.RetentionDays | undefined {
  if (days === undefined) return undefined;
  if (!Object.values(logs.RetentionDays).includes(days)) {
    throw new Error(`${CONTEXT_PREFIX}logRetentionDays must be a CloudWatch Logs retention (got ${days})`);
  }
  return days as logs.RetentionDays;
}
