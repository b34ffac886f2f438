/** The portal's session and its calls of the Herald API (same origin, Bearer key). */

/** A signed-in session: a link's session key (with its scope) or a pasted API key. */
export interface Session {
  readonly key: string;
  /** `key`: a pasted API key, whose scope the API alone knows. */
  readonly scope: 'read' | 'manage' | 'key';
  readonly org?: { readonly id: string; readonly name: string };
  readonly expiresAt?: string;
}

const STORE = 'herald.portal.session';

/** The API base path: the page is served at `<base>/portal`. */
export const apiBase = location.pathname.replace(/\/portal\/?$/, '');

export function loadSession(): Session | undefined {
  const text = sessionStorage.getItem(STORE);
  if (!text) return undefined;
  const session = JSON.parse(text) as Session;
  if (session.expiresAt && Date.parse(session.expiresAt) <= Date.now()) {
    sessionStorage.removeItem(STORE);
    return undefined;
  }
  return session;
}

export function saveSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(STORE, JSON.stringify(session));
  else sessionStorage.removeItem(STORE);
}

/** Whether the session may try manage actions (a pasted key may; the API decides). */
export const canManage = (session: Session): boolean => session.scope !== 'read';

/** A field the API refused: its name (`url`, `event_types/1`, `filter/amount/0`) and why. */
export interface InvalidParam {
  readonly name: string;
  readonly reason: string;
}

/** A failed call, with the problem's detail as its message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The problem's `invalid_params`: each refused field, so a form can show it beside that field. */
    readonly params: readonly InvalidParam[] = [],
  ) {
    super(message);
  }
  /** The route is not part of this deployment (404 route, 405 method). */
  get unavailable(): boolean {
    return this.status === 405 || (this.status === 404 && /No such route/.test(this.message));
  }
}

/** An answer: the parsed body and the headers. */
export interface Answer<T> {
  readonly data: T;
  readonly headers: Headers;
}

/** Called when the API refuses the session's key (expired or revoked). */
let onSignedOut: (message: string) => void = () => {};
export function whenSignedOut(handler: (message: string) => void): void {
  onSignedOut = handler;
}

/** Calls the API; a problem answer throws {@link ApiError} with a message fit for people. */
export async function call<T>(
  path: string,
  options: { method?: string; body?: unknown; key?: string | null } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? loadSession()?.key : options.key;
  if (key) headers.Authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(apiBase + path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'The API could not be reached. Check the connection and try again.');
  }
  const text = await response.text();
  const data = text ? (JSON.parse(text) as unknown) : null;
  if (!response.ok) {
    const problem = (data ?? {}) as { detail?: string; invalid_params?: InvalidParam[] };
    const invalid = problem.invalid_params ?? [];
    const params = invalid.map((p) => `${p.name}: ${p.reason}`).join('; ');
    const message = params || problem.detail || `The API answered ${response.status}.`;
    if (response.status === 401 && key && options.key === undefined) onSignedOut(message);
    if (response.status === 403) {
      throw new ApiError(403, `Refused: this session may not do that. ${problem.detail ?? ''}`.trim());
    }
    throw new ApiError(response.status, message, invalid);
  }
  return { data: data as T, headers: response.headers };
}

/** The query of a listing's `Link` target of relation `rel` (`prev`, `next`), or undefined without it. */
export function linkQuery(link: string | null, rel: 'prev' | 'next'): URLSearchParams | undefined {
  const target = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(link ?? '')?.[1];
  return target === undefined ? undefined : new URL(target).searchParams;
}

/** A message for an error of a call; `feature` names what is missing when the route does not exist. */
export function describe(error: unknown, feature?: string): string {
  if (error instanceof ApiError) {
    if (feature && error.unavailable) return `${feature} is not available in this deployment.`;
    return error.message;
  }
  return 'Something went wrong in the page. Reload and try again.';
}
