/**
 * The account of the per-endpoint use-case tests (issue 32): its default endpoint has a known id and one
 * extra endpoint, "Books", sits beside it for every event. One arrange step for the views, replays and
 * redeliveries that read or act at one endpoint.
 */
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import type { InMemoryDirectoryStore } from './fakes/directory-store';

/** The id of the account's default endpoint (the account itself). */
export const DEFAULT_ID = 'ep_00000000000d';
/** The id of the extra endpoint. */
export const BOOKS_ID = 'ep_0000000000b1';
/** The extra endpoint's URL. */
export const BOOKS_URL = 'https://books.example.com/h';

/** Names the seeded account's default endpoint `DEFAULT_ID`. */
export function nameDefaultEndpoint(directory: InMemoryDirectoryStore, iban: string): void {
  const account = directory.accounts.get(iban);
  if (!account) throw new Error(`no account ${iban}`);
  directory.accounts.set(iban, { ...account, endpointId: DEFAULT_ID });
}

/** Names the seeded account's default endpoint and adds the Books endpoint beside it; returns the store. */
export async function addBooksEndpoint(
  directory: InMemoryDirectoryStore,
  iban: string,
): Promise<InMemoryEndpointStore> {
  nameDefaultEndpoint(directory, iban);
  const endpoints = new InMemoryEndpointStore(directory);
  await endpoints.addEndpoint({
    iban,
    orgId: 'org-1',
    id: BOOKS_ID,
    url: BOOKS_URL,
    createdAt: '2026-11-20T08:00:00.000Z',
  });
  return endpoints;
}
