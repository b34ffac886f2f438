/**
 * Which webhook URLs Herald may call. A URL is checked syntactically (`checkWebhookUrl`) when it is
 * configured and before each delivery, and its host's addresses are classified (`classifyAddress`,
 * `isAddressAllowed`) when it is saved (`checkResolvedAddress` via the CLI's host check) and inside the
 * sender's DNS lookup at every delivery, because DNS can point a public-looking name at an internal
 * address. A refused delivery is recorded as a failed attempt.
 */
import { ValidationError } from './errors';

/** How far the receiver may be from the public internet. */
export type UrlPolicy = 'public-https' | 'allow-private' | 'allow-http' | 'allow-private-http' | 'local';

/** Every {@link UrlPolicy}, strictest first. */
export const URL_POLICIES: readonly UrlPolicy[] = [
  'public-https',
  'allow-private',
  'allow-http',
  'allow-private-http',
  'local',
];

/** What kind of network an IP address belongs to. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved';

/** Longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** A delivery refused because the host resolved to an address the policy does not allow. */
export class UnsafeWebhookUrlError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: AddressKind,
    readonly policy: UrlPolicy,
  ) {
    super(
      `Refused: ${host} resolves to ${address}, a ${kind} address, which URL policy ${policy} does not allow`,
    );
    this.name = 'UnsafeWebhookUrlError';
  }
}

/**
 * Reads a policy name (the `WEBHOOK_URL_POLICY` setting).
 *
 * @throws RangeError listing the allowed names
 */
export function parseUrlPolicy(text: string): UrlPolicy {
  const policy = URL_POLICIES.find((candidate) => candidate === text);
  if (policy === undefined) {
    throw new RangeError(
      `Unknown webhook URL policy ${JSON.stringify(text)}; allowed: ${URL_POLICIES.join(', ')}`,
    );
  }
  return policy;
}

/** Whether the policy allows plain `http:` URLs. */
export function allowsHttp(policy: UrlPolicy): boolean {
  return policy === 'allow-http' || policy === 'allow-private-http' || policy === 'local';
}

/**
 * Whether the policy allows connecting to an address of this kind. Public addresses always;
 * private ones (RFC 1918, CGNAT, ULA) under `allow-private*` and `local`; loopback only under `local`
 * (the emulated runtime's receivers run on this machine). Link-local never, not even under `local`:
 * it holds the instance metadata services (169.254.169.254, fd00:ec2::254), so on a cloud VM or a
 * developer's machine in a VPC a webhook there would hand its answer, credentials included, to
 * whoever set the URL. Reserved addresses never.
 */
export function isAddressAllowed(kind: AddressKind, policy: UrlPolicy): boolean {
  switch (kind) {
    case 'public':
      return true;
    case 'private':
      return policy === 'allow-private' || policy === 'allow-private-http' || policy === 'local';
    case 'loopback':
      return policy === 'local';
    case 'link-local':
    case 'reserved':
      return false;
  }
}

/**
 * Checks a webhook URL without network access: absolute `https:` (or `http:` when the policy allows
 * it), no `user:password@`, a host, at most {@link MAX_WEBHOOK_URL_LENGTH} characters, and an IP
 * literal or `localhost` host of a kind the policy allows. Other host names are checked once resolved
 * ({@link checkResolvedAddress}, and the sender's guarded DNS lookup).
 *
 * @returns the parsed URL (WHATWG-normalised: `http://0x7f.1/` has host `127.0.0.1`)
 * @throws ValidationError for `webhook_url`
 */
