/**
 * The size DynamoDB bills for an item: attribute names plus values (strings and binaries by their bytes,
 * numbers at one byte per two significant digits plus one, booleans and nulls one byte, lists and maps
 * three bytes plus one per element plus their elements). Undefined attributes are not stored.
 */

/** Billed size in bytes of an item given as a plain object (the document client's shape). */
export function itemBytes(item: object): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value === undefined) continue;
    bytes += Buffer.byteLength(name) + valueBytes(value);
  }
  return bytes;
}

/** Billed size of an item in KB, the unit capacity rules round. */
export function itemKb(item: object): number {
  return itemBytes(item) / 1024;
}

/** Billed size of one attribute value (without its name). */
export function valueBytes(value: unknown): number {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return numberBytes(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (Array.isArray(value)) {
    let bytes = 3;
    for (const element of value) bytes += 1 + valueBytes(element);
    return bytes;
  }
  if (typeof value === 'object') {
    let bytes = 3;
    for (const [name, nested] of Object.entries(value as Record<string, unknown>)) {
      if (nested === undefined) continue;
      bytes += 1 + Buffer.byteLength(name) + valueBytes(nested);
    }
    return bytes;
  }
  throw new TypeError(`itemBytes: unsupported attribute value ${String(value)}`);
}

/** One byte per two significant digits, plus one. */
function numberBytes(value: number): number {
  if (Number.isSafeInteger(value)) {
    // Integers (counts, epoch ms): trailing zeros are not significant.
    let n = Math.abs(value);
    while (n !== 0 && n % 10 === 0) n /= 10;
    return Math.ceil(Math.max(1, String(n).length) / 2) + 1;
  }
  const digits = String(Math.abs(value))
    .replace('.', '')
    .replace(/e.*$/, '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}
