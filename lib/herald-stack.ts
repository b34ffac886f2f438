import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { EnvName } from '#config/env';
import { FUNCTION_SIZING } from '#config/function-sizing';
import { FUNCTIONS, type FunctionKey, functionConstructId } from '#config/functions';
import { ORGANIZATION_USAGE_DEFAULTS, type OrganizationUsage } from '#config/limits';
import { API_ROUTES } from '#config/routes';
import { healthPolicyFrom } from '#delivery/endpoint-health-rule';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, parseRetrySchedule } from '#delivery/retry-rule';
import { IamCallers } from './api-callers';
import { bindQueue, bindTable } from './bindings';
import { tableInterface } from './cdk-interfaces';
import { HeraldDashboard } from './dashboard';
import { DeliveryPipeline } from './delivery-pipeline';
import { DeliveryQueues } from './delivery-queues';
import { EventsApi } from './events-api';
import { EventsTable } from './events-table';
import { FUNCTION_ACCESS } from './function-access';
import { HeraldFunction, type HeraldFunctionDefaults } from './herald-function';
import {
  checkRange,
  DEFAULT_API_THROTTLE,
  type HeraldStackProps,
  MIN_EVENT_RETENTION_DAYS,
} from './herald-stack-props';
import { NoticeTopic } from './notice-topic';
import { Observability } from './observability';
import { SecretsKey } from './secrets-key';
import { StaticEgress } from './static-egress';
import { TableSettings } from './table-settings';
import { allowUsageKeyRegistration } from './usage-plan-access';

const HANDLERS_DIR = fileURLToPath(new URL('../lambdas/handlers', import.meta.url));

/** The early retries are short: waiting an hour means consumers lag, whatever the schedule. */
const MIN_OLDEST_MESSAGE_ALARM = Duration.hours(1);

/**
 * Herald: the events table, the delivery queues, the REST API, the delivery pipeline (forwarder,
 * consumer, reconciler), alarms and a dashboard.
 */
export class HeraldStack extends Stack {
  readonly functions: Readonly<Record<FunctionKey, lambda.Function>>;
  readonly table: dynamodb.Table;
  readonly queues: DeliveryQueues;
  readonly api: EventsApi;
  /** The customer-managed key, when `encryption` asks for one. */
  readonly encryptionKey: kms.IKey | undefined;

