import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standardSignature } from '#domain/signing/signatures';
import { generateWebhookToken, webhookKey } from '#domain/signing/webhook-token';
import { type DemoReceiver, startDemoReceiver } from '#local/demo-receiver';

const token = generateWebhookToken();
const lines: string[] = [];
let receiver: DemoReceiver;

beforeAll(async () => {
  receiver = await startDemoReceiver(
    async () => [token],
    (line) => lines.push(line),
  );
});

afterAll(async () => {
  await receiver.close();
});

const body = JSON.stringify({ id: 'evt_1', type: 'credit_transfer_status_change' });

/** Standard Webhooks headers for `body`, signed at `timestamp` (epoch seconds). */
function signed(timestamp: number, signWith = token): Record<string, string> {
  return {
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(webhookKey(signWith), 'evt_1', timestamp, body),
  };
}

async function post(headers: Record<string, string>, payload = body): Promise<number> {
  const response = await fetch(receiver.url, { method: 'POST', headers, body: payload });
  await response.arrayBuffer();
  return response.status;
}

const now = (): number => Math.floor(Date.now() / 1000);

describe('demo receiver', () => {
  it('accepts a correctly signed, fresh webhook', async () => {
    expect(await post(signed(now()))).toBe(204);
    expect(lines.at(-1)).toContain('verified webhook evt_1 (credit_transfer_status_change)');
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
    expect(await post(signed(now() - 301))).toBe(401);
    expect(await post(signed(now() + 301))).toBe(401);
    expect(await post(signed(now() - 240))).toBe(204);
    expect(lines.some((line) => line.includes('Message timestamp too old (401)'))).toBe(true);
  });

  it('refuses an oversized body and survives a body that is not JSON', async () => {
    expect(await post(signed(now()), 'x'.repeat(1024 * 1024 + 1))).toBe(413);
    const text = 'not json';
    const timestamp = now();
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardSignature(webhookKey(token), 'evt_1', timestamp, text),
    };
    expect(await post(headers, text)).toBe(204);
    expect(await post(signed(now()))).toBe(204);
  });
});
