/**
 * SQS requests as billed: every API call is a request, a batch of up to ten entries is one, an empty
 * receive is one too, and each 64 KB chunk of a call's payload counts as one more.
 */
import { SQS_LIMITS } from './message';

/** The API actions the models serve. */
export type SqsAction =
  | 'SendMessage'
  | 'SendMessageBatch'
  | 'ReceiveMessage'
  | 'DeleteMessage'
  | 'DeleteMessageBatch'
  | 'ChangeMessageVisibility'
  | 'ChangeMessageVisibilityBatch';

/** Counts calls per action, empty receives and billable requests. */
export class SqsRequestMeter {
  readonly calls: Record<SqsAction, number> = {
    SendMessage: 0,
    SendMessageBatch: 0,
    ReceiveMessage: 0,
    DeleteMessage: 0,
    DeleteMessageBatch: 0,
    ChangeMessageVisibility: 0,
    ChangeMessageVisibilityBatch: 0,
  };
  /** Receives that returned no message (billed all the same). */
  emptyReceives = 0;
  /** Requests as billed: one per call, one per further 64 KB of payload. */
  billable = 0;

  /** Records one call whose request or response carried `payloadBytes` of message bodies. */
  count(action: SqsAction, payloadBytes = 0): void {
    this.calls[action]++;
    this.billable += Math.max(1, Math.ceil(payloadBytes / SQS_LIMITS.billingChunkBytes));
  }

  /** Calls of all actions. */
  get total(): number {
    return Object.values(this.calls).reduce((sum, n) => sum + n, 0);
  }
}

/** UTF-8 size of message bodies, for the 64 KB billing chunks. */
export function payloadBytes(bodies: readonly { readonly body: string }[]): number {
  let bytes = 0;
  for (const { body } of bodies) bytes += Buffer.byteLength(body);
  return bytes;
}
