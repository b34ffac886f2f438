/**
 * A test event on demand (`POST /accounts/{iban}/test-events`): an example of the catalog sent to the
 * account's webhook URL (or to the one of its endpoints the request names) now, by the same steps as a delivery attempt (`webhook-request.ts`: the
 * organization's tokens and keys sign it, the endpoint's payload key encrypts it, its client certificate
 * and CA make the connection, the URL policy is checked before and the address while connecting), marked
 * as a test in its body (`"test": true`, `"sequence": null`) and in the `Herald-Test` header, and answered
 * with what the receiver answered.
 *
 * Nothing of it is stored but the account's rate-limit counter: it is no event, takes no sequence, records
 * no attempt and neither reads nor writes the endpoint's health. A customer tests a receiver to see whether
 * it works, often while it does not yet (a new one, or one being fixed after its endpoint was disabled), so
 * a test goes out whatever the circuit says, and its answer changes nothing for the account's real events:
 * a failing test must not open the circuit of a receiver that handles its real events well, nor a passing
 * one close a circuit that real failures opened (enabling is its own, explicit request). The rate limit
 * bounds what a test can send where a circuit would have stopped it.
 */

import type { EndpointSecretStore, PayloadEncrypter } from '#domain/endpoint-security/ports';
import type { Endpoint } from '#domain/endpoints/endpoint';
import { BusyError, ConflictError, NotFoundError, RateLimitedError } from '#domain/errors';
import type { EventTypeCatalog } from '#domain/event-types/catalog-port';
import { reservedNoticeType } from '#domain/event-types/operational-notices';
import { unknownEventType } from '#domain/event-types/unknown-names';
import { parseIban } from '#domain/iban';
import { uuidv7 } from '#domain/ids';
import type { Account } from '#domain/model';
import type { DirectoryStore, EndpointStore } from '#domain/ports';
import type { SecretSealer } from '#domain/signing/secret-sealer';
import { SealerUnavailableError } from '#domain/signing/secret-sealer';
import { testWebhookBody } from '#domain/webhook-body';
import { DeliveryContext } from './delivery-context';
import type { TestEventAllowance } from './test-event-port';
import {
  chooseTestExample,
  type SentTestEvent,
  type TestExampleChoice,
  testEventWindow,
} from './test-event-rule';
import { type OutgoingWebhook, prepareRequest, type SendDeps, sendPrepared } from './webhook-request';

/** What sending a test event needs: what a delivery reads and sends with, the catalog and the counter. */
export interface TestEventDeps extends SendDeps {
  /** Read fresh (strongly consistent) for every test: the URL and tokens as they are now. */
  readonly directory: Pick<DirectoryStore, 'getAccount' | 'getOrganization'>;
  /** Opens the organization's Ed25519 keys (`v1a`) and the endpoint's TLS client key. */
  readonly sealer?: SecretSealer | undefined;
  /** The endpoint's material (payload key, TLS client certificate and key, CA). */
  readonly endpointSecrets?: Pick<EndpointSecretStore, 'getSecrets'> | undefined;
  /** Encrypts bodies for endpoints with a payload key. */
  readonly encrypter?: PayloadEncrypter | undefined;
  /** The accounts' extra endpoints, read when a test names one. */
  readonly endpointStore?: Pick<EndpointStore, 'listEndpoints'> | undefined;
  readonly allowance: TestEventAllowance;
  /** The event types a test may send: the catalog as it stands, operators' types included. */
  readonly catalog: Pick<EventTypeCatalog, 'get' | 'names'>;
}

/** A test event asked for. */
export interface TestEventRequest extends TestExampleChoice {
  /** The caller's organization; absent for an operator, who may test any account. */
  readonly orgId?: string | undefined;
  readonly iban: string;
  /** The account's endpoint the test goes to; absent: its default one. */
  readonly endpointId?: string | undefined;
  /** The API's base URL, for the body's `_links` (as a real event's). */
  readonly baseUrl: string;
}

