/**
 * AWS Signature Version 4 verification for the local API Gateway's IAM routes: the emulator accepts a
 * request only when it was signed for service `execute-api` in the runtime's region with the local
 * operator credentials, as API Gateway checks a caller's signature before IAM evaluates its policy.
 * Written from the published algorithm (canonical request, string to sign, derived key); header
 * signing only (no presigned URLs, no session tokens).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** An access key pair, like the ones in `~/.aws/credentials`. */
export interface LocalCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** What verification needs of a request. */
export interface SignedRequest {
  readonly method: string;
  /** The path as sent, still percent-encoded, without the query. */
  readonly rawPath: string;
  /** The query as sent, without `?`. */
  readonly rawQuery: string;
  /** `rawHeaders` of the Node request: name, value, name, value… */
  readonly rawHeaders: readonly string[];
  readonly body: string | null;
}

/** Why a request is refused, as the gateway response type API Gateway would use. */
export type SignatureFault =
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'INCOMPLETE_SIGNATURE'
  | 'INVALID_SIGNATURE'
  | 'EXPIRED_TOKEN';

/** The caller a valid signature identifies. */
export interface SignedCaller {
  readonly accessKeyId: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const SERVICE = 'execute-api';
/** API Gateway refuses signatures more than 5 minutes away from its clock. */
const MAX_SKEW_MS = 5 * 60_000;
const AUTHORIZATION =
  /^AWS4-HMAC-SHA256\s+Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

/**
 * Checks the request's SigV4 `Authorization` header.
 *
 * @returns the caller, or the fault: MISSING_AUTHENTICATION_TOKEN when the request is unsigned (no
 *   `Authorization` header), INCOMPLETE_SIGNATURE when that header is not SigV4 (an API key, say), EXPIRED_TOKEN for unknown credentials or a stale date, INVALID_SIGNATURE otherwise
 */
export function verifySigV4(
  request: SignedRequest,
  credentials: LocalCredentials,
  region: string,
  nowMs: number = Date.now(),
): SignedCaller | { readonly fault: SignatureFault } {
  const headers = collectHeaders(request.rawHeaders);
  const authorization = headers.get('authorization');
  const amzDate = headers.get('x-amz-date');
  if (authorization === undefined) return { fault: 'MISSING_AUTHENTICATION_TOKEN' };
  const match = AUTHORIZATION.exec(authorization);
  if (!match || !amzDate) return { fault: 'INCOMPLETE_SIGNATURE' };
  const [, accessKeyId = '', date = '', scopeRegion, service, signedHeaderList = '', signature = ''] = match;
  if (accessKeyId !== credentials.accessKeyId) return { fault: 'EXPIRED_TOKEN' };
  const signedAt = parseAmzDate(amzDate);
  if (signedAt === undefined || Math.abs(nowMs - signedAt) > MAX_SKEW_MS) return { fault: 'EXPIRED_TOKEN' };
  const signedHeaders = signedHeaderList.split(';');
  if (
    scopeRegion !== region ||
    service !== SERVICE ||
    !amzDate.startsWith(date) ||
    !signedHeaders.includes('host') ||
    signedHeaders.some((name) => !headers.has(name))
  ) {
    return { fault: 'INVALID_SIGNATURE' };
  }
  const canonicalRequest = [
    request.method,
    canonicalPath(request.rawPath),
    canonicalQuery(request.rawQuery),
    ...signedHeaders.map((name) => `${name}:${headers.get(name)}`),
    '',
    signedHeaderList,
    sha256Hex(request.body ?? ''),
  ].join('\n');
  const scope = `${date}/${region}/${SERVICE}/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${credentials.secretAccessKey}`, date);
  for (const part of [region, SERVICE, 'aws4_request']) key = hmac(key, part);
  const expected = hmac(key, stringToSign);
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { fault: 'INVALID_SIGNATURE' };
  }
  return { accessKeyId };
}

/** Lower-case names; repeated headers joined with commas; values trimmed, inner blanks collapsed. */
function collectHeaders(raw: readonly string[]): Map<string, string> {
  const headers = new Map<string, string>();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = (raw[index] as string).toLowerCase();
    const value = (raw[index + 1] as string).trim().replace(/\s+/g, ' ');
    const before = headers.get(name);
    headers.set(name, before === undefined ? value : `${before},${value}`);
  }
  return headers;
}

/** `20261122T150000Z` → epoch ms. */
function parseAmzDate(text: string): number | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
}

/** RFC 3986 encoding of everything but the unreserved characters, as SigV4 wants. */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Each segment of the path as sent, encoded once more (services other than S3 sign it that way). */
function canonicalPath(rawPath: string): string {
  return rawPath === '' ? '/' : rawPath.split('/').map(uriEncode).join('/');
}

function canonicalQuery(rawQuery: string): string {
  if (rawQuery === '') return '';
  return rawQuery
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = at < 0 ? pair : pair.slice(0, at);
      const value = at < 0 ? '' : pair.slice(at + 1);
      return [
        uriEncode(safeDecode(name.replace(/\+/g, ' '))),
        uriEncode(safeDecode(value.replace(/\+/g, ' '))),
      ];
    })
    .sort(([a = '', x = ''], [b = '', y = '']) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}
