import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { DELIVERY_METRICS } from '#config/telemetry';
import { CERTIFICATE_WARNING_DAYS } from '#domain/endpoint-security/client-certificate';
import type { DeliveryQueues } from './delivery-queues';
import { AUTHORIZER_FAILURES_METRIC, METRICS_NAMESPACE, SERVICE_NAME } from './telemetry';

/** Properties of {@link Observability}. */
export interface ObservabilityProps {
  /**
   * Encrypts the alarm topic. CloudWatch must be allowed to use it: granted here for a key of this
   * stack; an imported key's policy must allow `cloudwatch.amazonaws.com` kms:Decrypt and
   * kms:GenerateDataKey* itself. Without one the topic gets a key of its own: SNS's AWS-managed key
   * cannot be used by CloudWatch alarms.
   */
  readonly encryptionKey?: kms.IKey | undefined;
  readonly alarmEmail?: string | undefined;
  readonly queues: DeliveryQueues;
  readonly api: apigw.RestApi;
  readonly forwarder: lambda.IFunction;
  readonly consumer: lambda.IFunction;
  readonly reconciler: lambda.IFunction;
  /** The summary of operational notices (the platform team's topic), run every minute. */
  readonly noticeSummary: lambda.IFunction;
  /** Threshold of the delivery queue's oldest-message alarm. */
  readonly oldestMessageAlarmAge: Duration;
}

/** One alarm: a metric, its limit and what crossing it means for deliveries. */
interface AlarmSpec {
  readonly metric: cloudwatch.IMetric;
  readonly threshold: number;
  readonly description: string;
  /** @default 1 */
  readonly evaluationPeriods?: number;
  /** @default GREATER_THAN_THRESHOLD */
  readonly comparisonOperator?: cloudwatch.ComparisonOperator;
}

/** Above this, the forwarder is so far behind that deliveries are visibly late. */
const FORWARDER_ITERATOR_AGE_LIMIT = Duration.minutes(5);
/** One 5xx is a blip (a cold start timing out); five within five minutes are a pattern. */
const API_5XX_LIMIT = 5;
const FIVE_MINUTES = Duration.minutes(5);

/**
 * The alarm topic and the alarms that page a human: each one means deliveries are late, lost or
 * failing for a reason on Herald's side. Receivers that answer errors are not alarms: that is normal
 * webhook life and shows on the dashboard.
 */
