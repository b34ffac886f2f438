/**
 * Herald's {@link WebhookSender} port over the receiver models, with the real sender's timeouts (10 s in
 * all, 5 s to connect) and its result texts, in virtual time.
 */
import { DEFAULT_TIMEOUTS, type SenderTimeouts } from '#adapters/http/http-webhook-sender';
import type { SendResult, WebhookRequest, WebhookSender } from '#domain/ports';
import type { Scheduler } from '../engine/scheduler';
import { type Receiver, unreachableReceiver } from '../receivers/receivers';

/** One finished request, for measurements. */
export interface SentRequest {
  readonly request: WebhookRequest;
  readonly result: SendResult;
  /** Epoch ms when the answer (or the timeout) came. */
  readonly at: number;
}

/** Options of a {@link SimWebhookSender}. */
export interface SimSenderOptions {
  readonly timeouts?: SenderTimeouts;
  /** Called as each request finishes. */
  readonly onResult?: (sent: SentRequest) => void;
}

/** The simulated sender. */
export class SimWebhookSender implements WebhookSender {
  private readonly timeouts: SenderTimeouts;
  private readonly nowhere = unreachableReceiver();

  /** @param receiverFor - the receiver behind a URL (an unknown URL does not connect) */
  constructor(
    private readonly scheduler: Scheduler,
    private readonly receiverFor: (url: string) => Receiver | undefined,
    private readonly options: SimSenderOptions = {},
  ) {
    this.timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  }

  async send(request: WebhookRequest): Promise<SendResult> {
    const result = await this.attempt(request);
    this.options.onResult?.({ request, result, at: this.scheduler.now() });
    return result;
  }

  private async attempt(request: WebhookRequest): Promise<SendResult> {
    const { totalMs, connectMs } = this.timeouts;
    const receiver = this.receiverFor(request.url) ?? this.nowhere;
    const answer = receiver.answer(this.scheduler.now(), this.scheduler.random);
    const timedOut = async (): Promise<SendResult> => {
      await this.scheduler.sleep(totalMs);
      return { status: 0, body: `timed out after ${totalMs} ms`, elapsedMs: totalMs };
    };
    switch (answer.kind) {
      case 'hang':
        return timedOut();
      case 'no-connection':
        await this.scheduler.sleep(connectMs);
        return { status: 0, body: `could not connect within ${connectMs} ms`, elapsedMs: connectMs };
      case 'refused':
        await this.scheduler.sleep(answer.afterMs);
        return { status: 0, body: 'connection refused', elapsedMs: Math.round(answer.afterMs) };
      case 'answer': {
        if (answer.afterMs >= totalMs) return timedOut();
        await this.scheduler.sleep(answer.afterMs);
        return {
          status: answer.status,
          body: answer.body ?? `status ${answer.status}`,
          elapsedMs: Math.round(answer.afterMs),
          ...(answer.retryAfter === undefined ? {} : { retryAfter: answer.retryAfter }),
        };
      }
    }
  }
}
