/**
 * Cutting receivers' answers (and names copied from certificates) to a storable size. Attempts are embedded in the event item, whose 400 KB
 * DynamoDB limit must hold all of them (at most 60 over three cycles) beside a payload of at most 128 KiB
 * (`MAX_PAYLOAD_BYTES_CEILING`), so each attempt keeps at most {@link RESPONSE_BODY_LIMIT_BYTES} of answer
 * and URL together (about 4.3 KB an attempt with its other fields).
 */

/** Largest stored response body, in UTF-8 bytes; less beside a long URL (see {@link answerBesideUrl}). */
export const RESPONSE_BODY_LIMIT_BYTES = 4096;

const encoder = new TextEncoder();

/**
 * The part of a receiver's answer an attempt record keeps beside the URL it was sent to: answer and URL
 * together at most {@link RESPONSE_BODY_LIMIT_BYTES} UTF-8 bytes. A URL may have 2,048 characters, so
 * without this a long URL and full answers would take 60 attempts past the item limit, and an attempt
 * that was sent could no longer be recorded.
 */
export function answerBesideUrl(answer: string, url: string): string {
  const room = Math.max(0, RESPONSE_BODY_LIMIT_BYTES - encoder.encode(url).length);
  const bytes = encoder.encode(answer);
  return bytes.length <= room ? answer : truncateUtf8(bytes, room);
}

/**
 * Decodes at most `maxBytes` bytes of UTF-8, cutting before a character that does not fit whole, so a
 * cut never leaves a U+FFFD behind. Malformed bytes before the cut still decode to U+FFFD, as usual. A
 * leading byte-order mark is kept: the stored body shows what the receiver sent.
 *
 * @throws RangeError when `maxBytes` is not a non-negative integer
 */
export function truncateUtf8(bytes: Uint8Array, maxBytes: number): string {
  if (!Number.isInteger(maxBytes) || maxBytes < 0) {
    throw new RangeError(`truncateUtf8: maxBytes must be a non-negative integer, got ${maxBytes}`);
  }
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  if (bytes.length <= maxBytes) return decoder.decode(bytes);
  return decoder.decode(bytes.subarray(0, utf8CutPoint(bytes, maxBytes)));
}

/**
 * The largest end ≤ `limit` that does not split the sequence starting at the last lead byte before it.
 * Only that one sequence can straddle the cut: UTF-8 sequences are at most 4 bytes long.
 */
function utf8CutPoint(bytes: Uint8Array, limit: number): number {
  let start = limit - 1;
  // Step back over at most three continuation bytes (10xxxxxx) to the sequence's lead byte.
  while (start >= 0 && limit - start <= 3 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  if (start < 0) return limit;
  const needed = sequenceLength(bytes[start] ?? 0);
  return limit - start < needed ? start : limit;
}

/** Bytes in the sequence a lead byte starts; 1 for ASCII and for bytes that cannot lead. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 1;
}

/**
 * The text cut to at most `maxChars` UTF-16 code units, ending with `…` when it was cut (never in the
 * middle of a surrogate pair): for names copied into small items and shown as they are.
 */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
