/**
 * An account's webhook endpoints (`/accounts/{iban}/endpoints` and the operator's twins): listed, read,
 * added, changed and removed. The default endpoint is the account's own (`webhook_url`, which
 * `PUT /accounts/{iban}` also sets) and is changed through the same path as that write; extra endpoints
 * are the endpoint store's. Every write checks everything it names before it writes anything (the URL,
 * the subscription, the security material, the client key sealed), then writes the security before the
 * URL, as an account write does: a URL never receives plain JSON, or no client certificate, that the same
 * request asked for. An organization's key reaches its own accounts only (another's answers 404); the
 * operator's routes pass no organization and reach the account's.
 */
import type { EndpointHealthStore } from '#delivery/endpoint-health-port';
import { isEmptyChange } from '#domain/endpoint-security/endpoint-security';
import {
  addressOf,
  defaultEndpoint,
  type Endpoint,
  type EndpointAddress,
  type EndpointRequest,
} from '#domain/endpoints/endpoint';
import { ConflictError, NotFoundError, ValidationError } from '#domain/errors';
import type { EventTypeStore } from '#domain/event-types/store-port';
import { parseIban } from '#domain/iban';
import { newEndpointId } from '#domain/ids';
import type { Account } from '#domain/model';
import type { OperationalLog } from '#domain/notices/ports';
import type { EndpointStore } from '#domain/ports';
import { nowIso } from '#domain/time';
import { announceDisabling, announceEnabling, disablingMark } from './announce-enabling';
import { type CheckedSubscription, checkEndpointUrl, checkSubscription } from './endpoint-input';
import {
  applyChange,
  type PreparedSecurity,
  prepareEndpointSecurity,
  saveEndpointSecurity,
} from './endpoint-security';
import {
  type PutEndpointDeps,
  putEndpoint,
  requireHttpsForClientCertificate,
  targetUrl,
} from './put-endpoint';

/** What the endpoint routes need. */
export interface EndpointsDeps extends PutEndpointDeps {
  readonly endpoints: EndpointStore;
  /** `enabled`: an endpoint disabled or enabled again. */
  readonly health: Pick<EndpointHealthStore, 'enable' | 'disable' | 'markNoticed' | 'endpointId'>;
  /** Where an enabling or disabling is announced; without one, it is not. */
  readonly notices?: OperationalLog | undefined;
  /** The catalog, whose type names `event_types` may list. */
  readonly eventTypes: Pick<EventTypeStore, 'typeNames'>;
}

/** Who asks: an organization (its key) reaches its own accounts; an operator (no organization) any. */
export interface EndpointCaller {
  /** Absent: an operator. */
  readonly orgId?: string | undefined;
}

/** The account's endpoints: its default one first, then its extra ones, oldest first. */
export async function listAccountEndpoints(
  deps: Pick<EndpointsDeps, 'directory' | 'endpoints'>,
  caller: EndpointCaller,
  ibanInput: string,
): Promise<Endpoint[]> {
  const account = await accountOf(deps, caller, ibanInput);
  const extras = await deps.endpoints.listEndpoints(account.iban, account.orgId, { consistent: true });
  return [defaultEndpoint(account), ...extras];
}

/** One endpoint of the account (its default one by the account's endpoint id). */
export async function getAccountEndpoint(
  deps: Pick<EndpointsDeps, 'directory' | 'endpoints'>,
  caller: EndpointCaller,
  ibanInput: string,
  id: string,
): Promise<Endpoint> {
  const found = (await listAccountEndpoints(deps, caller, ibanInput)).find((endpoint) => endpoint.id === id);
  if (!found) throw noEndpoint(parseIban('iban', ibanInput), id);
  return found;
}

/**
 * Adds an extra endpoint to the account: its URL (required), subscription, order, security and whether
 * it starts enabled. Everything is checked and the client key sealed first; the endpoint, its count and
 * its material (and an `ordered` one's watermark) are then stored in one step.
 *
 * @throws ValidationError naming the field; NotFoundError for another organization's account or none;
 *   ConflictError past `MAX_ENDPOINTS_PER_ACCOUNT`
 */
