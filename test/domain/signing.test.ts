import { createHash, createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '#domain/signing/secrets';
import {
  signAttempt,
  standardSignature,
  timestampedSignature,
  X_SIGNATURE_PATTERN,
} from '#domain/signing/signatures';
import { generateSigningKeyPair, SIGNING_KEY_ID_PATTERN, signingKeyId } from '#domain/signing/signing-keys';
import {
  generateWebhookToken,
  signingTokens,
  TOKEN_ID_PATTERN,
  WebhookTokenError,
  webhookKey,
  webhookTokenId,
} from '#domain/signing/webhook-token';
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

describe('timestampedSignature', () => {
  const key = Buffer.from('0123456789abcdef0123456789abcdef');

  it('is sha256=<hex HMAC-SHA256> of "<timestamp>.<UTF-8 body>"', () => {
    const body = '{"note":"Grüße"}';
    const expected = createHmac('sha256', key)
      .update(Buffer.from(`1700000000.${body}`, 'utf8'))
      .digest('hex');
    expect(timestampedSignature(key, 1_700_000_000, body)).toBe(`sha256=${expected}`);
  });
});

describe('webhook token ids', () => {
  it('are whk_ + the first 8 bytes of the SHA-256 of the token, in hex', () => {
    const token = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    const hash = createHash('sha256').update(token).digest('hex');
    expect(webhookTokenId(token)).toBe(`whk_${hash.slice(0, 16)}`);
    expect(webhookTokenId(token)).toMatch(TOKEN_ID_PATTERN);
    expect(webhookTokenId(generateWebhookToken())).not.toBe(webhookTokenId(token));
  });
});

describe('signing key ids', () => {
  it('are whak_ + the first 8 bytes of the SHA-256 of the whpk_ public key, never a token id', () => {
    const { publicKey } = generateSigningKeyPair();
    const hash = createHash('sha256').update(publicKey).digest('hex');
    expect(signingKeyId(publicKey)).toBe(`whak_${hash.slice(0, 16)}`);
    expect(signingKeyId(publicKey)).toMatch(SIGNING_KEY_ID_PATTERN);
    expect(signingKeyId(publicKey)).not.toMatch(TOKEN_ID_PATTERN);
    expect(webhookTokenId(generateWebhookToken())).not.toMatch(SIGNING_KEY_ID_PATTERN);
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

describe('signAttempt', () => {
  const current = generateWebhookToken();
  const previous = generateWebhookToken();
  const body = '{"id":"x"}';
  const expiresAt = '2026-11-22T12:00:00.000Z';
  const expiry = Date.parse(expiresAt);
  const t = 1_700_000_000;
  const v1 = (token: string) => standardSignature(webhookKey(token), 'evt', t, body);
  const x = (token: string) => timestampedSignature(webhookKey(token), t, body);

  it('signs both headers with the current token alone without a previous one', () => {
    expect(signAttempt({ webhookToken: current }, 'evt', t, body, expiry)).toEqual({
      xSignature: `t=${t},${x(current)}`,
      webhookSignature: v1(current),
      tokenIds: [webhookTokenId(current)],
    });
  });

  it('adds the previous token to both headers, after the new one, until it expires', () => {
    const tokens = { webhookToken: current, previousWebhookToken: { token: previous, expiresAt } };
    expect(signingTokens(tokens, expiry - 1)).toEqual([current, previous]);
    const during = signAttempt(tokens, 'evt', t, body, expiry - 1);
    expect(during).toEqual({
      xSignature: `t=${t},${x(current)},${x(previous)}`,
      webhookSignature: `${v1(current)} ${v1(previous)}`,
      tokenIds: [webhookTokenId(current), webhookTokenId(previous)],
    });
    expect(during.xSignature).toMatch(X_SIGNATURE_PATTERN);
    expect(signAttempt(tokens, 'evt', t, body, expiry)).toEqual(
      signAttempt({ webhookToken: current }, 'evt', t, body, expiry),
    );
  });

  it('refuses a timestamp that is not whole seconds', () => {
    expect(() => signAttempt({ webhookToken: current }, 'evt', 1.5, body, expiry)).toThrow(RangeError);
  });
});
