/**
 * The platform team's notices topic, locally: a topic in fauxqs (its SNS), an inbox queue subscribed to it
 * where the summaries can be read (any SQS client pointed at fauxqs: `aws --endpoint-url <its URL> sqs
 * receive-message --queue-url <inbox>`; e-mail cannot be sent here), and the schedule that invokes the
 * summary every minute, as the stack's EventBridge rule does.
 */
import {
  CreateTopicCommand,
  ListSubscriptionsByTopicCommand,
  SNSClient,
  SubscribeCommand,
} from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { ensureQueue } from './provision';

/** The local notices topic and its inbox queue. */
export interface LocalNoticeTopic {
  readonly topicArn: string;
  readonly inboxUrl: string;
}

/** Creates (or finds) `<prefix>-notices` and its subscribed inbox queue `<prefix>-notices-inbox`; idempotent. */
export async function provisionNoticeTopic(prefix: string, sqsEndpoint: string): Promise<LocalNoticeTopic> {
  const sns = new SNSClient({});
  const sqs = new SQSClient({});
  try {
    const { TopicArn: topicArn } = await sns.send(new CreateTopicCommand({ Name: `${prefix}-notices` }));
    if (!topicArn) throw new Error('fauxqs answered CreateTopic without an ARN');
    const inbox = await ensureQueue(sqs, sqsEndpoint, `${prefix}-notices-inbox`, {});
    // A persisted topic keeps its subscription: a second one would deliver every summary twice.
    const subscribed = await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn: topicArn }));
    if (!subscribed.Subscriptions?.some((s) => s.Endpoint === inbox.arn)) {
      await sns.send(new SubscribeCommand({ TopicArn: topicArn, Protocol: 'sqs', Endpoint: inbox.arn }));
    }
    return { topicArn, inboxUrl: inbox.url };
  } finally {
    sns.destroy();
    sqs.destroy();
  }
}

/** A running schedule. */
export interface NoticeSchedule {
  /** Stops the timer and waits for a run under way. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Invokes `handler` every `everyMs` (the stack's rule: every minute), one run at a time; a run's error goes
 * to `onError` and the next run happens all the same, as the next scheduled invocation would in AWS.
 */
export function startNoticeSchedule(options: {
  readonly handler: () => Promise<unknown>;
  readonly everyMs: number;
  readonly onError: (error: unknown) => void;
}): NoticeSchedule {
  let running: Promise<void> | undefined;
  let stopped = false;
  const timer = setInterval(() => {
    // A run still under way when the next is due makes that one skip, as a busy function would.
    if (stopped || running) return;
    running = options
      .handler()
      .then(
        () => undefined,
        (error: unknown) => options.onError(error),
      )
      .finally(() => {
        running = undefined;
      });
  }, options.everyMs);
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
