import { describe, expect, it } from 'vitest';
import { decideGate } from '#delivery/order-rule';
import type { WebhookStatus } from '#domain/model';
import type { LogEntry } from '#domain/ports';

const at = (sequence: number, webhookStatus: WebhookStatus = 'success'): LogEntry => ({
  id: `e${sequence}`,
  orgId: 'org-1',
  account: 'DE89370400440532013000',
  sequence,
  webhookStatus,
});

describe('decideGate', () => {
  it('passes sequences missing from a consistent read as settled once the hole rule decided them', () => {
    expect(decideGate(10, 0, [at(7), at(8), at(10, 'pending')], 0)).toEqual({
      kind: 'go',
      settledThrough: 9,
    });
    expect(decideGate(10, 0, [at(4), at(8, 'pending')], 0)).toMatchObject({
      kind: 'wait',
      settledThrough: 7,
    });
  });

  it('goes when nothing is stored above the watermark, and reads on when the read stopped below the event', () => {
    expect(decideGate(10, 3, [], 0)).toEqual({ kind: 'go', settledThrough: 9 });
    expect(decideGate(10, 3, [at(4), at(5)], 0)).toEqual({ kind: 'read-on', settledThrough: 5 });
  });

  it('waits for a pending earlier event and names it when it looks stalled', () => {
    expect(decideGate(3, 0, [at(1), at(2, 'pending')], 5)).toEqual({
      kind: 'wait',
      settledThrough: 1,
      stalled: { id: 'e2', orgId: 'org-1', account: 'DE89370400440532013000', sequence: 2 },
    });
  });

  it('waits below a sequence a publish may still store, moving the watermark up to it, with nothing to send again', () => {
    const window = { readThrough: 4, heldAt: 5 };
    expect(decideGate(10, 0, [at(1), at(2), at(6), at(10, 'pending')], 0, window)).toEqual({
      kind: 'wait',
      settledThrough: 4,
    });
    // A pending event below the held sequence is what it waits for.
    expect(decideGate(10, 0, [at(1), at(2, 'pending')], 0, window)).toMatchObject({
      kind: 'wait',
      settledThrough: 1,
    });
  });

  it('passes nothing past what the hole rule decided, and reads on from there, over voids too', () => {
    // The read's items up to 7 are decided (the rule closed what it could); 8 and above are not yet.
    expect(decideGate(10, 0, [at(1), at(9)], 0, { readThrough: 7 })).toEqual({
      kind: 'read-on',
      settledThrough: 7,
    });
    // A read of voids only still moves on.
    expect(decideGate(10, 3, [], 0, { readThrough: 5 })).toEqual({ kind: 'read-on', settledThrough: 5 });
    expect(decideGate(10, 3, [], 0, { readThrough: 10 })).toEqual({ kind: 'go', settledThrough: 9 });
  });
});
