import { portalPage } from '#http/portal/portal-page';
import { apiHandler } from './api-handler';

const page = portalPage();

/**
 * `GET /portal`: the webhook portal, one self-contained page. Unauthenticated: the page signs in itself
 * (a link's token in the URL fragment, which browsers never send, or a pasted API key).
 */
export const handler = apiHandler(async () => ({
  statusCode: 200,
  headers: { ...page.headers },
  body: page.html,
}));