/**
 * Sends a test event to an account's webhook URL now and answers what the receiver answered.
 *
 * @throws ValidationError for a malformed IBAN, or naming `type` for an operational notice's type (Herald
 *   sends those); NotFoundError for an account of another organization or none; UnprocessableError naming
 *   `type`, `version` or `example` the catalog lacks; ConflictError for an account without a webhook URL;
 *   RateLimitedError past the account's test events of the minute; BusyError when the key service did not
 *   answer now (nothing sent)
 */
export async function sendTestEvent(deps: TestEventDeps, request: TestEventRequest): Promise<SentTestEvent> {
  const iban = parseIban('iban', request.iban);
  const context = new DeliveryContext(deps.directory, deps.sealer, deps.endpointSecrets, deps.endpointStore);
  const account = await context.account(iban);
  if (!account || (request.orgId !== undefined && account.orgId !== request.orgId)) {
    throw new NotFoundError(`No account ${iban}.`);
  }
  const entry = await deps.catalog.get(request.type);
  if (!entry) throw unknownEventType(request.type, await deps.catalog.names());
  if (entry.operational === true) throw reservedNoticeType(request.type);
  const chosen = chooseTestExample(entry.definition, request);
  const endpoint = await endpointOf(context, account, request.endpointId);
  const url = endpoint.url;
  if (!url) {
    throw new ConflictError(`Account ${iban} has no webhook_url: set one, then send a test event to it.`);
  }
  const org = await context.organization(account.orgId);
  if (!org) throw new NotFoundError(`No account ${iban}.`);
  // Counted last, for the organization's own account only: a refused request uses none of its budget,
  // and no caller can use up another organization's.
  const window = testEventWindow(deps.now());
  if (!(await deps.allowance.take(account.orgId, iban, window))) {
    throw new RateLimitedError(
      `At most ${window.limit} test events a minute per account: send the next one in ${window.retryAfterSeconds} s.`,
      window.retryAfterSeconds,
    );
  }
  // The counter's key names the IBAN, and an erasure must leave none: an account deleted since it was
  // read (its deletion removed the counter before this wrote it) loses the counter again, nothing sent.
  const still = await deps.directory.getAccount(iban, { consistent: true });
  if (still?.orgId !== account.orgId) {
    await deps.allowance.forget(account.orgId, iban);
    throw new NotFoundError(`No account ${iban}.`);
  }
  const nowMs = deps.now();
  const id = uuidv7(nowMs);
  const message: OutgoingWebhook = {
    id,
    body: testWebhookBody({
      id,
      type: chosen.type,
      typeVersion: chosen.version.version,
      account: iban,
      triggeredAt: new Date(nowMs).toISOString(),
      payloadJson: JSON.stringify(chosen.example.payload),
      baseUrl: request.baseUrl,
    }),
    test: true,
  };
  const prepared = await prepareRequest(context, deps, message, endpoint, org, nowMs).catch((error) => {
    // The key service did not answer now: nothing was sent, and asking again shortly may succeed.
    if (!(error instanceof SealerUnavailableError)) throw error;
    throw new BusyError('The key service did not answer: send the test event again in a moment.', {
      cause: error,
    });
  });
  const sent = await sendPrepared(deps, message, url, org, prepared);
  return {
    id,
    account: iban,
    type: chosen.type,
    version: chosen.version.version,
    example: chosen.example.name,
    attempt: sent.attempt,
    ...(sent.error === undefined ? {} : { error: sent.error }),
  };
}

/**
 * The endpoint a test goes to: the account's default one, or the one of its endpoints the request names.
 *
 * @throws NotFoundError when the account has no endpoint of that id
 */
async function endpointOf(
  context: DeliveryContext,
  account: Account,
  endpointId: string | undefined,
): Promise<Endpoint> {
  const [first, ...extras] = await context.endpoints(account);
  if (endpointId === undefined && first) return first;
  const named = [first, ...extras].find((endpoint) => endpoint !== undefined && endpoint.id === endpointId);
  if (!named) throw new NotFoundError(`No endpoint ${endpointId} of account ${account.iban}.`);
  return named;
}
