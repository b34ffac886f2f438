import type { StackProps } from 'aws-cdk-lib';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { QUEUE_RETENTION_SECONDS } from '#config/delivery';
import type { OrganizationUsage } from '#config/limits';
import type { HealthSettings } from '#delivery/endpoint-health-rule';
import type { UrlPolicy } from '#domain/webhook-url';
import type { ApiCallers } from './api-callers';
import type { ApiThrottle, CustomDomain } from './events-api';
import type { TableCapacity } from './events-table';
import type { LogLevel } from './herald-function';
import type { WafSettings } from './stage-firewall';
import type { EgressSettings } from './static-egress';

/**
 * Which webhook URLs the consumer delivers to (env `WEBHOOK_URL_POLICY`, see
 * `lambdas/domain/webhook-url.ts`). `public-https` refuses private, loopback and link-local addresses
 * (no SSRF into the VPC or the metadata service) and plain HTTP; the others relax one or both for
 * receivers inside a private network. `local` (loopback) is for the emulators only.
 */
export type WebhookUrlPolicy = Exclude<UrlPolicy, 'local'>;

/**
 * Encryption at rest of the table, the queues and the alarm topic.
 * - `aws-managed`: the AWS-managed DynamoDB key, SQS-managed SSE, an unencrypted alarm topic (its
 *   messages are alarm state changes only; CloudWatch cannot publish to a topic under `aws/sns`).
 * - `customer-managed`: one KMS key for all three. The stack creates one (rotated yearly, retained on
 *   deletion) unless `keyArn` names an existing key, whose policy must let IAM policies of the account
 *   grant its use and let `cloudwatch.amazonaws.com` use it (kms:Decrypt, kms:GenerateDataKey*) for
 *   the alarm topic.
 */
export type HeraldEncryption =
  | { readonly kind: 'aws-managed' }
  | { readonly kind: 'customer-managed'; readonly keyArn?: string };

