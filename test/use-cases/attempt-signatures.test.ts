/**
 * What each attempt is signed with and records (issue 16, items 3 and 4), with fakes and an injected
 * clock: both signature headers carry the same token set at every moment, across a rotation and at the
 * overlap's end; a retired token signs nothing; each attempt records its URL, its signing token ids, and
 * leaves its `X-Signature` as the event's `signature`. Signatures are checked here with node:crypto
 * directly, not with the signer's code.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliverEvent } from '#delivery/deliver-event';
import type { WebhookRequest } from '#domain/ports';
import { rotateWebhookToken } from '#use-cases/organizations/webhook-tokens';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';
import { answer } from '../support/fakes/webhook-sender';

const HOUR = 3_600_000;

/** The tokens whose signature the request's `X-Signature` holds, found by recomputing each candidate's. */
function xSignatureTokens(request: WebhookRequest, candidates: readonly string[]): string[] {
  const [stamp = '', ...entries] = (request.headers['X-Signature'] ?? '').split(',');
  const t = stamp.replace(/^t=/, '');
  expect(t).toBe(request.headers['webhook-timestamp']);
  return entries.map((entry) => {
    const found = candidates.find(
      (token) =>
        entry === `sha256=${createHmac('sha256', key(token)).update(`${t}.${request.body}`).digest('hex')}`,
    );
    expect(found, `X-Signature entry ${entry} matches no token`).toBeDefined();
    return found ?? '';
  });
}

/** The same for `webhook-signature`. */
function standardTokens(request: WebhookRequest, candidates: readonly string[]): string[] {
  const signed = `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`;
  return (request.headers['webhook-signature'] ?? '').split(' ').map((entry) => {
    const found = candidates.find(
      (token) => entry === `v1,${createHmac('sha256', key(token)).update(signed).digest('base64')}`,
    );
    expect(found, `webhook-signature entry ${entry} matches no token`).toBeDefined();
    return found ?? '';
  });
}

const key = (token: string) => Buffer.from(token.slice('whsec_'.length), 'base64');
const idOf = (token: string) => `whk_${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;

/** One attempt of a new event now; the tokens each header was signed with, and the attempt recorded. */
async function attemptNow(w: DeliveryWorld, id: string, candidates: readonly string[]) {
  w.events.seed({ id });
  await deliverEvent(w.deps, { id: id });
  const request = w.sender.requests.at(-1);
  if (!request) throw new Error('nothing sent');
  const recorded = w.events.events.get(id);
  return {
    x: xSignatureTokens(request, candidates),
    standard: standardTokens(request, candidates),
    keys: recorded?.deliveries.at(-1)?.signingKeys,
    signature: recorded?.signature,
    header: request.headers['X-Signature'],
  };
}

describe('attempt signatures', () => {
  it('signs both headers with the same tokens before, during and at the end of an overlap', async () => {
    const w = deliveryWorld();
    const old = w.directory.organizations.get('org-1')?.webhookToken ?? '';
    const before = await attemptNow(w, 'before', [old]);
    expect(before).toMatchObject({ x: [old], standard: [old], keys: [idOf(old)] });

    const fresh = (await rotateWebhookToken(w.directory, 'org-1', 1, w.clock.now())).webhookToken;
    const both = [fresh, old];
    const during = await attemptNow(w, 'during', both);
    expect(during).toMatchObject({ x: both, standard: both, keys: both.map(idOf) });

    w.clock.advance(HOUR - 1);
    expect(await attemptNow(w, 'last-moment', both)).toMatchObject({ x: both, standard: both });
    // At the overlap's end, and after: no header carries a signature of the retired token.
    w.clock.advance(1);
    const ended = await attemptNow(w, 'ended', both);
    expect(ended).toMatchObject({ x: [fresh], standard: [fresh], keys: [idOf(fresh)] });
    w.clock.advance(HOUR);
    expect(await attemptNow(w, 'after', both)).toMatchObject({ x: [fresh], standard: [fresh] });
  });

  it('retires a leaked token at once when rotated without an overlap, for retries of older events too', async () => {
    const w = deliveryWorld();
    const leaked = w.directory.organizations.get('org-1')?.webhookToken ?? '';
    w.events.seed({ id: 'older' });
    w.sender.answer = () => answer(500);
    await deliverEvent(w.deps, { id: 'older' });
    const fresh = (await rotateWebhookToken(w.directory, 'org-1', 0, w.clock.now())).webhookToken;
    w.sender.answer = () => answer(200);
    w.clock.advance(10_000);
    await deliverEvent(w.deps, { id: 'older' });
    const retry = w.sender.requests.at(-1);
    if (!retry) throw new Error('no retry');
    expect(xSignatureTokens(retry, [fresh, leaked])).toEqual([fresh]);
    expect(standardTokens(retry, [fresh, leaked])).toEqual([fresh]);
  });

  it('keeps the latest attempt’s X-Signature as the event’s signature; each attempt has its own', async () => {
    const w = deliveryWorld();
    w.events.seed({ id: 'e1' });
    expect(w.events.events.get('e1')?.signature).toBeUndefined();
    w.sender.answer = () => answer(500);
    await deliverEvent(w.deps, { id: 'e1' });
    const first = w.sender.requests[0]?.headers['X-Signature'];
    expect(w.events.events.get('e1')?.signature).toBe(first);
    w.clock.advance(10_000);
    await deliverEvent(w.deps, { id: 'e1' });
    const second = w.sender.requests[1]?.headers['X-Signature'];
    expect(second).not.toBe(first);
    expect(w.events.events.get('e1')?.signature).toBe(second);
  });

  it('records a refused URL with no signing key, and leaves the event’s signature as it was', async () => {
    const w = deliveryWorld();
    w.directory.addAccount({ iban: w.iban, webhookUrl: 'http://127.0.0.1/hook' });
    w.events.seed({ id: 'e1' });
    await deliverEvent(w.deps, { id: 'e1' });
    expect(w.sender.requests).toHaveLength(0);
    const recorded = w.events.events.get('e1');
    expect(recorded?.deliveries[0]).toMatchObject({
      url: 'http://127.0.0.1/hook',
      signingKeys: [],
      responseStatus: 0,
    });
    expect(recorded?.signature).toBeUndefined();
  });
});
