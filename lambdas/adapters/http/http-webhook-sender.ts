import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { SecureContextOptions } from 'node:tls';
import type { SendResult, WebhookRequest, WebhookSender } from '#domain/ports';
import { RESPONSE_BODY_LIMIT_BYTES, truncateUtf8 } from '#domain/truncate';
import { classifyAddress, isAddressAllowed, type UrlPolicy } from '#domain/webhook-url';
import { tlsContextOptions } from './client-tls';

/** Timeouts of one webhook POST. */
export interface SenderTimeouts {
  /** Until the TCP (and TLS) connection is up. */
  readonly connectMs: number;
  /** Whole request, connection to the end of the (cut) response body. */
  readonly totalMs: number;
}

/** The seed's service gives receivers 10 s, of which at most 5 s to connect. */
export const DEFAULT_TIMEOUTS: SenderTimeouts = { connectMs: 5_000, totalMs: 10_000 };

/**
 * Timeouts from `DELIVERY_TIMEOUT_MS` (the tests shorten it to exercise hanging receivers quickly):
 * the connect limit stays at most half the total.
 */
export function timeoutsFrom(totalMs: string | undefined): SenderTimeouts {
  if (totalMs === undefined) return DEFAULT_TIMEOUTS;
  const total = Number(totalMs);
  if (!Number.isInteger(total) || total < 100 || total > 60_000) {
    throw new RangeError(`DELIVERY_TIMEOUT_MS must be an integer from 100 to 60000, got "${totalMs}"`);
  }
  return { totalMs: total, connectMs: Math.min(DEFAULT_TIMEOUTS.connectMs, Math.floor(total / 2)) };
}

/**
 * POSTs webhooks with node's own HTTP client: no redirects are followed (a 3xx is a failure), the
 * response body is read up to the limit, and every address the host resolves to is checked against the
 * URL policy *inside* the connection's DNS lookup, so a DNS answer cannot change between check and connect.
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(
    private readonly policy: UrlPolicy,
    private readonly timeouts: SenderTimeouts = DEFAULT_TIMEOUTS,
  ) {}

  send(request: WebhookRequest): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (status: number, body: string, retryAfter?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        req.destroy();
        resolve({ status, body, elapsedMs: elapsed(), ...(retryAfter === undefined ? {} : { retryAfter }) });
      };
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        resolve({ status: 0, body: 'invalid webhook URL', elapsedMs: 0 });
        return;
      }
      // Node skips the lookup for IP-literal hosts, so those are checked here.
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(literal) && !isAddressAllowed(classifyAddress(literal), this.policy)) {
        resolve({ status: 0, body: `refused: ${literal} is ${classifyAddress(literal)}`, elapsedMs: 0 });
        return;
      }
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      let req: ClientRequest;
      try {
        req = send(url, {
          method: 'POST',
          headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
          lookup: this.guardedLookup(),
          // No agent: a connection (and a TLS session with its client certificate) is never reused,
          // so one endpoint's certificate cannot go out on another's request.
          agent: false,
          ...tlsOf(request, url),
        });
      } catch (error) {
        // Thrown before any connection: the TLS context refused the endpoint's material, or a header
        // was refused. The attempt fails like an unreachable receiver, saying why.
        resolve({
          status: 0,
          body: describeNetworkError(error as NodeJS.ErrnoException),
          elapsedMs: elapsed(),
        });
        return;
      }
      const total = setTimeout(
        () => finish(0, `timed out after ${this.timeouts.totalMs} ms`),
        this.timeouts.totalMs,
      );
      const connect = setTimeout(
        () => finish(0, `could not connect within ${this.timeouts.connectMs} ms`),
        this.timeouts.connectMs,
      );
      req.on('socket', (socket) => {
        const connected = url.protocol === 'https:' ? 'secureConnect' : 'connect';
        if (!socket.connecting) clearTimeout(connect);
        socket.once(connected, () => clearTimeout(connect));
      });
      req.on('response', (res) => {
        clearTimeout(connect);
        const retryAfter = res.headers['retry-after'];
        readLimited(res, RESPONSE_BODY_LIMIT_BYTES).then((bytes) =>
          finish(res.statusCode ?? 0, truncateUtf8(bytes, RESPONSE_BODY_LIMIT_BYTES), retryAfter),
        );
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(connect);
        finish(0, describeNetworkError(error));
      });
      req.end(request.body);
    });
  }

  /** A DNS lookup that refuses addresses the policy does not allow (IP literals are checked too). */
  private guardedLookup(): LookupFunction {
    const policy = this.policy;
    return (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
        if (error) return callback(error, '', 0);
        const allowed = addresses.filter((a) => isAddressAllowed(classifyAddress(a.address), policy));
        const first = allowed[0];
        if (!first) {
          // The message is stored as the attempt's response body: it names the kinds, never the resolved
          // addresses, which would map the private network to whoever reads the event.
          const kinds = [...new Set(addresses.map((a) => classifyAddress(a.address)))].join(', ');
          const refused = Object.assign(
            new Error(`refused: ${hostname} resolves to ${kinds} addresses only`),
            {
              code: 'EHERALDREFUSED',
            },
          );
          return callback(refused, '', 0);
        }
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
        callback(null, first.address, first.family);
      });
    };
  }
}

/**
 * The request's own TLS material, for an https URL only (a plain-HTTP URL has no TLS to carry it; a PUT
 * refuses a client certificate on an `http:` URL, so none is dropped here unnoticed).
 */
function tlsOf(request: WebhookRequest, url: URL): SecureContextOptions {
  const tls = request.tls;
  if (!tls || url.protocol !== 'https:') return {};
  return tlsContextOptions(tls);
}

/** Reads at most `limit` bytes, then stops the download. */
function readLimited(res: IncomingMessage, limit: number): Promise<Uint8Array> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(new Uint8Array(Buffer.concat(chunks)));
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      // One byte past the limit lets truncation see whether a character was cut.
      if (size > limit) {
        res.destroy();
        done();
      }
    });
    res.on('end', done);
    res.on('error', done);
    res.on('close', done);
  });
}

/** A short, stored description of a failure without an HTTP response (no stack, no internals). */
export function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name could not be resolved';
    case 'EHERALDREFUSED':
      return error.message;
    case 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED':
    case 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE':
    case 'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA':
    case 'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN':
      return `TLS handshake refused by the receiver: it requires a client certificate it accepts (${error.code})`;
    // A generic alert: a missing or refused client certificate is one cause, no TLS version or cipher in
    // common another; the attempt cannot tell which.
    case 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE':
      return `TLS handshake refused by the receiver: no client certificate it accepts, or no TLS version or cipher in common (${error.code})`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return `TLS: the receiver's certificate is not trusted; for a private CA set tls_ca_certificate (${error.code})`;
    case 'CERT_HAS_EXPIRED':
      return "TLS: the receiver's certificate has expired";
    // Herald's own TLS refused the endpoint's material before connecting (saved before this runtime's
    // OpenSSL demanded more): a new certificate is needed, the receiver was not reached.
    case 'ERR_SSL_EE_KEY_TOO_SMALL':
    case 'ERR_SSL_CA_KEY_TOO_SMALL':
    case 'ERR_SSL_CA_MD_TOO_WEAK':
      return `TLS: this runtime refuses the endpoint's client certificate (${error.code}); save one it accepts`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return "TLS: the receiver's certificate does not name the webhook URL's host";
    default:
      return error.code ? `network error (${error.code})` : 'network error';
  }
}
