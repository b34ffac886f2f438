/**
 * `HttpWebhookSender` against real local receivers: what counts as an answer, what is recorded, and
 * that the timeouts and the 4 KiB cut hold on real sockets.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HttpWebhookSender, type SenderTimeouts } from '#adapters/http/http-webhook-sender';
import type { WebhookRequest } from '#domain/ports';
import { closedPort, type Receiver, type ReplyScript, reply, startReceiver } from '../support/receiver';
import { createTestCa } from '../support/test-ca';

const TIMEOUTS: SenderTimeouts = { connectMs: 250, totalMs: 500 };
const sender = new HttpWebhookSender('local', TIMEOUTS);

const receivers: Receiver[] = [];
async function receiver(script?: ReplyScript): Promise<Receiver> {
  const started = await startReceiver(script);
  receivers.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const BODY = '{"id":"0190c2a4-7f5e-7a1b-8c3d-4e5f6a7b8c9d","payload":{"note":"Grüße €"}}';

function webhook(url: string): WebhookRequest {
  return {
    url,
    body: BODY,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'Herald/test',
      'X-Signature': 'sha256=abc',
      'webhook-id': 'msg_1',
    },
  };
}

describe('HttpWebhookSender', () => {
  it.each([200, 201, 204, 299])('reports a %i answer with its body and time', async (status) => {
    const body = status === 204 ? '' : `ok ${status} ✓`;
    const hook = await receiver(() => reply.status(status, body));
    const result = await sender.send(webhook(hook.url));
    expect(result).toMatchObject({ status, body });
    expect(Number.isInteger(result.elapsedMs)).toBe(true);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(result.elapsedMs).toBeLessThan(TIMEOUTS.totalMs);

    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    expect(request?.method).toBe('POST');
    expect(request?.rawBody.equals(Buffer.from(BODY, 'utf8'))).toBe(true);
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(BODY)),
      'user-agent': 'Herald/test',
      'x-signature': 'sha256=abc',
      'webhook-id': 'msg_1',
    });
  });

  it('reports a slow answer within the limit with its time', async () => {
    const hook = await receiver(() => reply.delayed(150, 200, 'slow'));
    const result = await sender.send(webhook(hook.url));
    expect(result).toMatchObject({ status: 200, body: 'slow' });
    expect(result.elapsedMs).toBeGreaterThanOrEqual(145);
  });

  it.each([400, 404, 500, 503])('reports a %i answer as it is', async (status) => {
    const hook = await receiver(() => reply.status(status, `error ${status}`));
    expect(await sender.send(webhook(hook.url))).toMatchObject({ status, body: `error ${status}` });
  });

  it.each([301, 302, 303, 307, 308])('does not follow a %i redirect', async (status) => {
    const target = await receiver();
    const hook = await receiver(() => reply.redirect(target.url, status));
    const result = await sender.send(webhook(hook.url));
    expect(result.status).toBe(status);
    expect(hook.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
  });

  it('reports a refused connection as status 0 without waiting for a timeout', async () => {
    const port = await closedPort();
    const result = await sender.send(webhook(`http://127.0.0.1:${port}/hooks`));
    expect(result.status).toBe(0);
    expect(result.body).toBe('connection refused');
    expect(result.elapsedMs).toBeLessThan(TIMEOUTS.connectMs);
  });

  it('gives up on a receiver that never answers after the total timeout', async () => {
    const hook = await receiver(() => reply.hang());
    const result = await sender.send(webhook(hook.url));
    expect(result.status).toBe(0);
    expect(result.body).toBe(`timed out after ${TIMEOUTS.totalMs} ms`);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(TIMEOUTS.totalMs - 5);
    expect(result.elapsedMs).toBeLessThan(TIMEOUTS.totalMs + 400);
    expect(hook.requests).toHaveLength(1);
  });

  it('gives up on an answer whose body never ends, even after a 200 status line', async () => {
    const hook = await receiver(() => reply.stall(200, 'the beginning of'));
    const result = await sender.send(webhook(hook.url));
    expect(result.status).toBe(0);
    expect(result.body).toBe(`timed out after ${TIMEOUTS.totalMs} ms`);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(TIMEOUTS.totalMs - 5);
  });

  it('reports a reset before any answer as status 0', async () => {
    const hook = await receiver(() => reply.reset());
    const result = await sender.send(webhook(hook.url));
    expect(result).toMatchObject({ status: 0, body: 'connection reset by the receiver' });
    expect(hook.requests).toHaveLength(1);
  });

  it('reports a reset in the middle of a 200 answer as a failure, not a success', async () => {
    for (let i = 0; i < 5; i++) {
      const hook = await receiver(() => reply.resetMidResponse(200, 'partial answer'));
      const result = await sender.send(webhook(hook.url));
      expect(result, `run ${i + 1}`).toMatchObject({ status: 0, body: 'connection reset by the receiver' });
    }
  });

  it('answers of exactly 4096 bytes are kept whole', async () => {
    const exact = `${'é'.repeat(2047)}ab`;
    expect(Buffer.byteLength(exact)).toBe(4096);
    const hook = await receiver(() => reply.status(200, exact));
    expect((await sender.send(webhook(hook.url))).body).toBe(exact);
  });

  // Characters of 2, 3 and 4 bytes, shifted so byte 4096 falls at every position inside one of them.
  const cuts = [
    ['é', 2],
    ['€', 3],
    ['😀', 4],
  ] as const;
  const cases = cuts.flatMap(([char, size]) =>
    Array.from({ length: size }, (_, shift) => ({ char, size, shift })),
  );
  it.each(cases)(
    'cuts a long answer at 4 KiB without breaking "$char" (shift $shift)',
    async ({ char, shift }) => {
      const long = `${'a'.repeat(shift)}${char.repeat(5000)}`;
      const hook = await receiver(() => reply.status(200, long));
      const { status, body } = await sender.send(webhook(hook.url));
      expect(status).toBe(200);
      const bytes = Buffer.byteLength(body, 'utf8');
      expect(bytes).toBeLessThanOrEqual(4096);
      expect(bytes).toBeGreaterThan(4096 - 4);
      expect(body).not.toContain('\uFFFD');
      expect(long.startsWith(body)).toBe(true);
    },
  );

  it('stops reading a huge answer at the limit instead of downloading it', async () => {
    const huge = 'x'.repeat(20 * 1024 * 1024);
    const hook = await receiver(() => reply.status(200, huge));
    const result = await sender.send(webhook(hook.url));
    expect(result.status).toBe(200);
    expect(result.body).toBe('x'.repeat(4096));
    expect(result.elapsedMs).toBeLessThan(TIMEOUTS.totalMs);
  });

  it('reports a malformed URL as status 0', async () => {
    expect(await sender.send(webhook('not a url'))).toMatchObject({ status: 0, body: 'invalid webhook URL' });
  });

  it("answers status 0 and why, never a rejection, when this runtime's TLS refuses the endpoint's certificate", async () => {
    const ca = createTestCa();
    try {
      const weak = ca.issue('weak', { key: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024'] });
      const port = await closedPort();
      const request = {
        ...webhook(`https://127.0.0.1:${port}/hooks`),
        tls: { cert: weak.cert, key: weak.key },
      };
      expect(await sender.send(request)).toMatchObject({
        status: 0,
        body: "TLS: this runtime refuses the endpoint's client certificate (ERR_SSL_EE_KEY_TOO_SMALL); save one it accepts",
      });
    } finally {
      ca.remove();
    }
  });
});
