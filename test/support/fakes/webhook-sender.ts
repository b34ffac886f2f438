/** A scripted {@link WebhookSender}: answers from a function of the request, and records every request. */
import type { SendResult, WebhookRequest, WebhookSender } from '#domain/ports';

/** The fake; `answer` may be replaced between steps of a test. */
export class FakeWebhookSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];

  constructor(public answer: (request: WebhookRequest) => SendResult | Promise<SendResult> = () => ok()) {}

  async send(request: WebhookRequest): Promise<SendResult> {
    this.requests.push(request);
    return this.answer(request);
  }
}

/** A 2xx answer that took `elapsedMs`. */
export function ok(elapsedMs = 20): SendResult {
  return { status: 200, body: 'ok', elapsedMs };
}

/** An answer with `status` (0: no HTTP answer) and optional `Retry-After`. */
export function answer(status: number, retryAfter?: string, elapsedMs = 20): SendResult {
  return { status, body: status === 0 ? 'timed out' : `status ${status}`, elapsedMs, retryAfter };
}
