/**
 * URL building shared by the views and the Link header. The base URL comes from configuration or the
 * request context, with or without a trailing slash; both must give the same links.
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
