/**
 * Receiver snippets that verify a Herald webhook and apply its event once, filled with the organization's
 * values: verifying and remembering an event are kept apart, the event's id recorded only in the same
 * transaction as the receiver's change (`docs/webhooks.md`). Pure text, so tests can check each one. Every
 * value goes in as a string literal of the snippet's language (`literals.ts`), comments included: a path
 * or a name can never become code.
 */
import { goLiteral, javaLiteral, jsLiteral, pythonLiteral, rubyLiteral } from './literals';
import { goSnippet, javaSnippet, rubySnippet } from './snippets-go-java-ruby';

/** What fills the snippets. */
export interface SnippetValues {
  /**
   * The organization's `webhook_token` as a literal of each language (`tokenLiterals`), or an expression
   * that reads it (e.g. from the environment).
   */
  readonly tokenLiteral: {
    readonly node: string;
    readonly python: string;
    readonly go: string;
    readonly java: string;
    readonly ruby: string;
  };
  /** Path of the receiver's route, e.g. `/herald`. */
  readonly path: string;
  readonly orgName: string;
}

/** The language tabs, in display order. */
export const LANGUAGES = ['Node', 'Python', 'Go', 'Java', 'Ruby', 'X-Signature (Node)'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Environment-variable expressions for the token, per language. */
export const ENV_TOKEN = {
  node: 'process.env.HERALD_WEBHOOK_TOKEN',
  python: 'os.environ["HERALD_WEBHOOK_TOKEN"]',
  go: 'os.Getenv("HERALD_WEBHOOK_TOKEN")',
  java: 'System.getenv("HERALD_WEBHOOK_TOKEN")',
  ruby: "ENV['HERALD_WEBHOOK_TOKEN']",
} as const;

/** A known token as each language's literal. */
export function tokenLiterals(token: string): SnippetValues['tokenLiteral'] {
  return {
    node: jsLiteral(token),
    python: pythonLiteral(token),
    go: goLiteral(token),
    java: javaLiteral(token),
    ruby: rubyLiteral(token),
  };
}

/** The snippet of one language. */
export function snippet(language: Language, v: SnippetValues): string {
  const t = v.tokenLiteral;
  switch (language) {
    case 'Node':
      return `// npm install standardwebhooks express (Node 22.13+ for node:sqlite) — receives webhooks of ${jsLiteral(v.orgName)}
import express from 'express';
import { DatabaseSync } from 'node:sqlite';
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(${t.node});
// Your database (any with transactions): it also holds the ids of the events applied.
const db = new DatabaseSync('receiver.db');
db.exec('CREATE TABLE IF NOT EXISTS herald_applied_events (event_id TEXT PRIMARY KEY)');

// Applies an event once. Its id is recorded in the same transaction as your change, never before: if the
// change throws, neither is kept, the answer is 500 and Herald's retry applies it; a repeat changes nothing.
function applyOnce(event, change) {
  db.exec('BEGIN IMMEDIATE');
  try {
    if (!db.prepare('SELECT 1 FROM herald_applied_events WHERE event_id = ?').get(event.id)) {
      change(db, event);
      db.prepare('INSERT INTO herald_applied_events (event_id) VALUES (?)').run(event.id);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

const app = express();
app.post(${jsLiteral(v.path)}, express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    // Checks webhook-signature over the raw body and that webhook-timestamp is within 5 minutes.
    event = wh.verify(req.body, req.headers);
  } catch {
    return res.sendStatus(400);
  }
  try {
    applyOnce(event, (tx, e) => console.log(e.type, e.payload)); // your change, made with tx
  } catch {
    return res.sendStatus(500);
  }
  res.sendStatus(204);
});
app.listen(8080);`;
    case 'Python':
      return `# pip install standardwebhooks flask — receives webhooks of ${pythonLiteral(v.orgName)}
import os, sqlite3
from contextlib import closing
from flask import Flask, request
from standardwebhooks.webhooks import Webhook

wh = Webhook(${t.python})
app = Flask(__name__)
DATABASE = "receiver.db"  # your database (any with transactions): it also holds the ids of the events applied
with closing(sqlite3.connect(DATABASE, isolation_level=None)) as db:
    db.execute("CREATE TABLE IF NOT EXISTS herald_applied_events (event_id TEXT PRIMARY KEY)")

def apply_once(event, change):
    # Applies an event once. Its id is recorded in the same transaction as your change, never before: if the
    # change raises, neither is kept, the answer is 500 and Herald's retry applies it; a repeat changes nothing.
    with closing(sqlite3.connect(DATABASE, isolation_level=None)) as db:  # a connection per request
        db.execute("BEGIN IMMEDIATE")
        try:
            if not db.execute("SELECT 1 FROM herald_applied_events WHERE event_id = ?", (event["id"],)).fetchone():
                change(db, event)
                db.execute("INSERT INTO herald_applied_events (event_id) VALUES (?)", (event["id"],))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

@app.post(${pythonLiteral(v.path)})
def herald():
    try:
        # Checks webhook-signature over the raw body and that webhook-timestamp is within 5 minutes.
        event = wh.verify(request.get_data(), dict(request.headers))
    except Exception:
        return "", 400
    # Your change, made with db. Should it raise, Flask answers 500 and Herald retries.
    apply_once(event, lambda db, e: print(e["type"], e["payload"]))
    return "", 204`;
    case 'Go':
      return goSnippet(v);
    case 'Java':
      return javaSnippet(v);
    case 'Ruby':
      return rubySnippet(v);
    case 'X-Signature (Node)':
      return `// X-Signature: t=<timestamp>,sha256=<hex HMAC-SHA256(key, "<t>.<raw body>")>, key = base64 after "whsec_" (${jsLiteral(v.orgName)}).
// Each attempt signs itself; during a token rotation's overlap a second sha256= carries the old token's.
// Refuse a timestamp more than 5 minutes off; then apply the event once, keyed by the body's "id" (which
// X-Signature covers; webhook-id it does not), recorded in the same transaction as your change, never before.
import { createHmac, timingSafeEqual } from 'node:crypto';

const token = ${t.node};
const key = Buffer.from(token.slice('whsec_'.length), 'base64');

export function verifyXSignature(rawBody, header, nowSeconds = Date.now() / 1000) {
  const [stamp = '', ...signatures] = String(header ?? '').split(',');
  const t = Number(stamp.slice(2));
  if (!stamp.startsWith('t=') || !Number.isInteger(t) || Math.abs(nowSeconds - t) > 300) return false;
  const mac = createHmac('sha256', key).update(t + '.').update(rawBody).digest('hex');
  const expected = Buffer.from('sha256=' + mac);
  return signatures.some((s) => {
    const given = Buffer.from(s);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}`;
  }
}
