/**
 * What an endpoint write asks for, checked before anything is written: its URL by the URL policy (and
 * the host check), its event types by the catalog, its payload filter by the filter rule, its
 * description by its bound. Each refusal names the request's field (`url`, `event_types/1`,
 * `filter/status/0`), every problem of the subscription at once.
 */
import { MAX_ENDPOINT_DESCRIPTION_LENGTH } from '#config/limits';
import type { EndpointRequest } from '#domain/endpoints/endpoint';
import { type InvalidParam, ValidationError } from '#domain/errors';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import type { EventTypeStore } from '#domain/event-types/store-port';
import { checkFilter } from '#domain/subscriptions/filter-check';
import type { Filter } from '#domain/subscriptions/filter-model';
import { eventTypesProblems } from '#domain/subscriptions/subscription';
import { checkWebhookUrl, type UrlPolicy } from '#domain/webhook-url';

/** A subscription and description as checked: each absent keeps, null removes. */
export interface CheckedSubscription {
  readonly eventTypes?: readonly string[] | null;
  readonly filter?: Filter | null;
  readonly description?: string | null;
}

/** What checking a URL needs: the policy, and the host check where the deployment has one. */
export interface UrlChecks {
  readonly policy: UrlPolicy;
  readonly checkHost?: ((url: URL) => Promise<void>) | undefined;
}

/**
 * The catalog's type names: the built-in ones and those operators registered (one read of the catalog
 * item), what an endpoint's `event_types` may list.
 */
export async function catalogTypeNames(store: Pick<EventTypeStore, 'typeNames'>): Promise<Set<string>> {
  return new Set([
    ...BUILT_IN_EVENT_TYPES.map((definition) => definition.type),
    ...(await store.typeNames()),
  ]);
}

/**
 * Checks the subscription and description a request names (the catalog read only when it lists types).
 *
 * @throws ValidationError naming each problem's place (`event_types/1`, `filter/…`, `description`)
 */
export async function checkSubscription(
  request: EndpointRequest,
  catalog: Pick<EventTypeStore, 'typeNames'>,
): Promise<CheckedSubscription> {
  const problems: InvalidParam[] = [];
  const { eventTypes, filter, description } = request;
  if (eventTypes !== undefined && eventTypes !== null) {
    const known = await catalogTypeNames(catalog);
    problems.push(...eventTypesProblems(eventTypes, (type) => known.has(type)));
  }
  let checked: Filter | null | undefined = filter === null ? null : undefined;
  if (filter !== undefined && filter !== null) {
    const result = checkFilter(filter);
    if (result.ok) checked = result.filter;
    else problems.push(...result.problems);
  }
  if (typeof description === 'string' && [...description].length > MAX_ENDPOINT_DESCRIPTION_LENGTH) {
    problems.push({
      name: 'description',
      reason: `must have at most ${MAX_ENDPOINT_DESCRIPTION_LENGTH} characters`,
    });
  }
  const [first, ...rest] = problems;
  if (first !== undefined) throw new ValidationError([first, ...rest]);
  return {
    ...(eventTypes === undefined ? {} : { eventTypes }),
    ...(checked === undefined ? {} : { filter: checked }),
    ...(description === undefined ? {} : { description }),
  };
}

/**
 * An endpoint's URL checked by the URL policy and then its host, named `url` as the endpoint routes
 * name it (the account write's field is `webhook_url`).
 *
 * @throws ValidationError naming `url`
 */
export async function checkEndpointUrl(url: string, checks: UrlChecks): Promise<URL> {
  try {
    const parsed = checkWebhookUrl(url, checks.policy);
    await checks.checkHost?.(parsed);
    return parsed;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const [first, ...rest] = error.params.map((param) =>
      param.name === 'webhook_url' ? { ...param, name: 'url' } : param,
    );
    throw first === undefined ? error : new ValidationError([first, ...rest]);
  }
}
