import type { PortalLink } from '#domain/model';
import type { PortalLinkStore } from '#domain/ports';

/** {@link PortalLinkStore} in memory: links by token hash; taking one deletes it, as the adapter's one write does. */
export class InMemoryPortalLinkStore implements PortalLinkStore {
  readonly byHash = new Map<string, PortalLink>();

  async createPortalLink(link: PortalLink): Promise<void> {
    if (this.byHash.has(link.tokenHash)) throw new Error('portal link hash exists (condition failed)');
    this.byHash.set(link.tokenHash, link);
  }

  async takePortalLink(tokenHash: string): Promise<PortalLink | undefined> {
    const link = this.byHash.get(tokenHash);
    this.byHash.delete(tokenHash);
    return link;
  }
}
