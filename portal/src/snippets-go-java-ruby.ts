/**
 * The Go, Java and Ruby receiver snippets of `snippets.ts`: the Standard Webhooks library of each language
 * verifies, and the event is applied once with its id recorded in the same transaction as the change.
 */
import { goLiteral, javaLiteral, rubyLiteral } from './literals';
import type { SnippetValues } from './snippets';

/** The Go snippet. */
export function goSnippet(v: SnippetValues): string {
  return `// go get github.com/standard-webhooks/standard-webhooks/libraries — receives webhooks of ${goLiteral(v.orgName)}
package main

import (
	"database/sql"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"os"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// applyOnce applies an event once. Its id is recorded in the same transaction as your change, never
// before: if the change fails, neither is kept, the answer is 500 and Herald's retry applies it; a repeat
// changes nothing. The table: herald_applied_events (event_id TEXT PRIMARY KEY).
func applyOnce(db *sql.DB, id string, change func(*sql.Tx) error) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback() // undoes everything unless committed
	var applied int
	err = tx.QueryRow("SELECT count(*) FROM herald_applied_events WHERE event_id = $1", id).Scan(&applied)
	if err != nil || applied > 0 {
		return err
	}
	if err := change(tx); err != nil {
		return err
	}
	if _, err := tx.Exec("INSERT INTO herald_applied_events (event_id) VALUES ($1)", id); err != nil {
		return err
	}
	return tx.Commit()
}

func main() {
	wh, err := standardwebhooks.NewWebhook(${v.tokenLiteral.go})
	if err != nil {
		panic(err)
	}
	// Your database (any with transactions), its driver imported: e.g. _ "github.com/lib/pq".
	db, err := sql.Open("postgres", os.Getenv("DATABASE_URL"))
	if err != nil {
		panic(err)
	}
	http.HandleFunc(${goLiteral(v.path)}, func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		// Checks webhook-signature over the raw body and that webhook-timestamp is within 5 minutes.
		if err != nil || wh.Verify(body, r.Header) != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		var event struct{ ID, Type string }
		if err := json.Unmarshal(body, &event); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		err = applyOnce(db, event.ID, func(tx *sql.Tx) error {
			log.Println(event.Type) // your change, made with tx
			return nil
		})
		if err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	http.ListenAndServe(":8080", nil)
}`;
}

/** The Java snippet. */
export function javaSnippet(v: SnippetValues): string {
  return `// com.standardwebhooks:standardwebhooks — receives webhooks of ${javaLiteral(v.orgName)}
import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import java.net.http.HttpHeaders;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

public final class HeraldReceiver {
    private static final Webhook WH = new Webhook(${v.tokenLiteral.java});
    /** The route Herald posts to: map it to {@link #receive} in your framework. */
    public static final String ROUTE = ${javaLiteral(v.path)};

    /** Your change for one event, made with the transaction's connection. */
    public interface Change {
        void apply(Connection tx, String rawBody) throws SQLException;
    }

    /**
     * The status to answer: 400 unless Herald signed the raw body (webhook-signature, webhook-timestamp
     * within 5 minutes), else 204 once the event is applied, now or before. Its id (webhook-id: the body's
     * "id", covered by the signature) is recorded in the same transaction as your change, never before: if
     * the change fails, neither is kept, this throws (answer 500) and Herald's retry applies it; a repeat
     * changes nothing. The table: herald_applied_events (event_id VARCHAR(64) PRIMARY KEY).
     */
    public static int receive(DataSource db, String rawBody, HttpHeaders headers, Change change)
            throws SQLException {
        try {
            WH.verify(rawBody, headers);
        } catch (WebhookVerificationException e) {
            return 400;
        }
        String id = headers.firstValue("webhook-id").orElseThrow();
        try (Connection tx = db.getConnection()) {
            tx.setAutoCommit(false);
            try (PreparedStatement seen = tx.prepareStatement(
                    "SELECT 1 FROM herald_applied_events WHERE event_id = ?")) {
                seen.setString(1, id);
                if (!seen.executeQuery().next()) {
                    change.apply(tx, rawBody);
                    try (PreparedStatement record = tx.prepareStatement(
                            "INSERT INTO herald_applied_events (event_id) VALUES (?)")) {
                        record.setString(1, id);
                        record.executeUpdate();
                    }
                }
                tx.commit();
            } catch (SQLException | RuntimeException e) {
                tx.rollback();
                throw e;
            }
        }
        return 204;
    }
}`;
}

/** The Ruby snippet. */
export function rubySnippet(v: SnippetValues): string {
  return `# gem install standardwebhooks sinatra sequel — receives webhooks of ${rubyLiteral(v.orgName)}
require 'sinatra'
require 'sequel'
require 'standardwebhooks'

WH = StandardWebhooks::Webhook.new(${v.tokenLiteral.ruby})
# Your database (any with transactions): it also holds the ids of the events applied.
DB = Sequel.connect(ENV.fetch('DATABASE_URL'))
DB.create_table?(:herald_applied_events) { String :event_id, primary_key: true }

# Applies an event once. Its id is recorded in the same transaction as your change, never before: if the
# change raises, neither is kept, the answer is 500 and Herald's retry applies it; a repeat changes nothing.
def apply_once(event)
  DB.transaction do
    next if DB[:herald_applied_events].where(event_id: event['id']).any?

    yield event # your change, made in this transaction
    DB[:herald_applied_events].insert(event_id: event['id'])
  end
end

post ${rubyLiteral(v.path)} do
  headers = {
    'webhook-id' => request.env['HTTP_WEBHOOK_ID'],
    'webhook-timestamp' => request.env['HTTP_WEBHOOK_TIMESTAMP'],
    'webhook-signature' => request.env['HTTP_WEBHOOK_SIGNATURE']
  }
  begin
    # Checks webhook-signature over the raw body and that webhook-timestamp is within 5 minutes.
    event = WH.verify(request.body.read, headers)
  rescue StandardError
    halt 400
  end
  apply_once(event) { |e| logger.info(e['type']) } # raising answers 500
  status 204
end`;
}
