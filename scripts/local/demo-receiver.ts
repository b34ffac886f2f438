import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { standardSignature, webhookKey } from '#domain/signing';

/** The demo receiver of `npm start`: accepts webhooks and checks their Standard Webhooks signature. */
export interface DemoReceiver {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts a receiver on a free loopback port that answers 204 to a correctly signed webhook and 401
 * otherwise, and prints one line per delivery.
 *
 * @param tokens - reads the organization's webhook tokens: the current one and, during a rotation's
 *   overlap, the previous one (a receiver switching secrets accepts either)
 */
export async function startDemoReceiver(
  tokens: () => Promise<readonly string[]>,
  log: (line: string) => void,
): Promise<DemoReceiver> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id']);
      const timestamp = Number(req.headers['webhook-timestamp']);
      // Read per request, so a token rotated with the CLI is picked up at once.
      const sent = String(req.headers['webhook-signature'] ?? '').split(' ');
      const verified = (await tokens()).some((token) =>
        sent.includes(standardSignature(webhookKey(token), id, timestamp, body)),
      );
      const { type } = JSON.parse(body) as { type?: string };
      log(`demo receiver: ${verified ? 'verified' : 'BAD SIGNATURE'} webhook ${id} (${type})`);
      res.writeHead(verified ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
