/**
 * How `herald publish --file` cuts its lines into `POST /events/batch` requests: in the file's order, each
 * request within both the entry count and the body's bytes as the API measures them (UTF-8 of the JSON
 * sent), as full as they allow, and a line too large for any request set apart as that line.
 */
import { describe, expect, it } from 'vitest';
import { publishBatches, type SendableLine } from '#cli/publish-batches';
import { PUBLISH_BATCH_LIMIT, PUBLISH_BATCH_MAX_BYTES } from '#config/limits';

/** A line whose entry is exactly `bytes` bytes of JSON: `{"p":"xx…"}`. */
const sized = (line: number, bytes: number, char = 'x'): SendableLine => ({
  line,
  body: { p: char.repeat((bytes - 8) / Buffer.byteLength(char)) },
});

/** The body the API client sends for a request's lines, in bytes. */
const requestBytes = (batch: readonly SendableLine[]): number =>
  Buffer.byteLength(JSON.stringify({ events: batch.map((entry) => entry.body) }), 'utf8');

const ENVELOPE = requestBytes([]);
/** The numbers of a request's lines. */
const numbers = (batch: readonly SendableLine[]) => batch.map((entry) => entry.line);
const linesOf = (batches: readonly (readonly SendableLine[])[]) => numbers(batches.flat());

describe('publishBatches', () => {
  it(`sends small lines ${PUBLISH_BATCH_LIMIT} a request, in order`, () => {
    const lines = Array.from({ length: 250 }, (_, i) => sized(i + 1, 100));
    const { batches, tooLarge } = publishBatches(lines);
    expect(batches.map((batch) => batch.length)).toEqual([100, 100, 50]);
    expect(linesOf(batches)).toEqual(lines.map((entry) => entry.line));
    expect(tooLarge).toEqual([]);
  });

  it('sends 100 lines of 20 KB in several requests, each within the byte limit and as full as it allows', () => {
    const lines = Array.from({ length: 100 }, (_, i) => sized(i + 1, 20_000));
    const { batches, tooLarge } = publishBatches(lines);
    expect(tooLarge).toEqual([]);
    expect(batches.length).toBeGreaterThan(1);
    expect(linesOf(batches)).toEqual(lines.map((entry) => entry.line));
    for (const [k, batch] of batches.entries()) {
      expect(requestBytes(batch)).toBeLessThanOrEqual(PUBLISH_BATCH_MAX_BYTES);
      const next = batches[k + 1]?.[0];
      if (next !== undefined) expect(requestBytes([...batch, next])).toBeGreaterThan(PUBLISH_BATCH_MAX_BYTES);
    }
  });

  it('fills a request to exactly the limit, and not a byte over', () => {
    // Two entries and their comma make a body of exactly the limit.
    const half = (PUBLISH_BATCH_MAX_BYTES - ENVELOPE - 1) / 2;
    const exact = [sized(1, Math.floor(half)), sized(2, Math.ceil(half))];
    expect(requestBytes(exact)).toBe(PUBLISH_BATCH_MAX_BYTES);
    expect(publishBatches(exact).batches).toHaveLength(1);
    const over = [sized(1, Math.floor(half)), sized(2, Math.ceil(half) + 1)];
    expect(publishBatches(over).batches.map(numbers)).toEqual([[1], [2]]);
  });

  it('sets apart, by its number, a line that alone makes a body over the limit, and sends the others', () => {
    const largest = PUBLISH_BATCH_MAX_BYTES - ENVELOPE;
    const lines = [sized(1, 100), sized(2, largest + 2), sized(3, largest), sized(4, 100)];
    const { batches, tooLarge } = publishBatches(lines);
    expect(tooLarge).toEqual([
      { line: 2, problem: expect.stringMatching(/^line 2: has \d+ bytes as JSON, over /) },
    ]);
    expect(batches.map(numbers)).toEqual([[1], [3], [4]]);
  });

  it('counts bytes of UTF-8, not characters', () => {
    // Fewer characters than the limit, more bytes: 'é' takes two.
    const wide = sized(1, PUBLISH_BATCH_MAX_BYTES + 2, 'é');
    expect(JSON.stringify(wide.body).length).toBeLessThan(PUBLISH_BATCH_MAX_BYTES);
    expect(publishBatches([wide]).tooLarge.map((refused) => refused.line)).toEqual([1]);
    const half = sized(2, 600_000, 'é');
    expect(publishBatches([half, { ...half, line: 3 }]).batches.map(numbers)).toEqual([[2], [3]]);
  });
});
