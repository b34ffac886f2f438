import { Duration, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { FunctionKey } from '#config/functions';
import type { FunctionAccess } from './function-access';

/** Properties of {@link NoticeTopic}. */
export interface NoticeTopicProps {
  /** Herald's customer-managed key, when `encryption` asks for one; otherwise SNS's AWS-managed key. */
  readonly encryptionKey?: kms.IKey | undefined;
  /** Subscribed by e-mail when given: the alarms' address (`alarmEmail`). */
  readonly alarmEmail?: string | undefined;
  readonly functions: Readonly<Record<FunctionKey, lambda.Function>>;
  readonly access: Readonly<Record<FunctionKey, FunctionAccess>>;
  /** The function the schedule invokes every minute. */
  readonly summary: lambda.Function;
}

/**
 * The platform team's operational notices: a topic (encrypted, TLS only) that gets at most one message a
 * minute, the summary of every organization's notices (`use-cases/organizations/notice-summary.ts`), the
 * schedule that runs the summary every minute, and the publish right of the functions whose
 * `FUNCTION_ACCESS` says `noticeTopic: 'publish'` (the summary alone): sns:Publish on this topic only.
 */
export class NoticeTopic extends Construct {
  readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, props: NoticeTopicProps) {
    super(scope, id);
    // Unlike the alarm topic, only a Lambda role publishes here, which SNS's AWS-managed key serves at no cost.
    const key = props.encryptionKey ?? kms.Alias.fromAliasName(this, 'SnsManagedKey', 'alias/aws/sns');
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: 'Herald operational notices',
      enforceSSL: true,
      masterKey: key,
    });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));

    for (const [fnKey, access] of Object.entries(props.access) as [FunctionKey, FunctionAccess][]) {
      if (access.noticeTopic === 'publish') this.bindPublisher(props.functions[fnKey], props.encryptionKey);
    }

    new events.Rule(this, 'EveryMinute', {
      description: 'Herald: the summary of operational notices, once a minute',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      // A failed run is retried by Lambda; an event older than the next run's is of no use (the next run
      // covers its minutes).
      targets: [
        new targets.LambdaFunction(props.summary, { retryAttempts: 2, maxEventAge: Duration.minutes(2) }),
      ],
    });
  }

  /**
   * sns:Publish on this topic and `NOTICE_TOPIC_ARN`, in one call (as `bindTable`); with Herald's own key,
   * the two key actions a publish needs, through SNS only. SNS's AWS-managed key allows every principal of
   * the account through SNS by its own policy.
   */
  private bindPublisher(fn: lambda.Function, key: kms.IKey | undefined): void {
    fn.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['sns:Publish'], resources: [this.topic.topicArn] }),
    );
    if (key) {
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['kms:GenerateDataKey', 'kms:Decrypt'],
          resources: [key.keyArn],
          conditions: { StringEquals: { 'kms:ViaService': `sns.${Stack.of(fn).region}.amazonaws.com` } },
        }),
      );
    }
    fn.addEnvironment('NOTICE_TOPIC_ARN', this.topic.topicArn);
  }
}
