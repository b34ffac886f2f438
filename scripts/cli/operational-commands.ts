/**
 * The CLI's commands for an organization's operational notices: where they go (its operational webhook)
 * and the notices themselves.
 */
import { MAX_LIST_DEPTH } from '#config/limits';
import { MAX_PER_PAGE } from '#http/paging';
import { adminRoute, bodyOf, org } from './admin-route';
import { allPages, type Command } from './command';
import { integer, required } from './flags';

/** `operational-webhook show|set|clear` and `operational-events list`, in the usage text's order. */
export const OPERATIONAL_COMMANDS: Readonly<Record<string, Command>> = {
  'operational-webhook show': {
    usage: "operational-webhook show --org ORG_ID   (where the organization's operational notices go)",
    route: 'getOrganizationOperationalWebhook',
    run: (call, flags) => bodyOf(call(...adminRoute('getOrganizationOperationalWebhook', org(flags)))),
  },
  'operational-webhook set': {
    usage: 'operational-webhook set --org ORG_ID --url URL   (checked as every webhook URL)',
    route: 'setOrganizationOperationalWebhook',
    run: (call, flags) =>
      bodyOf(
        call(...adminRoute('setOrganizationOperationalWebhook', org(flags)), { url: required(flags, 'url') }),
      ),
  },
  'operational-webhook clear': {
    usage: 'operational-webhook clear --org ORG_ID   (notices are then only listed)',
    route: 'setOrganizationOperationalWebhook',
    run: (call, flags) =>
      bodyOf(call(...adminRoute('setOrganizationOperationalWebhook', org(flags)), { url: null })),
  },
  'operational-events list': {
    usage: `operational-events list --org ORG_ID [--page N] [--per-page N]   (newest first; without --page,
      every page up to the listing's depth of ${MAX_LIST_DEPTH} notices)`,
    route: 'listOrganizationOperationalEvents',
    run: async (call, flags) => {
      const page = integer(flags, 'page', 'a page number, 1 or more');
      const perPage = integer(flags, 'per-page', `a page length from 1 to ${MAX_PER_PAGE}`);
      const path = adminRoute('listOrganizationOperationalEvents', org(flags))[1];
      if (page === undefined && perPage === undefined) return allPages(call, path);
      const query = new URLSearchParams();
      if (page !== undefined) query.set('page', String(page));
      if (perPage !== undefined) query.set('per_page', String(perPage));
      return bodyOf(call('GET', `${path}?${query}`));
    },
  },
};
