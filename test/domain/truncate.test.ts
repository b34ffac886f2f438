import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerBesideUrl, RESPONSE_BODY_LIMIT_BYTES, truncateText, truncateUtf8 } from '#domain/truncate';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');
/** The text with lone surrogates replaced by U+FFFD, as UTF-8 encoding does (lib ES2023 lacks toWellFormed). */
const wellFormed = (text: string): string =>
  new TextDecoder('utf-8', { ignoreBOM: true }).decode(encode(text));

describe('truncateUtf8', () => {
  it('keeps short input whole', () => {
    expect(truncateUtf8(encode('ok'), 4096)).toBe('ok');
    expect(truncateUtf8(new Uint8Array(), 0)).toBe('');
    expect(RESPONSE_BODY_LIMIT_BYTES).toBe(4096);
  });

  it.each([
    ['é', 2],
    ['€', 3],
    ['🎉', 4],
  ])('cuts before %s instead of splitting it', (char, size) => {
    const bytes = encode(`ab${char}`);
    for (let cut = 2; cut < 2 + size; cut++) expect(truncateUtf8(bytes, cut)).toBe('ab');
    expect(truncateUtf8(bytes, 2 + size)).toBe(`ab${char}`);
  });

  it('keeps a byte-order mark', () => {
    expect(truncateUtf8(encode('\ufeffx'), 10)).toBe('\ufeffx');
    expect(truncateUtf8(encode('\ufeffx'), 3)).toBe('\ufeff');
  });

  it('still shows malformed bytes before the cut as U+FFFD', () => {
    expect(truncateUtf8(Uint8Array.of(0x61, 0xff, 0x62, 0x63), 3)).toBe('a\ufffdb');
    expect(truncateUtf8(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80), 4)).toBe('\ufffd'.repeat(4));
  });

  it('never splits a character, never exceeds the limit and keeps as much as fits', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }).map(wellFormed),
        fc.nat({ max: 900 }),
        (text, max) => {
          const result = truncateUtf8(encode(text), max);
          expect(byteLength(result)).toBeLessThanOrEqual(max);
          expect(text.startsWith(result)).toBe(true);
          const next = text.slice(result.length).codePointAt(0);
          if (next !== undefined)
            expect(byteLength(result) + byteLength(String.fromCodePoint(next))).toBeGreaterThan(max);
        },
      ),
    );
  });

  it('emits U+FFFD only where the input was malformed', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.nat({ max: 70 }), (bytes, max) => {
        const whole = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
        const result = truncateUtf8(bytes, max);
        const replacements = (text: string): number => text.split('\ufffd').length - 1;
        expect(replacements(result)).toBeLessThanOrEqual(replacements(whole));
        expect(byteLength(result.replaceAll('\ufffd', ''))).toBeLessThanOrEqual(max);
      }),
    );
  });

  it('refuses a negative or fractional limit', () => {
    expect(() => truncateUtf8(encode('x'), -1)).toThrow(RangeError);
    expect(() => truncateUtf8(encode('x'), 1.5)).toThrow(RangeError);
  });
});

describe('answerBesideUrl', () => {
  it('keeps answer and URL together within the limit, cutting only the answer', () => {
    const answer = 'é'.repeat(RESPONSE_BODY_LIMIT_BYTES);
    const shortUrl = 'https://hooks.example.com/h';
    const longUrl = `https://hooks.example.com/${'p'.repeat(2000)}`;
    expect(byteLength(answerBesideUrl(answer, shortUrl))).toBeLessThanOrEqual(
      RESPONSE_BODY_LIMIT_BYTES - byteLength(shortUrl),
    );
    const beside = answerBesideUrl(answer, longUrl);
    expect(byteLength(beside) + byteLength(longUrl)).toBeLessThanOrEqual(RESPONSE_BODY_LIMIT_BYTES);
    expect(byteLength(beside)).toBeGreaterThan(RESPONSE_BODY_LIMIT_BYTES - byteLength(longUrl) - 2);
    expect(answer.startsWith(beside)).toBe(true);
    expect(answerBesideUrl('ok', longUrl)).toBe('ok');
  });
});

describe('truncateText', () => {
  it('keeps text within the bound whole, and cuts longer text to the bound ending with …', () => {
    expect(truncateText('abc', 3)).toBe('abc');
    expect(truncateText('abcd', 3)).toBe('ab…');
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.integer({ min: 2, max: 20 }),
        (text, max) => {
          const cut = truncateText(text, max);
          expect(cut.length).toBeLessThanOrEqual(max);
          expect(cut).toBe(wellFormed(cut));
          if (text.length > max) expect(text.startsWith(cut.slice(0, -1)) && cut.endsWith('…')).toBe(true);
          else expect(cut).toBe(text);
        },
      ),
    );
  });

  it('never splits a surrogate pair', () => {
    expect(truncateText('a😀b', 3)).toBe('a…');
  });
});
