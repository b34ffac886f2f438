/**
 * URL building shared by the views and the Link header (the base URL comes from configuration or the
 * request context, with or without a trailing slash; both must give the same links), and webhook URLs
 * with their secrets masked, as attempts store them and `read` views show them.
 */

/**
 * Joins the API base URL and an absolute path: `joinUrl('https://x/v1/', '/events')` →
 * `https://x/v1/events`.
 */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return path.startsWith('/') ? `${base}${path}` : `${base}/${path}`;
}

/** One path segment, percent-encoded so an id or IBAN can never add segments or a query. */
export function pathSegment(value: string): string {
  return encodeURIComponent(value);
}

/** What stands for a hidden value in a {@link maskUrlSecrets} URL. */
export const MASK = '***';

/**
 * A webhook URL with the values of its query string (and its fragment) replaced by `***`: what is stored
 * with every attempt and shown to anyone but the `manage` view of the account, since receivers put
 * tokens there (`?token=…`). Names stay, so the URL still says which parameters it had; scheme, host
 * and path are kept as written. The delivery itself uses the URL as saved.
 *
 * `https://h.example/hook?token=abc&v=2#x` → `https://h.example/hook?token=***&v=***#***`
 */
export function maskUrlSecrets(url: string): string {
  const hash = url.indexOf('#');
  const beforeHash = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? '' : hash === url.length - 1 ? '#' : `#${MASK}`;
  const question = beforeHash.indexOf('?');
  if (question < 0) return `${beforeHash}${fragment}`;
  const query = beforeHash
    .slice(question + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals < 0) return part === '' ? part : MASK;
      return equals === part.length - 1 ? part : `${part.slice(0, equals + 1)}${MASK}`;
    })
    .join('&');
  return `${beforeHash.slice(0, question + 1)}${query}${fragment}`;
}
