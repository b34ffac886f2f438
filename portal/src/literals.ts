/**
 * String literals of the snippets' languages: every value the receiver help puts into code (the URL path,
 * the organization's name, the webhook token) goes through one of these, never into the code as is.
 * Each literal is printable ASCII only, with every other character escaped, so it can neither end its
 * string, start an interpolation (`${…}`, `#{…}`), nor break out of the line comment some of them stand
 * in (no line terminator survives, in any language's sense of one). An unpaired surrogate is not text
 * and becomes U+FFFD first, so every language can spell the result.
 */

/** A value as a string literal of one language. */
export type Literal = (value: string) => string;

/** Unpaired UTF-16 surrogates, which no UTF-8 source file can hold. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes shared by every double-quoted literal below (`\\`, `\"` and the usual control characters). */
const COMMON: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

const hex = (code: number, width: number): string => code.toString(16).padStart(width, '0');

/**
 * A double-quoted literal: printable ASCII kept (but for `extra` and {@link COMMON}), every other code
 * point written by `spell`.
 */
function quoted(
  value: string,
  spell: (codePoint: number) => string,
  extra: Readonly<Record<string, string>> = {},
): string {
  let out = '"';
  for (const char of value.replace(LONE_SURROGATE, '\uFFFD')) {
    const code = char.codePointAt(0) ?? 0;
    out += extra[char] ?? COMMON[char] ?? (code >= 0x20 && code < 0x7f ? char : spell(code));
  }
  return `${out}"`;
}

/** `\uXXXX` per UTF-16 code unit (JavaScript and Java spell astral characters as surrogate pairs). */
const utf16 = (code: number): string =>
  String.fromCodePoint(code)
    .split('')
    .map((unit) => `\\u${hex(unit.charCodeAt(0), 4)}`)
    .join('');

/** `\uXXXX` in the Basic Multilingual Plane, `\UXXXXXXXX` beyond (Python and Go). */
const codePoint = (code: number): string => (code <= 0xffff ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`);

/** JavaScript (Node): `"…"`; `${…}` and backticks mean nothing in double quotes. */
export const jsLiteral: Literal = (value) => quoted(value, utf16);

/** Python 3: `"…"`, `\uXXXX`/`\UXXXXXXXX` for what is not printable ASCII. */
export const pythonLiteral: Literal = (value) => quoted(value, codePoint);

/** Go: an interpreted string literal, `\uXXXX`/`\UXXXXXXXX` (code points, never surrogates). */
export const goLiteral: Literal = (value) => quoted(value, codePoint);

/**
 * Java: `"…"`. Java turns `\uXXXX` into its character before it even reads strings and comments, so
 * `\u000a`, `\u000d`, `\u0022` and `\u005c` would end the line or the string: those four are written
 * `\n`, `\r`, `\"` and `\\` (above), and a `\` from the value is doubled, which keeps it from starting
 * a `\u` escape of its own.
 */
export const javaLiteral: Literal = (value) => quoted(value, utf16);

/** Ruby: `"…"` with `#` escaped (`#{…}`, `#@x` and `#$x` interpolate) and `\u{…}` for the rest. */
export const rubyLiteral: Literal = (value) =>
  quoted(value, (code) => `\\u{${hex(code, 1)}}`, { '#': '\\#' });
