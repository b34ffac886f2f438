import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { DeliveryQueues } from './delivery-queues';
import {
  AUTHORIZER_FAILURES_METRIC,
  DELIVERY_METRICS,
  ENDPOINT_DIMENSIONS,
  METRICS_NAMESPACE,
  SERVICE_NAME,
} from './telemetry';

/** Properties of {@link HeraldDashboard}. */
export interface HeraldDashboardProps {
  readonly queues: DeliveryQueues;
  readonly api: apigw.RestApi;
  /** Every function, by a readable name. */
  readonly functions: ReadonlyMap<string, lambda.IFunction>;
  readonly forwarder: lambda.IFunction;
  /** The delivery consumer, whose attempt logs give the per-endpoint view. */
  readonly consumer: lambda.Function;
  readonly alarms: readonly cloudwatch.IAlarm[];
}

const PERIOD = Duration.minutes(5);
const WIDTH = 8;

/** One dashboard: deliveries first (what users feel), then the queues, the API and the functions. */
export class HeraldDashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: HeraldDashboardProps) {
    super(scope, id);
    const herald = (metricName: string, statistic: string, label: string) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: SERVICE_NAME },
        statistic,
        period: PERIOD,
        label,
      });
    const sum = cloudwatch.Stats.SUM;
    const max = cloudwatch.Stats.MAXIMUM;
    const { queues, api } = props;
    const perFunction = (metric: (fn: lambda.IFunction, label: string) => cloudwatch.IMetric) =>
      [...props.functions].map(([name, fn]) => metric(fn, name));

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.hours(24),
      widgets: [
        [
          graph('Delivery attempts', [
            herald(DELIVERY_METRICS.succeeded, sum, 'succeeded'),
            herald(DELIVERY_METRICS.failed, sum, 'failed'),
          ]),
          graph('Attempt latency (ms)', [
            herald(DELIVERY_METRICS.attemptLatency, cloudwatch.Stats.p(50), 'p50'),
            herald(DELIVERY_METRICS.attemptLatency, cloudwatch.Stats.p(99), 'p99'),
          ]),
          graph('Exhausted and reconciled', [
            herald(DELIVERY_METRICS.exhausted, sum, 'events exhausted'),
            herald(DELIVERY_METRICS.orderedFailed, sum, 'ordered events failed'),
            herald(DELIVERY_METRICS.orderWaiting, sum, 'ordered events waiting (no attempt)'),
            herald(DELIVERY_METRICS.reconciled, sum, 'dead letters reconciled'),
          ]),
        ],
        [
          graph('Endpoint health', [
            herald(DELIVERY_METRICS.deferred, sum, 'deferred (no attempt)'),
            herald(DELIVERY_METRICS.replaced, sum, 'messages replaced'),
            herald(DELIVERY_METRICS.circuitOpened, sum, 'circuits opened'),
            herald(DELIVERY_METRICS.endpointRecovered, sum, 'endpoints recovered'),
            herald(DELIVERY_METRICS.endpointDisabled, sum, 'endpoints disabled'),
            herald(DELIVERY_METRICS.certificateExpiring, sum, 'client certificates expiring (attempts)'),
          ]),
          // Per endpoint from the consumer's attempt logs: no metric (and no cost) per account.
          new cloudwatch.LogQueryWidget({
            title: 'Endpoints with failures (last attempts, per account)',
            logGroupNames: [props.consumer.logGroup.logGroupName],
            queryLines: [
              'filter message = "Webhook attempt"',
              'stats count(*) as attempts, sum(outcome != "delivered") as failures, pct(responseTimeMs, 50) as p50_ms, max(responseTimeMs) as max_ms by account',
              'sort failures desc',
              'limit 20',
            ],
            width: 2 * WIDTH,
          }),
        ],
        [
          // Which endpoints changed, by their ids (`endpoint_id` of the account), never by IBAN.
          new cloudwatch.GraphWidget({
            title: 'Endpoints disabled or with an opened circuit, by organization and endpoint id',
            left: [
              new cloudwatch.MathExpression({
                expression: endpointChangesSearch([
                  DELIVERY_METRICS.endpointDisabled,
                  DELIVERY_METRICS.circuitOpened,
                ]),
                label: '',
                period: PERIOD,
              }),
            ],
            width: 3 * WIDTH,
          }),
        ],
        [
          graph('Delivery queue', [
            queues.queue.metricApproximateNumberOfMessagesVisible({
              period: PERIOD,
              statistic: max,
              label: 'ready',
            }),
            queues.queue.metricApproximateNumberOfMessagesNotVisible({
              period: PERIOD,
              statistic: max,
              label: 'in flight or waiting for retry',
            }),
          ]),
          graph('Oldest message (s)', [
            queues.queue.metricApproximateAgeOfOldestMessage({
              period: PERIOD,
              statistic: max,
              label: 'delivery',
            }),
            queues.deadLetterQueue.metricApproximateAgeOfOldestMessage({
              period: PERIOD,
              statistic: max,
              label: 'DLQ',
            }),
          ]),
          graph('Dead letters and forwarder failures', [
            queues.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
              period: PERIOD,
              statistic: max,
            }),
            queues.forwarderFailures.metricApproximateNumberOfMessagesVisible({
              period: PERIOD,
              statistic: max,
            }),
          ]),
        ],
        [
          graph('API requests', [
            api.metricCount({ period: PERIOD, statistic: sum, label: 'requests' }),
            api.metricClientError({ period: PERIOD, statistic: sum, label: '4xx' }),
            api.metricServerError({ period: PERIOD, statistic: sum, label: '5xx' }),
            herald(AUTHORIZER_FAILURES_METRIC, sum, 'authorizer failures'),
          ]),
          graph('API latency (ms)', [
            api.metricLatency({ period: PERIOD, statistic: cloudwatch.Stats.p(50), label: 'p50' }),
            api.metricLatency({ period: PERIOD, statistic: cloudwatch.Stats.p(99), label: 'p99' }),
          ]),
          graph('Forwarder iterator age (ms)', [
            props.forwarder.metric('IteratorAge', { period: PERIOD, statistic: max }),
          ]),
        ],
        [
          graph(
            'Function errors',
            perFunction((fn, label) => fn.metricErrors({ period: PERIOD, statistic: sum, label })),
          ),
          graph(
            'Function duration p99 (ms)',
            perFunction((fn, label) =>
              fn.metricDuration({ period: PERIOD, statistic: cloudwatch.Stats.p(99), label }),
            ),
          ),
          graph(
            'Function throttles',
            perFunction((fn, label) => fn.metricThrottles({ period: PERIOD, statistic: sum, label })),
          ),
        ],
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 3 * WIDTH })],
      ],
    });
  }
}

/** A CloudWatch SEARCH of the per-endpoint copies of endpoint-change metrics, one line per endpoint. */
export function endpointChangesSearch(metricNames: readonly string[]): string {
  const schema = [METRICS_NAMESPACE, ...Object.values(ENDPOINT_DIMENSIONS), 'service'].join(',');
  const names = metricNames.map((name) => `MetricName="${name}"`).join(' OR ');
  return `SEARCH('{${schema}} (${names})', 'Sum', ${PERIOD.toSeconds()})`;
}

function graph(title: string, metrics: cloudwatch.IMetric[]): cloudwatch.GraphWidget {
  return new cloudwatch.GraphWidget({ title, left: metrics, width: WIDTH });
}
