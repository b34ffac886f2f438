import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { SummaryMessage } from '#domain/notices/notice-summary';
import type { SummaryPublisher } from '#domain/notices/ports';

/** {@link SummaryPublisher} on the stack's notices topic: one SNS message (e-mail subscribers get subject and body). */
export class SnsSummaryPublisher implements SummaryPublisher {
  constructor(
    private readonly client: SNSClient,
    private readonly topicArn: string,
  ) {}

  async publish(message: SummaryMessage): Promise<void> {
    await this.client.send(
      new PublishCommand({ TopicArn: this.topicArn, Subject: message.subject, Message: message.body }),
    );
  }
}
