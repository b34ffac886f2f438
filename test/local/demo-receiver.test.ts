import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAttempt, standardSignature } from '#domain/signing/signatures';
import { generateWebhookToken, webhookKey } from '#domain/signing/webhook-token';
import { type DemoReceiver, startDemoReceiver } from '#local/demo-receiver';

const token = generateWebhookToken();
const lines: string[] = [];
let receiver: DemoReceiver;

beforeAll(async () => {
  receiver = await startDemoReceiver(
    async () => [token],
    (line) => lines.push(line),
    () => new Date('2026-11-24T10:15:02.750Z'),
  );
});

afterAll(async () => {
  await receiver.close();
});

const body = JSON.stringify({ id: 'evt_1', type: 'credit_transfer_status_change' });

let sequence = 0;

/** Both signature headers of a new webhook id for `payload`, signed at `timestamp` (epoch seconds). */
function signed(timestamp: number, signWith = token, payload = body): Record<string, string> {
  sequence += 1;
  const id = `evt_${sequence}`;
  const signatures = signAttempt({ webhookToken: signWith }, id, timestamp, payload, 0);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.webhookSignature,
    'x-signature': signatures.xSignature,
  };
}

async function post(headers: Record<string, string>, payload = body): Promise<number> {
  const response = await fetch(receiver.url, { method: 'POST', headers, body: payload });
  await response.arrayBuffer();
  return response.status;
}

const now = (): number => Math.floor(Date.now() / 1000);

describe('demo receiver', () => {
  it('accepts a correctly signed, fresh webhook, and acknowledges a repeat of it without handling it', async () => {
    const headers = signed(now());
    expect(await post(headers)).toBe(204);
    expect(lines.at(-1)).toBe(
      `2026-11-24 10:15:02 demo receiver: verified webhook ${headers['webhook-id']} (credit_transfer_status_change, both signatures)`,
    );
    expect(await post(headers)).toBe(200);
    expect(lines.at(-1)).toContain('already handled');
  });

  it('checks X-Signature too: missing 400, wrong or of another time 401', async () => {
    const { 'x-signature': _, ...noX } = signed(now());
    expect(await post(noX)).toBe(400);
    const valid = signed(now());
    const forged = valid['x-signature']?.replace(/sha256=[0-9a-f]{4}/, 'sha256=0000') ?? '';
    expect(await post({ ...valid, 'x-signature': forged })).toBe(401);
    const stale = signed(now() - 301)['x-signature'] ?? '';
    expect(await post({ ...signed(now()), 'x-signature': stale })).toBe(401);
  });

  it('answers 400 to missing or malformed webhook headers and keeps serving', async () => {
    const { 'webhook-timestamp': _, ...noTimestamp } = signed(now());
    expect(await post(noTimestamp)).toBe(400);
    expect(await post({})).toBe(400);
    expect(await post({ ...signed(now()), 'webhook-timestamp': 'soon' })).toBe(400);
    expect(await post(signed(now()))).toBe(204);
  });

  it('answers 401 to a wrong signature, a foreign token or a timestamp outside 5 minutes', async () => {
    expect(await post({ ...signed(now()), 'webhook-signature': 'v1,AAAA' })).toBe(401);
    expect(await post(signed(now(), generateWebhookToken()))).toBe(401);
    expect(await post(signed(now()), body.replace('evt_1', 'evt_2'))).toBe(401);
    expect(
      await post({
        ...signed(now()),
        'webhook-signature': standardSignature(webhookKey(token), 'x', now(), body),
      }),
    ).toBe(401);
    expect(await post(signed(now() - 301))).toBe(401);
    expect(await post(signed(now() + 301))).toBe(401);
    expect(await post(signed(now() - 240))).toBe(204);
    expect(lines.some((line) => line.includes('Message timestamp too old (401)'))).toBe(true);
    // Every line, a refusal's too, starts with its time.
    for (const line of lines) expect(line).toMatch(/^2026-11-24 10:15:02 demo receiver: /);
  });

  it('refuses an oversized body and survives a body that is not JSON', async () => {
    expect(await post(signed(now()), 'x'.repeat(1024 * 1024 + 1))).toBe(413);
    const text = 'not json';
    expect(await post(signed(now(), token, text), text)).toBe(204);
    expect(await post(signed(now()))).toBe(204);
  });
});
