/**
 * The receiver code of `docs/webhooks.md`, run as printed: the Node module imported from a file, the
 * Python one by `python3`, each verifying and applying real webhooks in a SQLite database of its own. The
 * change the tests give them writes a credit and, the first time for each event, then fails (as a ledger
 * that is briefly unavailable would), so a receiver that remembers an id too early shows as a lost credit.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { ROOT } from './readme-walkthrough';
import { waitFor } from './wait';

/** The code block of `docs/webhooks.md` in `language` that contains `marker`, as printed there. */
export function docsSnippet(language: string, marker: string): string {
  const page = readFileSync(join(ROOT, 'docs/webhooks.md'), 'utf8');
  const block = [...page.matchAll(/```(\w+)\n([\s\S]*?)```/g)].find(
    ([, lang, code]) => lang === language && code?.includes(marker),
  );
  if (!block?.[2]) throw new Error(`docs/webhooks.md has no ${language} block with ${marker}`);
  return block[2];
}

/** A change as the docs' receivers take it: made in the receiver's transaction. */
export type Change = (db: DatabaseSync, event: { readonly id: string }) => void;

/** The exports of the docs' Node receiver. */
export interface DocsNodeReceiver {
  verifyHeraldWebhook(headers: object, rawBody: Buffer, secrets: string[], now?: number): unknown;
  openDatabase(path: string): DatabaseSync;
  applyOnce(db: DatabaseSync, event: unknown, change: Change): boolean;
  receiveHeraldWebhook(
    db: DatabaseSync,
    headers: object,
    rawBody: Buffer,
    secrets: string[],
    change: Change,
    now?: number,
  ): number;
}

/** The docs' Node receiver, imported from a file in `dir` (a fresh module each time). */
export async function docsNodeReceiver(dir: string, name: string): Promise<DocsNodeReceiver> {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, docsSnippet('js', 'receiveHeraldWebhook'));
  return (await import(pathToFileURL(file).href)) as DocsNodeReceiver;
}

/** The credits table the tests' change writes to, one row per application of an event. */
export const CREDITS_TABLE = 'CREATE TABLE IF NOT EXISTS credits (event_id TEXT NOT NULL)';

/**
 * The tests' change: a credit for the event, then, the first time for each event, a failure, which
 * must undo the credit too.
 */
export function failingOnceChange(): Change {
  const failed = new Set<string>();
  return (db, event) => {
    db.prepare('INSERT INTO credits (event_id) VALUES (?)').run(event.id);
    if (failed.has(event.id)) return;
    failed.add(event.id);
    throw new Error('the ledger is unavailable');
  };
}

/** One call of the docs' Python `verify_herald_webhook`. */
export interface PythonVerifyCase {
  readonly headers: Readonly<Record<string, string>>;
  readonly rawBody: Buffer;
  readonly secrets: readonly string[];
  readonly now: number;
}

/** Whether the docs' Python `verify_herald_webhook` accepts each case, in one interpreter. */
export function docsPythonVerifies(cases: readonly PythonVerifyCase[]): boolean[] {
  const driver = `${docsSnippet('python', 'receive_herald_webhook')}
import base64 as _b64, json as _json, sys as _sys
_cases = _json.load(_sys.stdin)
print(_json.dumps([verify_herald_webhook(c["headers"], _b64.b64decode(c["body"]), c["secrets"], c["now"]) is not None
                   for c in _cases]))
`;
  const input = cases.map((c) => ({ ...c, body: c.rawBody.toString('base64'), rawBody: undefined }));
  const run = spawnSync('python3', ['-c', driver], { input: JSON.stringify(input), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as boolean[];
}

/** A request the Python receiver answered, and its answer. */
export interface PythonReceived {
  readonly headers: Readonly<Record<string, string>>;
  readonly rawBody: Buffer;
  readonly status: number;
}

/** The docs' Python receiver serving HTTP on 127.0.0.1. */
export interface PythonDocsReceiver {
  readonly url: string;
  /** Every request so far, in order. */
  readonly received: readonly PythonReceived[];
  /** Stops the process (by its pid) and waits for it to exit. */
  close(): Promise<void>;
}

/**
 * Starts `python3` with the docs' Python receiver behind a standard-library HTTP server on 127.0.0.1
 * (a free port), its database at `databasePath`, verifying with `token`, applying the tests' change that
 * fails the first time for each event; an exception of the receiver answers 500, as a framework would.
 */
export async function startPythonDocsReceiver(
  databasePath: string,
  token: string,
): Promise<PythonDocsReceiver> {
  const driver = `${docsSnippet('python', 'receive_herald_webhook')}
import base64 as _b64, http.server as _http, json as _json, os as _os

_db = open_database(_os.environ["RECEIVER_DATABASE"])
_db.execute("${CREDITS_TABLE}")
_secrets = [_os.environ["RECEIVER_TOKEN"]]
_failed = set()

def _change(db, event):
    db.execute("INSERT INTO credits (event_id) VALUES (?)", (event["id"],))
    if event["id"] not in _failed:
        _failed.add(event["id"])
        raise RuntimeError("the ledger is unavailable")

class _Handler(_http.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            status = receive_herald_webhook(_db, headers, body, _secrets, _change)
        except Exception:
            status = 500
        print(_json.dumps({"headers": headers, "body": _b64.b64encode(body).decode(), "status": status}), flush=True)
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass

_server = _http.HTTPServer(("127.0.0.1", 0), _Handler)
print(_json.dumps({"port": _server.server_port}), flush=True)
_server.serve_forever()
`;
  const child: ChildProcess = spawn('python3', ['-c', driver], {
    env: { ...process.env, RECEIVER_DATABASE: databasePath, RECEIVER_TOKEN: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const received: PythonReceived[] = [];
  let port: number | undefined;
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const parsed = JSON.parse(line) as {
      port?: number;
      headers?: Record<string, string>;
      body?: string;
      status?: number;
    };
    if (parsed.port !== undefined) port = parsed.port;
    else
      received.push({
        headers: parsed.headers ?? {},
        rawBody: Buffer.from(parsed.body ?? '', 'base64'),
        status: Number(parsed.status),
      });
  });
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    const started = await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`the Python receiver exited: ${stderr}`);
        return port;
      },
      { what: 'the Python receiver to listen' },
    );
    return { url: `http://127.0.0.1:${started}/hooks`, received, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The headers a captured webhook is sent again with. */
export function signatureHeaders(headers: IncomingHttpHeaders | Readonly<Record<string, string>>) {
  const names = ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-signature'];
  return Object.fromEntries(names.map((name) => [name, String(headers[name] ?? '')]));
}
