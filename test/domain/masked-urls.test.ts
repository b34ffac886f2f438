/**
 * Webhook URLs as attempts store them and `read` views show them: every value of the query string (and
 * the fragment) replaced by `***`, names kept, the rest of the URL as written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MASK, maskUrlSecrets } from '#domain/urls';

describe('maskUrlSecrets', () => {
  it.each([
    ['https://h.example/hook', 'https://h.example/hook'],
    ['https://h.example/hook?', 'https://h.example/hook?'],
    ['https://h.example/hook?token=s3cret', 'https://h.example/hook?token=***'],
    ['https://h.example/hook?token=s3cret&v=2', 'https://h.example/hook?token=***&v=***'],
    ['https://h.example/hook?s3cret', 'https://h.example/hook?***'],
    ['https://h.example/hook?a=&b=1&&c', 'https://h.example/hook?a=&b=***&&***'],
    ['https://h.example/hook?k=a=b', 'https://h.example/hook?k=***'],
    ['https://h.example/hook#s3cret', 'https://h.example/hook#***'],
    ['https://h.example/hook?t=1#frag?x=2', 'https://h.example/hook?t=***#***'],
    ['https://h.example:8443/p/a%20th?sig=abc%3D', 'https://h.example:8443/p/a%20th?sig=***'],
  ])('%s → %s', (url, masked) => {
    expect(maskUrlSecrets(url)).toBe(masked);
    // Masking what is masked changes nothing: views may mask attempts stored masked.
    expect(maskUrlSecrets(masked)).toBe(masked);
  });

  it('replaces every value of the query, whatever it is, and keeps the names and everything before', () => {
    const value = fc.stringMatching(/^[A-Za-z0-9._~%-]{4,20}$/);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,8}$/), value), { minLength: 1 }),
        (params) => {
          const url = `https://h.example/hook?${params.map(([name, v]) => `${name}=${v}`).join('&')}`;
          const masked = maskUrlSecrets(url);
          expect(masked).toBe(
            `https://h.example/hook?${params.map(([name]) => `${name}=${MASK}`).join('&')}`,
          );
          expect(URL.canParse(masked)).toBe(true);
        },
      ),
    );
  });
});
