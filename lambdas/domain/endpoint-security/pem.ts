/**
 * Reading the PEM fields of an endpoint's security: each field's length bounded before anything parses
 * it, and its blocks found in one linear pass, so what one request costs does not grow with what it sends.
 */
import { ValidationError } from '#domain/errors';

/**
 * Refuses a field longer than `max` characters, before anything parses it.
 *
 * @param what - what the field holds, for the reason (`PEM`, `PEM or JWK`)
 * @throws ValidationError naming `field`, the limit and the length sent
 */
export function requireAtMost(field: string, text: string, max: number, what: string): void {
  if (text.length > max) {
    throw new ValidationError(
      field,
      `must have at most ${max} characters (${what}); this one has ${text.length}`,
    );
  }
}

/**
 * The `-----BEGIN <label>-----` … `-----END <label>-----` blocks of a text, in order. Each search starts
 * where the previous one ended, and a BEGIN without an END after it ends the scan (no later BEGIN can
 * have one either), so every character is looked at a bounded number of times: linear in the text,
 * whatever it holds. (A lazy regular expression restarts its match at every BEGIN marker: quadratic on
 * a text of BEGIN markers.)
 */
export function pemBlocks(text: string, label: string): string[] {
  const begin = `-----BEGIN ${label}-----`;
  const end = `-----END ${label}-----`;
  const blocks: string[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf(begin, from);
    if (start < 0) return blocks;
    const stop = text.indexOf(end, start + begin.length);
    if (stop < 0) return blocks;
    from = stop + end.length;
    blocks.push(text.slice(start, from));
  }
}
