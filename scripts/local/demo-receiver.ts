import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { type Clock, renderTimestamp, systemClock } from '#domain/time';

/** The demo receiver of `npm start`: accepts webhooks and checks both their signatures. */
export interface DemoReceiver {
  readonly url: string;
  close(): Promise<void>;
}

/** Larger bodies are refused unread: a webhook body is at most a 64 KiB payload plus its envelope. */
const MAX_BODY_BYTES = 1024 * 1024;
/** What the library says when a header is absent or not a number: the request is malformed (400). */
const MALFORMED_HEADERS = new Set(['Missing required headers', 'Invalid Signature Headers']);
/** How far a webhook's timestamp may be from this clock, and how long a handled `webhook-id` is remembered. */
const TOLERANCE_SECONDS = 300;

/**
 * Starts a receiver on a free loopback port and prints one line per request. It verifies as `docs/webhooks.md`
 * tells a customer's receiver to: `webhook-signature` with the `standardwebhooks` library and
 * `X-Signature` by hand (HMAC of `"<t>.<body>"`), both compared in constant time with a timestamp
 * within 5 minutes of now. Its only change is the line it prints, which cannot fail, so it remembers a
 * `webhook-id` for 5 minutes once printed and acknowledges a repeat without printing it again (a receiver
 * whose change can fail records the id with the change: `docs/webhooks.md`). Answers 204 to a verified webhook (200 to a repeat), 400 when a signature header is
 * missing or malformed, 401 for a wrong signature or a stale timestamp, 413 for an oversized body; no
 * request can stop it. Each line starts with the time it was printed, in UTC as the API shows times, so
 * it can be matched with the attempt's `delivery_at`.
 *
 * @param tokens - reads the organization's webhook tokens: the current one and, during a rotation's
 *   overlap, the previous one (a receiver switching secrets accepts either)
 * @param clock - the time a line starts with (the signatures' 5 minutes are measured on the real clock)
 */
export async function startDemoReceiver(
  tokens: () => Promise<readonly string[]>,
  log: (line: string) => void,
  clock: Clock = systemClock,
): Promise<DemoReceiver> {
  const handled = new Map<string, number>();
  const print = (line: string) => log(`${renderTimestamp(clock().toISOString())} demo receiver: ${line}`);
  const server: Server = createServer((req, res) => {
    receive(req, tokens, handled)
      .then(({ status, line }) => {
        print(line);
        res.writeHead(status).end();
      })
      .catch((error: unknown) => {
        print(`could not check a webhook: ${(error as Error).message}`);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads and verifies one request; resolves to the status to answer and the line to print. */
async function receive(
  req: IncomingMessage,
  tokens: () => Promise<readonly string[]>,
  handled: Map<string, number>,
): Promise<{ status: number; line: string }> {
  const body = await readBody(req);
  if (body === undefined) return { status: 413, line: `refused a body over ${MAX_BODY_BYTES} bytes` };
  const id = header(req, 'webhook-id');
  const headers = {
    'webhook-id': id,
    'webhook-timestamp': header(req, 'webhook-timestamp'),
    'webhook-signature': header(req, 'webhook-signature'),
  };
  // Read per request, so a token rotated with the CLI is picked up at once; during a rotation's overlap
  // either token verifies (the header then carries a signature of each).
  const secrets = await tokens();
  let refusal: WebhookVerificationError | undefined;
  let verified = false;
  for (const token of secrets) {
    try {
      new Webhook(token).verify(body, headers, { jsonParse: false });
      verified = true;
      break;
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      refusal ??= error;
    }
  }
  if (!verified) {
    const reason = refusal?.message ?? 'no webhook token to verify with';
    const status = MALFORMED_HEADERS.has(reason) ? 400 : 401;
    return { status, line: `REJECTED webhook ${id || '(no id)'}: ${reason} (${status})` };
  }
  const xSignature = header(req, 'x-signature');
  if (!xSignature) return { status: 400, line: `REJECTED webhook ${id}: no X-Signature (400)` };
  if (!secrets.some((token) => verifiesXSignature(token, body, xSignature))) {
    return { status: 401, line: `REJECTED webhook ${id}: X-Signature does not verify (401)` };
  }
  // Both signatures hold and the timestamp is fresh: a repeat within the window is a replay or a retry
  // of what was handled already, acknowledged without handling it again.
  const now = Date.now() / 1000;
  for (const [seen, until] of handled) if (until < now) handled.delete(seen);
  if (handled.has(id)) return { status: 200, line: `repeated webhook ${id}: already handled, acknowledged` };
  handled.set(id, now + TOLERANCE_SECONDS);
  return { status: 204, line: `verified webhook ${id} (${typeOf(body)}, both signatures)` };
}

/**
 * Whether `header` (`t=<timestamp>,sha256=<hex>[,sha256=<hex>]`) holds this token's HMAC-SHA256 of
 * `"<t>.<body>"`, with `t` within 5 minutes of now.
 */
function verifiesXSignature(token: string, body: string, header: string): boolean {
  const [stamp = '', ...signatures] = header.split(',');
  const t = Number(stamp.slice('t='.length));
  if (!stamp.startsWith('t=') || !Number.isInteger(t)) return false;
  if (Math.abs(Date.now() / 1000 - t) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(token.slice('whsec_'.length), 'base64');
  const expected = Buffer.from(`sha256=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`);
  return signatures.some((signature) => {
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The body as text, or undefined when it exceeds {@link MAX_BODY_BYTES}. */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      // Past the limit the rest is read and dropped, so the answer still reaches the sender.
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(' ') : (value ?? '');
}

/** The event type of a verified body, for the log line; a signed body that is not JSON is still verified. */
function typeOf(body: string): string {
  try {
    const { type } = JSON.parse(body) as { type?: unknown };
    return typeof type === 'string' ? type : 'no type';
  } catch {
    return 'not JSON';
  }
}