export async function addAccountEndpoint(
  deps: EndpointsDeps,
  caller: EndpointCaller,
  ibanInput: string,
  request: EndpointRequest,
): Promise<Endpoint> {
  const account = await accountOf(deps, caller, ibanInput);
  const { iban, orgId } = account;
  if (typeof request.url !== 'string') {
    throw new ValidationError('url', "is required: the URL the endpoint's webhooks go to");
  }
  const url = await checkEndpointUrl(request.url, deps);
  const subscription = await checkSubscription(request, deps.eventTypes);
  const id = newEndpointId();
  const prepared = await prepare(deps, { iban, orgId, extra: id }, request);
  requireHttpsForClientCertificate(url, prepared, undefined);
  const now = nowIso(new Date(deps.now()));
  const security = isEmptyChange(prepared) ? undefined : applyChange(prepared, undefined, undefined);
  const added = await deps.endpoints.addEndpoint({
    iban,
    orgId,
    id,
    url: url.toString(),
    eventTypes: subscription.eventTypes ?? undefined,
    filter: subscription.filter ?? undefined,
    description: subscription.description ?? undefined,
    deliveryOrder: request.deliveryOrder,
    settledThrough: request.deliveryOrder === 'ordered' ? await latestSequence(deps, account) : undefined,
    security: security && { summary: security.summary, material: security.secrets },
    disabled: request.enabled === false ? { at: now, reason: disabledReason(caller) } : undefined,
    createdAt: now,
  });
  return added;
}

/**
 * The account log's latest sequence, where an extra endpoint's order starts when it becomes ordered: the
 * events up to it were stored before (a new endpoint is not routed them; one that was concurrent got
 * them concurrently). Read consistently, before the write that stores it.
 */
function latestSequence(deps: EndpointsDeps, account: Account): Promise<number> {
  return deps.events.latestSequence(account.orgId, account.iban, { consistent: true });
}

/**
 * Changes what the request names of one endpoint of the account; absent fields keep what is stored,
 * `null` removes. The default endpoint's change is an account write (its URL, order, security and
 * subscription); an extra endpoint's URL cannot be removed (remove the endpoint).
 *
 * @throws ValidationError naming the field; NotFoundError for another organization's account, no such
 *   endpoint, or one removed meanwhile; ConflictError when concurrent changes of its material kept winning
 */
export async function updateAccountEndpoint(
  deps: EndpointsDeps,
  caller: EndpointCaller,
  ibanInput: string,
  id: string,
  request: EndpointRequest,
): Promise<Endpoint> {
  const account = await accountOf(deps, caller, ibanInput);
  const { iban, orgId } = account;
  const url = typeof request.url === 'string' ? await checkEndpointUrl(request.url, deps) : undefined;
  const subscription = await checkSubscription(request, deps.eventTypes);
  if (id === account.endpointId) {
    // The host was checked above: the account write checks the URL's form only.
    const { checkHost: _checked, ...unchecked } = deps;
    const changed = await putEndpoint(unchecked, {
      orgId,
      iban,
      webhookUrl: url === undefined ? (request.url as null | undefined) : url.toString(),
      ...(request.deliveryOrder === undefined ? {} : { deliveryOrder: request.deliveryOrder }),
      ...subscription,
      security: request.security,
      mayCreate: false,
    });
    return enabled(deps, caller, defaultEndpoint(changed), request.enabled);
  }
  if (request.url === null) {
    throw new ValidationError('url', 'an extra endpoint always has a URL: remove the endpoint instead');
  }
  const extras = await deps.endpoints.listEndpoints(iban, orgId, { consistent: true });
  const endpoint = extras.find((extra) => extra.id === id);
  if (!endpoint) throw noEndpoint(iban, id);
  const startsOrder = request.deliveryOrder === 'ordered' && endpoint.deliveryOrder !== 'ordered';
  const prepared = await prepare(deps, addressOf(endpoint), request);
  requireHttpsForClientCertificate(targetUrl(request.url, url, endpoint.url), prepared, endpoint.security);
  const security = await saveEndpointSecurity(deps.endpointSecrets, endpoint, prepared);
  const updated = await deps.endpoints.updateEndpoint({
    iban,
    orgId,
    id,
    url: url?.toString(),
    ...subscriptionWrite(subscription),
    deliveryOrder: request.deliveryOrder,
    settledThrough: startsOrder ? await latestSequence(deps, account) : undefined,
    updatedAt: nowIso(new Date(deps.now())),
  });
  if (!updated) throw noEndpoint(iban, id);
  return enabled(deps, caller, { ...updated, security }, request.enabled);
}

/**
 * Removes an extra endpoint of the account with its material. Its deliveries still pending settle
 * `skipped` without an attempt; events routed later never go to it. The default endpoint stays with its
 * account: its URL is removed with `webhook_url: null`, or it is disabled.
 *
 * @throws NotFoundError for another organization's account or no such endpoint; ConflictError for the
 *   default endpoint
 */
