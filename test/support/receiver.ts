/**
 * A real HTTP webhook receiver for tests: `node:http` on 127.0.0.1, a free port, scriptable per request
 * (status, body, delay, hang, reset, redirect) and recording every request with its arrival time,
 * headers and raw body.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type WaitOptions, waitFor } from './wait';

/** One request as the receiver saw it. */
export interface RecordedRequest {
  /** 0-based position among the receiver's requests. */
  readonly index: number;
  /** Arrival of the request head, epoch milliseconds with sub-millisecond precision. */
  readonly at: number;
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  /** Header names in lower case, as node gives them. */
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: Buffer;
  /** `rawBody` decoded as UTF-8. */
  readonly body: string;
}

/** How the receiver answers one request. */
export type Reply =
  | {
      readonly kind: 'respond';
      readonly status: number;
      readonly body?: string | Uint8Array;
      readonly headers?: Readonly<Record<string, string>>;
      /** Wait this long before answering. */
      readonly delayMs?: number;
    }
  /** Reads the request and never answers (the connection stays open until the client gives up). */
  | { readonly kind: 'hang' }
  /** Resets the TCP connection (RST) instead of answering. */
  | { readonly kind: 'reset' }
  /** Sends the status line, headers and part of the body, then nothing more (the body never ends). */
  | { readonly kind: 'stall'; readonly status: number; readonly partialBody: string }
  /** Sends the status line, headers and part of the body, then resets the connection. */
  | { readonly kind: 'reset-mid-response'; readonly status: number; readonly partialBody: string }
  /** Answers a redirect (301 unless told otherwise) to `location`. */
  | { readonly kind: 'redirect'; readonly location: string; readonly status?: number };

/** Decides the reply for each request; called after the request body was read. */
export type ReplyScript = (request: RecordedRequest) => Reply;

/** Reply builders. */
export const reply = {
  status: (status: number, body = '', headers?: Readonly<Record<string, string>>): Reply => ({
    kind: 'respond',
    status,
    body,
    ...(headers ? { headers } : {}),
  }),
  delayed: (delayMs: number, status: number, body = ''): Reply => ({
    kind: 'respond',
    status,
    body,
    delayMs,
  }),
  hang: (): Reply => ({ kind: 'hang' }),
  reset: (): Reply => ({ kind: 'reset' }),
  stall: (status: number, partialBody: string): Reply => ({ kind: 'stall', status, partialBody }),
  resetMidResponse: (status: number, partialBody: string): Reply => ({
    kind: 'reset-mid-response',
    status,
    partialBody,
  }),
  redirect: (location: string, status = 301): Reply => ({ kind: 'redirect', location, status }),
} as const;

/** A script answering the given replies in order, repeating the last one forever. */
export function inSequence(...replies: readonly [Reply, ...Reply[]]): ReplyScript {
  return (request) => replies[Math.min(request.index, replies.length - 1)] ?? replies[0];
}

/** A script failing the first `times` requests with `failure`, then answering `success`. */
export function failTimes(
  times: number,
  failure: Reply = reply.status(500, 'not yet'),
  success: Reply = reply.status(200, 'ok'),
): ReplyScript {
  return (request) => (request.index < times ? failure : success);
}

/** A running receiver. */
export interface Receiver {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** `<origin>/hooks`: the URL to configure as an account's webhook URL. */
  readonly url: string;
  /** Every request so far, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Replaces the reply script for the requests that follow. */
  setScript(script: ReplyScript): void;
  /** Waits until at least `count` requests arrived and returns them. */
  waitForRequests(count: number, options?: WaitOptions): Promise<readonly RecordedRequest[]>;
  /** Closes the server and every connection it holds (hanging ones included). Idempotent. */
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 and a free port; by default every request gets `200 ok`. */
export async function startReceiver(script: ReplyScript = () => reply.status(200, 'ok')): Promise<Receiver> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let current = script;
  let closing: Promise<void> | undefined;

  const answer = (res: ServerResponse, socket: Socket, chosen: Reply): void => {
    switch (chosen.kind) {
      case 'respond': {
        const send = (): void => {
          res.writeHead(chosen.status, { 'Content-Type': 'text/plain; charset=utf-8', ...chosen.headers });
          res.end(chosen.body ?? '');
        };
        if (chosen.delayMs === undefined || chosen.delayMs <= 0) {
          send();
          return;
        }
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) send();
        }, chosen.delayMs);
        timers.add(timer);
        return;
      }
      case 'hang':
        return;
      case 'reset':
        socket.resetAndDestroy();
        return;
      case 'stall': {
        const partial = Buffer.from(chosen.partialBody, 'utf8');
        res.writeHead(chosen.status, {
          'Content-Type': 'text/plain; charset=utf-8',
          'Content-Length': String(partial.length + 1000),
        });
        res.write(partial);
        return;
      }
      case 'reset-mid-response': {
        const partial = Buffer.from(chosen.partialBody, 'utf8');
        res.writeHead(chosen.status, {
          'Content-Type': 'text/plain; charset=utf-8',
          // Promise more than is sent, so the cut is visible to the client.
          'Content-Length': String(partial.length + 1000),
        });
        res.write(partial, () => {
          // Let the head and the partial body leave before the RST.
          const timer = setTimeout(() => {
            timers.delete(timer);
            socket.resetAndDestroy();
          }, 50);
          timers.add(timer);
        });
        return;
      }
      case 'redirect':
        res.writeHead(chosen.status ?? 301, { Location: chosen.location, 'Content-Type': 'text/plain' });
        res.end(`moved to ${chosen.location}`);
        return;
    }
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const at = performance.timeOrigin + performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const recorded: RecordedRequest = {
        index: requests.length,
        at,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawBody,
        body: rawBody.toString('utf8'),
      };
      requests.push(recorded);
      let chosen: Reply;
      try {
        chosen = current(recorded);
      } catch (error) {
        chosen = reply.status(599, `receiver script failed: ${(error as Error).message}`);
      }
      answer(res, req.socket, chosen);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A reset by the client (Herald giving up on a hanging receiver) is expected here.
    socket.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    port,
    origin,
    url: `${origin}/hooks`,
    requests,
    setScript: (next) => {
      current = next;
    },
    waitForRequests: (count, options = {}) =>
      waitFor(() => requests.length >= count && requests, {
        what: `${count} request(s) at ${origin}`,
        ...options,
      }),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}

/**
 * A loopback port nothing listens on: a server binds a free port and closes again. (Another process
 * could take the port meanwhile; on a test machine that is unlikely enough.)
 */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
