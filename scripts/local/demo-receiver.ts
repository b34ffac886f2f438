import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/** The demo receiver of `npm start`: accepts webhooks and checks their Standard Webhooks signature. */
export interface DemoReceiver {
  readonly url: string;
  close(): Promise<void>;
}

/** Larger bodies are refused unread: a webhook body is at most a 64 KiB payload plus its envelope. */
const MAX_BODY_BYTES = 1024 * 1024;
/** What the library says when a header is absent or not a number: the request is malformed (400). */
const MALFORMED_HEADERS = new Set(['Missing required headers', 'Invalid Signature Headers']);

/**
 * Starts a receiver on a free loopback port and prints one line per request. It verifies as a customer's
 * receiver should, with the `standardwebhooks` library: constant-time signature comparison and a
 * timestamp within 5 minutes of now. Answers 204 to a verified webhook, 400 when a `webhook-*` header
 * is missing or malformed, 401 for a wrong signature or a stale timestamp, 413 for an oversized body;
 * no request can stop it.
 *
 * @param tokens - reads the organization's webhook tokens: the current one and, during a rotation's
 *   overlap, the previous one (a receiver switching secrets accepts either)
 */
export async function startDemoReceiver(
  tokens: () => Promise<readonly string[]>,
  log: (line: string) => void,
): Promise<DemoReceiver> {
  const server: Server = createServer((req, res) => {
    receive(req, tokens)
      .then(({ status, line }) => {
        log(`demo receiver: ${line}`);
        res.writeHead(status).end();
      })
      .catch((error: unknown) => {
        log(`demo receiver: could not check a webhook: ${(error as Error).message}`);
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
  let refusal: WebhookVerificationError | undefined;
  for (const token of await tokens()) {
    try {
      new Webhook(token).verify(body, headers, { jsonParse: false });
      return { status: 204, line: `verified webhook ${id} (${typeOf(body)})` };
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      refusal ??= error;
    }
  }
  const reason = refusal?.message ?? 'no webhook token to verify with';
  const status = MALFORMED_HEADERS.has(reason) ? 400 : 401;
  return { status, line: `REJECTED webhook ${id || '(no id)'}: ${reason} (${status})` };
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
