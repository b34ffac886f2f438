/**
 * The webhook portal's single page: its HTML with the bundled script and style inlined, and a strict
 * Content-Security-Policy that allows exactly those two by hash. Nothing is fetched from elsewhere; the
 * script talks only to this API (`connect-src 'self'`).
 */
import { createHash } from 'node:crypto';
import { PORTAL_SCRIPT, PORTAL_STYLE } from './portal-assets.generated';

const sha256 = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The page and the headers it is served with. */
export interface PortalPage {
  readonly html: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Builds the page once; the result is the same for every request. */
export function portalPage(): PortalPage {
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(PORTAL_SCRIPT)}`,
    `style-src ${sha256(PORTAL_STYLE)}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
  ].join('; ');
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    '<meta name="color-scheme" content="light dark"><meta name="referrer" content="no-referrer">' +
    `<title>Herald webhook portal</title><style>${PORTAL_STYLE}</style></head>` +
    `<body><div id="app"></div><script>${PORTAL_SCRIPT}</script></body></html>`;
  return {
    html,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp,
      'Cache-Control': 'no-cache',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
    },
  };
}
