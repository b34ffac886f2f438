/**
 * The account writes' bodies (issue 28): `PUT /accounts/{iban}` and the operator's
 * `PUT /admin/accounts/{iban}` read every field as optional, an absent one as "keep" (left out of the
 * input) and only `null` as "remove"; anything else in `webhook_url` answers 400 naming it.
 */
import { describe, expect, it } from 'vitest';
import { parseAccountRequest, parseWebhookUrlRequest } from '#http/accounts/account-request';
import { apiEvent } from '../support/api-event';

const ORG = 'org-1';
const URL_TEXT = 'https://hooks.example.test/in';

/** Both routes' parsers, the operator's with its required `org`. */
const routes = [
  ['PUT /accounts/{iban}', (body: object) => parseWebhookUrlRequest(apiEvent({ body }))],
  [
    'PUT /admin/accounts/{iban}',
    (body: object) => {
      const { orgId, ...rest } = parseAccountRequest(apiEvent({ body: { org: ORG, ...body } }));
      expect(orgId).toBe(ORG);
      return rest;
    },
  ],
] as const;

/** What `read` throws; fails the test when it returns. */
function thrownBy(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  throw new Error('expected the parser to refuse the body');
}

describe.each(routes)('%s', (_route, parse) => {
  it('leaves every absent field out of the input, so the write keeps what is stored', () => {
    expect(parse({})).toEqual({});
    expect(parse({ delivery_order: 'ordered' })).toEqual({ deliveryOrder: 'ordered' });
    // A security field alone: the URL stays as stored (the security fields are read beside).
    expect(parse({ payload_encryption_key: null })).toEqual({});
  });

  it('reads null as removing the URL, and a URL as setting it', () => {
    expect(parse({ webhook_url: null })).toEqual({ webhookUrl: null });
    expect(parse({ webhook_url: URL_TEXT, delivery_order: 'concurrent' })).toEqual({
      webhookUrl: URL_TEXT,
      deliveryOrder: 'concurrent',
    });
  });

  it.each([[''], [42], [{ url: URL_TEXT }], [false]])('refuses webhook_url %j, naming it', (value) => {
    expect(thrownBy(() => parse({ webhook_url: value }))).toMatchObject({
      params: [
        {
          name: 'webhook_url',
          reason: 'must be a URL string, or null to stop deliveries (leave it out to keep the stored URL)',
        },
      ],
    });
  });

  it('refuses an unknown delivery_order or field, naming it', () => {
    expect(() => parse({ delivery_order: 'random' })).toThrow(/delivery_order/);
    expect(() => parse({ webhook: URL_TEXT })).toThrow(/webhook/);
  });
});