/** Properties of the Herald stack. Every property is optional; the defaults are production-ready. */
export interface HeraldStackProps extends StackProps {
  /**
   * Seconds between delivery attempts: 19 whole numbers for the waits before attempts 2 to 20, never
   * decreasing, each at most 12 h (SQS's longest visibility timeout). Checked at synth by the parser
   * the consumer itself uses, and passed as env `RETRY_SCHEDULE`.
   * @default - unset: the handlers' `DEFAULT_RETRY_SCHEDULE_SECONDS` (10 s rising to 12 h, about 54 h)
   */
  readonly retrySchedule?: readonly number[] | undefined;
  /** @default 'public-https' */
  readonly webhookUrlPolicy?: WebhookUrlPolicy | undefined;
  /**
   * A transition to the event type catalog: `POST /events` (and each batch entry) also accepts types the
   * catalog does not hold, their payloads only checked to be JSON objects and their events recorded without
   * a `type_version`, so a running gateway that publishes its own type names keeps working while it moves
   * to the catalog's (env `ACCEPT_UNKNOWN_EVENT_TYPES` of the publish function; the library's
   * `acceptUnknownEventTypes`). Types of the catalog are validated either way.
   * @default false: a type outside the catalog answers 422
   */
  readonly acceptUnknownEventTypes?: boolean | undefined;
  /**
   * Days after which DynamoDB deletes an event with its attempts (they live in the event item): the
   * table's TTL on `expires_at` is switched on, the stack writes the value into the table's settings
   * item at every deployment, and every publisher (`createPublisher`, `herald publish`) reads it once and
   * stamps `expires_at` on each event it publishes. At least 14 days
   * (the queue retention), so no event expires while a delivery for it may still be queued.
   * @default - unset: events are kept until deleted otherwise, and TTL is off
   */
  readonly eventRetentionDays?: number | undefined;
  /** @default { kind: 'aws-managed' } */
  readonly encryption?: HeraldEncryption | undefined;
  /**
   * Most concurrent consumer invocations (2–1000), each delivering up to 10 webhooks at once. Bounds
   * the load on receivers and keeps the consumer from taking the account's concurrency from the API.
   * @default 20
   */
  readonly consumerMaxConcurrency?: number | undefined;
  /**
   * Endpoint health and circuit breaking, passed to the consumer as env `ENDPOINT_HEALTH` and checked at
   * synth by the parser the consumer uses: `failureThreshold` (consecutive failures that open the
   * circuit, default 5), `openBaseSeconds` / `openMaxSeconds` (first and longest open period, 30 s and
   * 900 s), `slowMs` (a success slower than this degrades the endpoint, 2000), `concurrency` (deliveries a
   * degraded endpoint may hold at once across all consumers, 2), `autoDisableAfterSeconds` (an endpoint
   * failing continuously this long is disabled, 432000 = 5 days).
   * @default - unset: those defaults
   */
  readonly endpointHealth?: HealthSettings | undefined;
  /** Address subscribed to the alarm topic (confirmation needed). @default - no subscription */
  readonly alarmEmail?: string | undefined;
  /** Application log level of every function. @default 'INFO' */
  readonly logLevel?: LogLevel | undefined;
  /** Retention of function logs and API access logs. @default RetentionDays.THREE_MONTHS */
  readonly logRetention?: logs.RetentionDays | undefined;
  /**
   * Stage-wide throttling: one bucket every caller shares, a tenth of the account's regional 10,000
   * requests per second. It bounds what the API may cost in all; fairness between organizations comes
   * from their usage plans and the web ACL's per-key and per-address limits (see `waf`), so keep it
   * above `MAX_API_KEYS_PER_ORG` (50) × `organizationUsage.rateLimit`, or one organization using all its
   * keys at once could fill it.
   * @default DEFAULT_API_THROTTLE: { rateLimit: 1000, burstLimit: 2000 }
   */
  readonly apiThrottle?: ApiThrottle | undefined;
  /**
   * Each organization's own throttle and daily quota (an API Gateway usage plan keyed by the authorizer's
   * usage identifier, the organization id), inside the stage-wide `apiThrottle`. Answers 429
   * problem+json when exceeded. Every organization needs an API key of the plan whose value is its id
   * (`herald org usage-key` registers one; see `docs/operating.md`).
   * @default ORGANIZATION_USAGE_DEFAULTS: 10 rps, burst 20, 100,000 requests a day
   */
  readonly organizationUsage?:
    | { readonly [K in keyof OrganizationUsage]?: OrganizationUsage[K] | undefined }
    | undefined;
  /**
   * Who may call the IAM (SigV4) routes: `publishers` (`POST /events`, `/events/batch`) and `operators`
   * (`/admin/…`, the CLI), as IAM principal ARNs the API's resource policy admits; every other principal is
   * denied there, whatever its IAM policy allows. A list left out gets a role of its own (outputs `PublisherRoleArn`,
   * `OperatorRoleArn`) that principals of the account may assume when their IAM policy lets them.
   * @default - the two roles
   */
  readonly callers?: ApiCallers | undefined;
  /** Custom domain; also sets env `PUBLIC_BASE_URL` of the API functions. @default - none */
  readonly customDomain?: CustomDomain | undefined;
  /** Throughput mode of the events table (see `TableCapacity` for the costs). @default { mode: 'on-demand' } */
  readonly tableCapacity?: TableCapacity | undefined;
  /** Active X-Ray tracing of the API stage and the functions. @default false */
  readonly tracing?: boolean | undefined;
  /** Name of the API stage, the first path segment of the default endpoint. @default 'v1' */
  readonly stageName?: string | undefined;
  /** Origins allowed by CORS. @default - no CORS */
  readonly corsAllowOrigins?: readonly string[] | undefined;
  /** API Gateway execution logs (needs the account's API Gateway CloudWatch role). @default - off */
  readonly executionLogLevel?: 'ERROR' | 'INFO' | undefined;
  /**
   * An AWS WAF web ACL (regional) of your own to associate with the API stage; Herald then creates none
   * (and `waf` must be unset). @default - Herald's own web ACL (see `waf`)
   */
  readonly webAclArn?: string | undefined;
  /**
   * The web ACL Herald creates on the API stage unless `webAclArn` is given: per-API-key and per-IP rate
   * limits in front of the stage throttle that every organization shares, and the Amazon IP reputation
   * list. `{ enabled: false }` turns it off. About $8 a month plus $0.60 per million requests (see
   * `WafSettings`).
   * @default { enabled: true, perIpLimit and perKeyLimit: one organization's plan rate over the window (3,000), windowSeconds: 300, ipReputation: true }
   */
  readonly waf?: WafSettings | undefined;
  /**
   * Fixed source addresses for webhooks: `{ staticIps: true, azs: 2 }` runs the consumer in private
   * subnets behind one NAT gateway and Elastic IP per AZ (output `EgressIps`), with endpoints for
   * DynamoDB, SQS and KMS so AWS traffic bypasses the NAT gateways. About $102 a month with 2 AZs before
   * data (see `docs/deploying.md`, Configuration). Changing the AZs replaces addresses receivers allow-list.
   * @default - off: webhooks come from Lambda's shared addresses
   */
  readonly egress?: EgressSettings | undefined;
}

/**
 * The stage throttle's default: twice what one organization can send through the web ACL with all of
 * its keys (50 keys × 10 requests a second, the default plan rate), so one organization, however it
 * spreads its calls over keys and addresses, never takes more than half of it; and a hundred addresses
 * at the per-address limit to fill it with traffic no plan meters.
 */
export const DEFAULT_API_THROTTLE: ApiThrottle = { rateLimit: 1000, burstLimit: 2000 };

/** Smallest `eventRetentionDays`: the queue retention. */
export const MIN_EVENT_RETENTION_DAYS = QUEUE_RETENTION_SECONDS / 86_400;

/** Throws unless `value` is a whole number within `[min, max]`. */
export function checkRange(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got ${value})`);
  }
  return value;
}
