/**
 * Receiver snippets that verify a Herald webhook, filled with the organization's values. Pure text, so
 * a test can run the Node ones against real Herald signatures. Every value goes in as a string literal of
 * the snippet's language (`literals.ts`), comments included: a path or a name can never become code.
 */
import { goLiteral, javaLiteral, jsLiteral, pythonLiteral, rubyLiteral } from './literals';

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
      return `// npm install standardwebhooks express — verifies webhooks of ${jsLiteral(v.orgName)}
import express from 'express';
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(${t.node});
const app = express();
app.post(${jsLiteral(v.path)}, express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    // Checks webhook-signature over the raw body and that webhook-timestamp is within 5 minutes.
    event = wh.verify(req.body, req.headers);
  } catch {
    return res.sendStatus(400);
  }
  // Delivery is at least once: skip event.id if you have handled it already.
  console.log(event.type, event.payload);
  res.sendStatus(204);
});
app.listen(8080);`;
    case 'Python':
      return `# pip install standardwebhooks flask — verifies webhooks of ${pythonLiteral(v.orgName)}
import os
from flask import Flask, request
from standardwebhooks.webhooks import Webhook

wh = Webhook(${t.python})
app = Flask(__name__)

@app.post(${pythonLiteral(v.path)})
def herald():
    try:
        event = wh.verify(request.get_data(), dict(request.headers))
    except Exception:
        return "", 400
    # Delivery is at least once: skip event["id"] if you have handled it already.
    print(event["type"], event["payload"])
    return "", 204`;
    case 'Go':
      return `// go get github.com/standard-webhooks/standard-webhooks/libraries — verifies webhooks of ${goLiteral(v.orgName)}
package main

import (
	"io"
	"net/http"
	"os"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

func main() {
	wh, err := standardwebhooks.NewWebhook(${t.go})
	if err != nil {
		panic(err)
	}
	http.HandleFunc(${goLiteral(v.path)}, func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil || wh.Verify(body, r.Header) != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	http.ListenAndServe(":8080", nil)
}`;
    case 'Java':
      return `// com.standardwebhooks:standardwebhooks — verifies webhooks of ${javaLiteral(v.orgName)}
import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import java.net.http.HttpHeaders;

public final class HeraldReceiver {
    private static final Webhook WH = new Webhook(${t.java});
    /** The route Herald posts to: map it to {@link #verify} in your framework. */
    public static final String ROUTE = ${javaLiteral(v.path)};

    /** Call with the raw request body and its headers; true when Herald sent it. */
    public static boolean verify(String rawBody, HttpHeaders headers) {
        try {
            WH.verify(rawBody, headers);
            return true;
        } catch (WebhookVerificationException e) {
            return false;
        }
    }
}`;
    case 'Ruby':
      return `# gem install standardwebhooks sinatra — verifies webhooks of ${rubyLiteral(v.orgName)}
require 'sinatra'
require 'standardwebhooks'

WH = StandardWebhooks::Webhook.new(${t.ruby})

post ${rubyLiteral(v.path)} do
  headers = {
    'webhook-id' => request.env['HTTP_WEBHOOK_ID'],
    'webhook-timestamp' => request.env['HTTP_WEBHOOK_TIMESTAMP'],
    'webhook-signature' => request.env['HTTP_WEBHOOK_SIGNATURE']
  }
  begin
    event = WH.verify(request.body.read, headers)
  rescue StandardError
    halt 400
  end
  status 204
end`;
    case 'X-Signature (Node)':
      return `// X-Signature: t=<timestamp>,sha256=<hex HMAC-SHA256(key, "<t>.<raw body>")>, key = base64 after "whsec_" (${jsLiteral(v.orgName)}).
// Each attempt signs itself; during a token rotation's overlap a second sha256= carries the old token's.
// Refuse a timestamp more than 5 minutes off, and answer 2xx without acting to a webhook-id already handled.
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
