import type { SummaryMessage } from '#domain/notices/notice-summary';
import type { SummaryCursor, SummaryPublisher } from '#domain/notices/ports';

/** The summary's cursor in memory, moved only from the value the caller read (as the conditional write). */
export class InMemorySummaryCursor implements SummaryCursor {
  value: string | undefined;
  /** Every refused move, for assertions. */
  readonly refused: { from: string | undefined; to: string }[] = [];

  async last(): Promise<string | undefined> {
    return this.value;
  }

  async move(from: string | undefined, to: string): Promise<boolean> {
    if (this.value !== from) {
      this.refused.push({ from, to });
      return false;
    }
    this.value = to;
    return true;
  }
}

/** Records the messages published; fails the next publishes while `failing` is above zero. */
export class RecordingSummaryPublisher implements SummaryPublisher {
  readonly messages: SummaryMessage[] = [];
  failing = 0;

  async publish(message: SummaryMessage): Promise<void> {
    if (this.failing > 0) {
      this.failing -= 1;
      throw new Error('SNS unavailable');
    }
    this.messages.push(message);
  }
}
