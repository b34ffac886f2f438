import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '#domain/signing/secrets';
import { signBody, standardSignature, webhookSignatureHeader } from '#domain/signing/signatures';
import { generateWebhookToken, WebhookTokenError, webhookKey } from '#domain/signing/webhook-token';
import { catchError } from './catch-error';

describe('webhook tokens', () => {
  it('are whsec_ + base64 of 32 random bytes', () => {
    const token = generateWebhookToken();
    expect(token).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookKey(token)).toHaveLength(32);
    expect(generateWebhookToken()).not.toBe(token);
  });

  it.each([
    ['no prefix', 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0'],
    ['empty key', 'whsec_'],
    ['not base64', `whsec_${'!'.repeat(44)}`],
    ['bad padding', `whsec_${Buffer.alloc(32).toString('base64').slice(0, -1)}`],
    ['too short', `whsec_${Buffer.alloc(23).toString('base64')}`],
    ['too long', `whsec_${Buffer.alloc(65).toString('base64')}`],
  ])('refuses a token with %s, without echoing it', (_, token) => {
    const error = catchError(() => webhookKey(token));
    expect(error).toBeInstanceOf(WebhookTokenError);
    if (token.length > 10) expect((error as Error).message).not.toContain(token.slice(6));
  });

  it('accepts keys of 24 and 64 bytes', () => {
    expect(webhookKey(`whsec_${Buffer.alloc(24, 1).toString('base64')}`)).toHaveLength(24);
    expect(webhookKey(`whsec_${Buffer.alloc(64, 1).toString('base64')}`)).toHaveLength(64);
  });
});

describe('signBody', () => {
  const key = Buffer.from('0123456789abcdef0123456789abcdef');

  it('is sha256=<hex HMAC-SHA256> of the UTF-8 body', () => {
    const body = '{"note":"Grüße"}';
    const expected = createHmac('sha256', key).update(Buffer.from(body, 'utf8')).digest('hex');
    expect(signBody(key, body)).toBe(`sha256=${expected}`);
    expect(signBody(key, body)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });
});

describe('standardSignature', () => {
  it('is verified by the standardwebhooks library', () => {
    const token = generateWebhookToken();
    const id = '0190f4e8-3c1a-7b2e-9f00-123456789abc';
    const timestamp = Math.floor(Date.now() / 1000);
    const body = '{"id":"0190f4e8-3c1a-7b2e-9f00-123456789abc","payload":{"note":"Grüße 🎉"}}';
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardSignature(webhookKey(token), id, timestamp, body),
    };
    expect(new Webhook(token).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(token).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(generateWebhookToken()).verify(body, headers)).toThrow();
  });

  it('matches the library byte for byte', () => {
    const token = generateWebhookToken();
    const at = new Date('2026-11-21T12:00:00.000Z');
    expect(standardSignature(webhookKey(token), 'msg_1', at.getTime() / 1000, 'hello')).toBe(
      new Webhook(token).sign('msg_1', at, 'hello'),
    );
  });

  it('refuses a timestamp that is not whole seconds', () => {
    expect(() => standardSignature(Buffer.alloc(32), 'id', 1.5, '')).toThrow(RangeError);
    expect(() => standardSignature(Buffer.alloc(32), 'id', -1, '')).toThrow(RangeError);
  });
});

describe('API keys', () => {
  it('are herald_ + base64url of 32 bytes and recognisable', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^herald_[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey()).not.toBe(key);
  });

  it('hash to sha256 hex', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('webhookSignatureHeader', () => {
  const current = generateWebhookToken();
  const previous = generateWebhookToken();
  const body = '{"id":"x"}';
  const expiresAt = '2026-11-22T12:00:00.000Z';
  const expiry = Date.parse(expiresAt);
  const sign = (token: string) => standardSignature(webhookKey(token), 'evt', 1_700_000_000, body);

  it('is the current signature alone without a previous token', () => {
    expect(webhookSignatureHeader({ webhookToken: current }, 'evt', 1_700_000_000, body, expiry)).toBe(
      sign(current),
    );
  });

  it('adds the previous signature after a space until the previous token expires', () => {
    const tokens = { webhookToken: current, previousWebhookToken: { token: previous, expiresAt } };
    expect(webhookSignatureHeader(tokens, 'evt', 1_700_000_000, body, expiry - 1)).toBe(
      `${sign(current)} ${sign(previous)}`,
    );
    expect(webhookSignatureHeader(tokens, 'evt', 1_700_000_000, body, expiry)).toBe(sign(current));
  });
});