  constructor(scope: Construct, id: string, props: HeraldStackProps = {}) {
    super(scope, id, props);
    // The consumer's own parser: what synth accepts, the cold start accepts.
    const retrySchedule = props.retrySchedule && parseRetrySchedule(props.retrySchedule.join(','));
    const retentionDays =
      props.eventRetentionDays === undefined
        ? undefined
        : checkRange('eventRetentionDays', props.eventRetentionDays, MIN_EVENT_RETENTION_DAYS, 36_500);
    const maxConcurrency = checkRange('consumerMaxConcurrency', props.consumerMaxConcurrency ?? 20, 2, 1000);
    const key = this.customerManagedKey(props);
    this.encryptionKey = key;

    this.table = new EventsTable(this, 'Events', {
      encryptionKey: key,
      capacity: props.tableCapacity,
      expireItems: retentionDays !== undefined,
    }).table;
    this.queues = new DeliveryQueues(this, 'Delivery', { encryptionKey: key });
    const { queues } = this;
    const table = tableInterface(this.table);

    const defaults: HeraldFunctionDefaults = {
      logLevel: props.logLevel ?? 'INFO',
      logRetention: props.logRetention ?? logs.RetentionDays.THREE_MONTHS,
      tracing: props.tracing ?? false,
      logKey: key,
    };
    // Fixed source addresses: only the functions that send webhooks (deliveries, test events) run behind them.
    const egress = props.egress?.staticIps
      ? new StaticEgress(this, 'Egress', {
          settings: props.egress,
          logRetention: defaults.logRetention,
          logKey: key,
        })
      : undefined;
    const functions = {} as Record<FunctionKey, lambda.Function>;
    for (const fnKey of Object.keys(FUNCTIONS) as FunctionKey[]) {
      const { fn } = new HeraldFunction(this, functionConstructId(fnKey), {
        ...defaults,
        entry: `${HANDLERS_DIR}/${FUNCTIONS[fnKey]}.ts`,
        sizing: FUNCTION_SIZING[fnKey],
        network: fnKey === 'consumer' || fnKey === 'sendTestEvent' ? egress?.networkOf(fnKey) : undefined,
      });
      const access = FUNCTION_ACCESS[fnKey];
      if (access.table) bindTable(fn, table, access.table);
      if (access.queue) bindQueue(fn, queues.queue, access.queue);
      functions[fnKey] = fn;
    }
    this.functions = functions;
    new SecretsKey(this, 'Secrets').bind(functions);
    const { consumer, reconciler, forwarder } = functions;
    // The webhook senders check URLs when they send; the functions that save them check them when saved.
    for (const fn of [consumer, functions.sendTestEvent, functions.administer, functions.manageSettings]) {
      fn.addEnvironment('WEBHOOK_URL_POLICY', props.webhookUrlPolicy ?? 'public-https');
    }
    // A transition to the event type catalog (off by default): only the publish function checks types.
    if (props.acceptUnknownEventTypes) {
      functions.publishEvent.addEnvironment('ACCEPT_UNKNOWN_EVENT_TYPES' satisfies EnvName, 'true');
    }
    // Only the consumer schedules retries; the reconciler re-queues without delay.
    if (retrySchedule) consumer.addEnvironment('RETRY_SCHEDULE', retrySchedule.join(','));
    if (props.endpointHealth) {
      healthPolicyFrom(props.endpointHealth);
      consumer.addEnvironment('ENDPOINT_HEALTH', JSON.stringify(props.endpointHealth));
    }

    new DeliveryPipeline(this, 'Pipeline', {
      table,
      queues,
      forwarder,
      consumer,
      reconciler,
      consumerMaxConcurrency: maxConcurrency,
    });

    this.api = new EventsApi(this, 'Api', {
      functions,
      stageName: props.stageName ?? 'v1',
      throttle: props.apiThrottle ?? DEFAULT_API_THROTTLE,
      organizationUsage: organizationUsage(props),
      logRetention: defaults.logRetention,
      logKey: key,
      tracing: defaults.tracing,
      executionLogLevel: props.executionLogLevel,
      corsAllowOrigins: props.corsAllowOrigins,
      customDomain: props.customDomain,
      webAclArn: props.webAclArn,
      waf: props.waf,
    });
    const { api } = this;
    const callers = new IamCallers(this, 'Callers', { api: api.api, callers: props.callers ?? {} });
    // Written after the API exists: the settings item also names the usage plan (see usage-keys.ts).
    new TableSettings(this, 'Settings', {
      table,
      eventRetentionDays: retentionDays,
      usagePlanId: api.usagePlan.usagePlanId,
      logRetention: props.logRetention ?? logs.RetentionDays.THREE_MONTHS,
      logKey: key,
    });
    allowUsageKeyRegistration(this, functions.administer, api.usagePlan);
    // Without a custom domain the handlers derive the base URL from the request; the stage URL
    // cannot be passed in anyway (the API depends on the functions, not the other way round).
    if (props.customDomain) {
      for (const fnKey of new Set(API_ROUTES.map((route) => route.fn))) {
        functions[fnKey].addEnvironment('PUBLIC_BASE_URL', api.publicBaseUrl);
      }
    }
    // The consumer serves no route, so it may take the stage URL: a notice's body links to the API.
    consumer.addEnvironment('PUBLIC_BASE_URL', api.publicBaseUrl);

    const observability = new Observability(this, 'Observability', {
      encryptionKey: key,
      alarmEmail: props.alarmEmail,
      queues,
      api: api.api,
      forwarder,
      consumer,
      reconciler,
      noticeSummary: functions.noticeSummary,
      oldestMessageAlarmAge: oldestMessageAlarmAge(retrySchedule ?? DEFAULT_RETRY_SCHEDULE_SECONDS),
    });
    const notices = new NoticeTopic(this, 'Notices', {
      encryptionKey: key,
      alarmEmail: props.alarmEmail,
      functions,
      access: FUNCTION_ACCESS,
      summary: functions.noticeSummary,
    });
    new HeraldDashboard(this, 'Dashboard', {
      queues,
      api: api.api,
      functions: new Map(Object.entries(functions)),
      forwarder,
      consumer,
      alarms: observability.alarms,
    });

    new CfnOutput(this, 'ApiUrl', { value: api.publicBaseUrl, description: 'Base URL of the events API' });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'QueueUrl', { value: queues.queue.queueUrl });
    new CfnOutput(this, 'DeadLetterQueueUrl', { value: queues.deadLetterQueue.queueUrl });
    new CfnOutput(this, 'AlarmTopicArn', { value: observability.topic.topicArn });
    new CfnOutput(this, 'NoticeTopicArn', {
      value: notices.topic.topicArn,
      description:
        "The platform team's operational notices, one summary a minute at most (subscribe more addresses here)",
    });
    new CfnOutput(this, 'UsagePlanId', {
      value: this.api.usagePlan.usagePlanId,
      description: 'Usage plan of the organizations (each one registered when created; herald org usage-key)',
    });
    for (const [kind, role] of Object.entries(callers.roles)) {
      const name = kind === 'publishers' ? 'Publisher' : 'Operator';
      new CfnOutput(this, `${name}RoleArn`, {
        value: role.roleArn,
        description: `Role the API admits as its ${kind} (assume it to call those routes; herald:${kind} names others instead)`,
      });
    }
    if (api.webAcl) {
      new CfnOutput(this, 'WebAclArn', {
        value: api.webAcl.attrArn,
        description:
          "Herald's web ACL on the API stage (per-IP and per-key rate limits; its metrics count blocked requests)",
      });
    }
    if (retentionDays !== undefined) {
      new CfnOutput(this, 'EventRetentionDays', {
        value: String(retentionDays),
        description: 'Days until events expire; publishers read it from the table (SETTINGS item)',
      });
    }
  }

  private customerManagedKey(props: HeraldStackProps): kms.IKey | undefined {
    const encryption = props.encryption ?? { kind: 'aws-managed' };
    if (encryption.kind === 'aws-managed') return undefined;
    if (encryption.keyArn) return kms.Key.fromKeyArn(this, 'Key', encryption.keyArn);
    const key = new kms.Key(this, 'Key', {
      description: 'Herald: events table, delivery queues, log groups and alarm topic',
      enableKeyRotation: true,
      // Deleting the key would make the retained table and its backups unreadable.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    allowLogGroups(key, this);
    return key;
  }
}

/** The per-organization usage of the props, defaults filled in, each a whole number of at least 1. */
function organizationUsage(props: HeraldStackProps): OrganizationUsage {
  const given = props.organizationUsage ?? {};
  const value = (name: keyof OrganizationUsage) =>
    checkRange(
      `organizationUsage.${name}`,
      given[name] ?? ORGANIZATION_USAGE_DEFAULTS[name],
      1,
      1_000_000_000,
    );
  return {
    rateLimit: value('rateLimit'),
    burstLimit: value('burstLimit'),
    quotaPerDay: value('quotaPerDay'),
  };
}

/**
 * Lets CloudWatch Logs encrypt and read this account's log groups in this region with `key` (an imported
 * key's own policy must say the same; AWS documents the statement under "Encrypt log data in CloudWatch
 * Logs using AWS KMS").
 */
function allowLogGroups(key: kms.Key, stack: Stack): void {
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal(`logs.${stack.region}.amazonaws.com`)],
      actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
      resources: ['*'],
      conditions: {
        ArnLike: {
          'kms:EncryptionContext:aws:logs:arn': `arn:${stack.partition}:logs:${stack.region}:${stack.account}:log-group:*`,
        },
      },
    }),
  );
}

/**
 * SQS leaves messages received three times or more out of the oldest-message age, so only the first
 * two waits count: the alarm allows them plus 15 minutes, and at least an hour.
 */
function oldestMessageAlarmAge(schedule: readonly number[]): Duration {
  const early = (schedule[0] ?? 0) + (schedule[1] ?? 0) + 15 * 60;
  return Duration.seconds(Math.max(MIN_OLDEST_MESSAGE_ALARM.toSeconds(), early));
}