export class Observability extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const topicKey =
      props.encryptionKey ??
      new kms.Key(this, 'AlarmTopicKey', {
        description: 'Herald: alarm topic (CloudWatch alarms cannot use the AWS-managed SNS key)',
        enableKeyRotation: true,
      });
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'Herald alarms',
      enforceSSL: true,
      masterKey: topicKey,
    });
    if (topicKey instanceof kms.Key) {
      topicKey.grant(
        new iam.ServicePrincipal('cloudwatch.amazonaws.com'),
        'kms:Decrypt',
        'kms:GenerateDataKey*',
      );
    }
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));

    const { queues } = props;
    this.alarm('DeadLettersWaiting', {
      // The reconciler drains the DLQ within seconds; messages that stay mean it is failing.
      metric: queues.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 0,
      evaluationPeriods: 5,
      description:
        'The dead-letter queue has held messages for 5 minutes: the reconciler is not draining it.',
    });
    this.alarm('DeliveryQueueOldestMessage', {
      // SQS leaves messages received 3+ times out of this metric, so scheduled retries do not trip it.
      metric: queues.queue.metricApproximateAgeOfOldestMessage({
        period: FIVE_MINUTES,
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: props.oldestMessageAlarmAge.toSeconds(),
      description: 'Deliveries wait in the queue longer than the early retries explain: consumers lag.',
    });
    this.alarm('ForwarderFailures', {
      metric: queues.forwarderFailures.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 0,
      description: 'The forwarder gave up on stream records: those events stay pending until replayed.',
    });
    this.alarm('ForwarderIteratorAge', {
      metric: props.forwarder.metric('IteratorAge', {
        period: FIVE_MINUTES,
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: FORWARDER_ITERATOR_AGE_LIMIT.toMilliseconds(),
      description: 'The forwarder is more than 5 minutes behind the table stream (24 h retention).',
    });
    for (const [name, fn] of [
      ['Forwarder', props.forwarder],
      ['Consumer', props.consumer],
      ['Reconciler', props.reconciler],
    ] as const) {
      this.alarm(`${name}Errors`, {
        // Per-message failures are reported as batch item failures, so Errors are crashes or timeouts.
        metric: fn.metricErrors({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        description: `The ${name.toLowerCase()} crashed or timed out; its whole batch is retried.`,
      });
    }
    this.alarm('NoticeSummaryErrors', {
      // A failed run is retried and the next one catches its minutes up: only a lasting failure matters.
      metric: props.noticeSummary.metricErrors({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }),
      threshold: 1,
      evaluationPeriods: 3,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      description:
        'The summary of operational notices failed in each of the last 15 minutes: the notices topic gets no ' +
        'message. Notices are still stored (herald operational-events list --org ORG_ID); once the function ' +
        'runs again it catches up, an hour of minutes per run.',
    });
    // Herald's own counts: any occurrence within 5 minutes alarms.
    const anyOf = (metricName: string) => ({
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: SERVICE_NAME },
        period: FIVE_MINUTES,
        statistic: cloudwatch.Stats.SUM,
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    this.alarm('EndpointsDisabled', {
      ...anyOf(DELIVERY_METRICS.endpointDisabled),
      description:
        'A webhook endpoint was disabled (410 Gone or failing for the auto-disable period); its new events settle skipped. ' +
        'The metric with the organization and endpoint dimensions (the endpoint_id of GET /accounts), and the ' +
        'consumer log "Endpoint state changed", say which.',
    });
    this.alarm('OrderedEventsFailed', {
      ...anyOf(DELIVERY_METRICS.orderedFailed),
      description:
        'An event of an account with delivery_order ordered failed for good (attempts used up, or 410); the events ' +
        'after it went on without it. The consumer log "Ordered event failed for good" names it; ' +
        'GET /events?webhook_status=failed lists it, POST /events/{id}/redeliver sends it again.',
    });
    this.alarm('ClientCertificateExpiring', {
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: DELIVERY_METRICS.certificateExpiring,
        dimensionsMap: { service: SERVICE_NAME },
        period: Duration.hours(1),
        statistic: cloudwatch.Stats.SUM,
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      description:
        `A webhook endpoint presented a client certificate that expires within ${CERTIFICATE_WARNING_DAYS} days. ` +
        'The consumer log "Client certificate expiring" names the account; the portal and GET /accounts show ' +
        'tls_client_certificate.expires_at. Replace it with PUT /accounts/{iban}.',
    });
    this.alarm('Api5xx', {
      metric: props.api.metricServerError({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }),
      threshold: API_5XX_LIMIT,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      description: `At least ${API_5XX_LIMIT} server errors within 5 minutes.`,
    });
    this.alarm('AuthorizerFailures', {
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: AUTHORIZER_FAILURES_METRIC,
        dimensionsMap: { service: SERVICE_NAME },
        period: FIVE_MINUTES,
        statistic: cloudwatch.Stats.SUM,
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      description: 'The authorizer failed (not: rejected a key): authenticated calls answer 500.',
    });
  }

  private alarm(id: string, spec: AlarmSpec): void {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric: spec.metric,
      threshold: spec.threshold,
      evaluationPeriods: spec.evaluationPeriods ?? 1,
      comparisonOperator: spec.comparisonOperator ?? cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      // No data means no traffic (SQS stops reporting idle queues), which is not a failure.
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: spec.description,
    });
    alarm.addAlarmAction(new actions.SnsAction(this.topic));
    alarm.addOkAction(new actions.SnsAction(this.topic));
    this.alarms.push(alarm);
  }
}