export function checkWebhookUrl(url: string, policy: UrlPolicy): URL {
  const fail = (reason: string): never => {
    throw new ValidationError('webhook_url', reason);
  };
  if (url.length > MAX_WEBHOOK_URL_LENGTH) fail(`must have at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  const parsed = URL.canParse(url) ? new URL(url) : fail('must be an absolute URL');
  const schemes = allowsHttp(policy) ? 'https: or http:' : 'https:';
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && allowsHttp(policy))) {
    fail(`must use ${schemes} (URL policy ${policy})`);
  }
  if (parsed.username !== '' || parsed.password !== '') fail('must not contain credentials (user:password@)');
  if (parsed.hostname === '') fail('must have a host');
  const host = bareHost(parsed.hostname);
  const kind = classifyHost(host);
  if (kind !== undefined && !isAddressAllowed(kind, policy)) {
    fail(`host ${host} is a ${kind} address, which URL policy ${policy} does not allow`);
  }
  return parsed;
}

/**
 * The delivery-time check of one address a webhook host resolved to.
 *
 * @throws UnsafeWebhookUrlError when the policy does not allow the address's kind
 */
export function checkResolvedAddress(host: string, address: string, policy: UrlPolicy): void {
  const kind = classifyAddress(address);
  if (!isAddressAllowed(kind, policy)) throw new UnsafeWebhookUrlError(host, address, kind, policy);
}

/**
 * The kind of a URL host when it can be known without DNS: an IP literal, or `localhost` and its
 * subdomains (loopback by RFC 6761). undefined for other names.
 */
export function classifyHost(hostname: string): AddressKind | undefined {
  const host = bareHost(hostname).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  return isIpAddress(host) ? classifyAddress(host) : undefined;
}

/** Whether the text is an IPv4 address in dotted-quad form or an IPv6 address (brackets and zone allowed). */
export function isIpAddress(text: string): boolean {
  return parseIpv4(text) !== undefined || parseIpv6(text) !== undefined;
}

/**
 * Classifies an IPv4 or IPv6 address. IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are classified by that address, since that is where the
 * packets end up. IPv6 outside global unicast `2000::/3` is reserved.
 *
 * @throws TypeError when the text is not an IP address
 */
export function classifyAddress(ip: string): AddressKind {
  const v4 = parseIpv4(ip);
  if (v4 !== undefined) return classifyIpv4(v4);
  const g = parseIpv6(ip);
  if (g === undefined) throw new TypeError(`Not an IP address: ${JSON.stringify(ip)}`);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (high: number, low: number): AddressKind =>
    classifyIpv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zeroUpTo = (n: number): boolean => g.slice(0, n).every((group) => group === 0);
  if (zeroUpTo(7) && g7 === 0) return 'reserved';
  if (zeroUpTo(7) && g7 === 1) return 'loopback';
  if (zeroUpTo(5) && g5 === 0xffff) return embedded(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'private';
  // AWS puts instance-local services (IMDS fd00:ec2::254, DNS, NTP) in this ULA: treat as link-local.
  if (g0 === 0xfd00 && g1 === 0x0ec2) return 'link-local';
  if ((g0 & 0xfe00) === 0xfc00) return 'private';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  // IETF protocol assignments (Teredo, ORCHID…) and the documentation prefixes 2001:db8::/32, 3fff::/20.
  if (g0 === 0x2001 && (g1 < 0x0200 || g1 === 0x0db8)) return 'reserved';
  if (g0 === 0x3fff && g1 < 0x1000) return 'reserved';
  if (g0 === 0x2002) return embedded(g1, g2);
  return (g0 & 0xe000) === 0x2000 ? 'public' : 'reserved';
}

function classifyIpv4([a = 0, b = 0, c = 0]: readonly number[]): AddressKind {
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private';
  const reserved =
    a === 0 ||
    a >= 224 ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 192 && b === 88 && c === 99) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113);
  return reserved ? 'reserved' : 'public';
}

/** Dotted quad, no leading zeros (which some resolvers read as octal). */
function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9][0-9]{0,2})$/.test(part))) return undefined;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

/** The eight 16-bit groups of an IPv6 address; accepts `[…]`, a `%zone` and a trailing dotted quad. */
function parseIpv6(text: string): number[] | undefined {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  s = s.replace(/%[^%]+$/, '');
  const lastColon = s.lastIndexOf(':');
  if (lastColon < 0) return undefined;
  const v4 = parseIpv4(s.slice(lastColon + 1));
  if (v4 !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    s = `${s.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const items = part.split(':');
    return items.every((item) => /^[0-9a-fA-F]{1,4}$/.test(item))
      ? items.map((item) => Number.parseInt(item, 16))
      : undefined;
  };
  const halves = s.split('::');
  const head = groups(halves[0] ?? '');
  if (halves.length === 1) return head?.length === 8 ? head : undefined;
  const tail = groups(halves[1] ?? '');
  if (halves.length !== 2 || head === undefined || tail === undefined || head.length + tail.length > 7) {
    return undefined;
  }
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** The host without IPv6 brackets and without the trailing dot of a fully qualified name. */
function bareHost(hostname: string): string {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return host.endsWith('.') ? host.slice(0, -1) : host;
}