export async function removeAccountEndpoint(
  deps: Pick<EndpointsDeps, 'directory' | 'endpoints'>,
  caller: EndpointCaller,
  ibanInput: string,
  id: string,
): Promise<void> {
  const account = await accountOf(deps, caller, ibanInput);
  if (id === account.endpointId) {
    throw new ConflictError(
      `Endpoint ${id} is the default endpoint of account ${account.iban}, which stays with the account: ` +
        'remove its URL with PUT /accounts/{iban} {"webhook_url": null}, or disable it with {"enabled": false}.',
    );
  }
  if (!(await deps.endpoints.removeEndpoint(account.iban, account.orgId, id))) {
    throw noEndpoint(account.iban, id);
  }
}

/** The caller's account (an operator's: whichever organization holds it), read consistently. */
async function accountOf(
  deps: Pick<EndpointsDeps, 'directory'>,
  caller: EndpointCaller,
  ibanInput: string,
): Promise<Account> {
  const iban = parseIban('iban', ibanInput);
  const account = await deps.directory.getAccount(iban, { consistent: true });
  if (!account || (caller.orgId !== undefined && account.orgId !== caller.orgId)) {
    throw new NotFoundError(`No account ${iban}.`);
  }
  return account;
}

/** The request's security change checked, its client key sealed for this endpoint. */
function prepare(
  deps: EndpointsDeps,
  at: EndpointAddress,
  request: EndpointRequest,
): Promise<PreparedSecurity> {
  if (isEmptyChange(request.security)) return Promise.resolve({});
  const context = { ...at, nowMs: deps.now(), sealer: deps.sealer, checkTls: deps.checkTls };
  return prepareEndpointSecurity(request.security, context);
}

/** The store's write of a checked subscription: undefined keeps, null removes. */
function subscriptionWrite(subscription: CheckedSubscription) {
  return {
    eventTypes: subscription.eventTypes,
    filter: subscription.filter,
    description: subscription.description,
  };
}

/**
 * Disables the endpoint (`enabled: false`: nothing is sent to it, its deliveries settle
 * `skipped`; announced as `endpoint_disabled` when this write disabled it) or enables it again (healthy, as
 * `POST /accounts/{iban}/enable` does, and announced when it was disabled); nothing when it already is
 * so, or the request does not say.
 */
async function enabled(
  deps: EndpointsDeps,
  caller: EndpointCaller,
  endpoint: Endpoint,
  wanted: boolean | undefined,
): Promise<Endpoint> {
  const disabled = endpoint.health?.state === 'disabled';
  if (wanted === undefined || wanted !== disabled) return endpoint;
  const at = nowIso(new Date(deps.now()));
  const address = addressOf(endpoint);
  if (wanted) {
    const enabling = await deps.health.enable(address, at);
    if (!enabling) throw noEndpoint(endpoint.iban, endpoint.id ?? '');
    const endpointId = endpoint.id ?? enabling.endpointId;
    await announceEnabling(deps.notices, address, { ...enabling, endpointId }, at);
    return { ...endpoint, health: { state: 'healthy', since: at, reason: ENABLED, consecutiveFailures: 0 } };
  }
  const mark = deps.notices === undefined ? undefined : disablingMark(at);
  const health = await deps.health.disable(address, { at, reason: disabledReason(caller), noticed: mark });
  if (!health) throw noEndpoint(endpoint.iban, endpoint.id ?? '');
  if (mark !== undefined && health.noticed === mark) {
    // An account from before endpoint ids gets one now (once, on this rare path).
    const endpointId = endpoint.id ?? (await deps.health.endpointId(endpoint.iban, endpoint.orgId));
    if (endpointId !== undefined) {
      await announceDisabling(deps.notices, deps.health, { ...address, endpointId }, health, at);
    }
  }
  return { ...endpoint, health };
}

/** The reason an enabled endpoint shows (as the health store writes it). */
const ENABLED = 'enabled by an operator';

/** Why an endpoint is disabled, by who disabled it. */
function disabledReason(caller: EndpointCaller): string {
  return caller.orgId === undefined ? 'disabled by an operator' : 'disabled by its organization';
}

function noEndpoint(iban: string, id: string): NotFoundError {
  return new NotFoundError(`No endpoint ${id} of account ${iban}.`);
}
