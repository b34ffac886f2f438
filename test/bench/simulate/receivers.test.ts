import { describe, expect, it } from 'vitest';
import type { SendResult } from '#domain/ports';
import { SimWebhookSender } from '../../../scripts/bench/simulate/ports/sim-webhook-sender';
import {
  failingReceiver,
  fastReceiver,
  flappingReceiver,
  hangingReceiver,
  type Receiver,
  refusingReceiver,
  slowReceiver,
  unreachableReceiver,
} from '../../../scripts/bench/simulate/receivers/receivers';
import { simulate } from './simulate';

/** What one POST to `receiver` returned and how long it took, in virtual time. */
async function post(receiver: Receiver, at = 0): Promise<{ result: SendResult; tookMs: number }> {
  let outcome: { result: SendResult; tookMs: number } | undefined;
  await simulate(async (engine) => {
    await engine.sleep(at);
    const sender = new SimWebhookSender(engine, (url) =>
      url === 'https://r.example/hook' ? receiver : undefined,
    );
    const started = engine.now();
    const result = await sender.send({ url: 'https://r.example/hook', headers: {}, body: '{}' });
    outcome = { result, tookMs: engine.now() - started };
  });
  return outcome as { result: SendResult; tookMs: number };
}

describe('receivers through the simulated sender', () => {
  it('answers fast ones quickly and slow ones after their delay', async () => {
    const fast = await post(fastReceiver({ medianMs: 50, p99Ms: 200 }));
    expect(fast.result.status).toBe(200);
    expect(fast.tookMs).toBeLessThan(2_000);
    const slow = await post(slowReceiver(3_000));
    expect(slow).toMatchObject({ result: { status: 200, elapsedMs: 3_000 }, tookMs: 3_000 });
  });

  it('cuts a hanging receiver at the 10 s total timeout and an unreachable host at the 5 s connect timeout', async () => {
    expect(await post(hangingReceiver())).toEqual({
      result: { status: 0, body: 'timed out after 10000 ms', elapsedMs: 10_000 },
      tookMs: 10_000,
    });
    expect(await post(unreachableReceiver())).toEqual({
      result: { status: 0, body: 'could not connect within 5000 ms', elapsedMs: 5_000 },
      tookMs: 5_000,
    });
    expect((await post(refusingReceiver())).result.body).toBe('connection refused');
    expect((await post(slowReceiver(12_000))).result.status).toBe(0);
  });

  it('passes on a failing answer and its Retry-After', async () => {
    const { result } = await post(failingReceiver(503, { latency: 20, retryAfter: '120' }));
    expect(result).toEqual({ status: 503, body: 'status 503', elapsedMs: 20, retryAfter: '120' });
  });

  it('flaps between its up and down behaviour', async () => {
    const flapping = () =>
      flappingReceiver({
        up: fastReceiver(20),
        down: failingReceiver(500, { latency: 20 }),
        upMs: 60_000,
        downMs: 30_000,
        startMs: 0,
      });
    expect((await post(flapping(), 59_000)).result.status).toBe(200);
    expect((await post(flapping(), 61_000)).result.status).toBe(500);
    expect((await post(flapping(), 91_000)).result.status).toBe(200);
  });

  it('counts the requests that reached the receiver', async () => {
    const receiver = hangingReceiver();
    await post(receiver);
    await post(receiver);
    expect(receiver.requests).toBe(2);
  });
});
