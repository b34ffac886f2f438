/**
 * Where an endpoint's settings, health and material are: its account, and for an extra endpoint its id.
 * Apart from `endpoint.ts` so that the endpoint health port (which `endpoint.ts` reads) can name it.
 */

/** An endpoint's place: its account, and the extra endpoint's id (absent: the account's default one). */
export interface EndpointAddress {
  /** Normalised IBAN of the account. */
  readonly iban: string;
  readonly orgId: string;
  /** The id of an extra endpoint; absent for the account's default endpoint (on the account item). */
  readonly extra?: string | undefined;
  /**
   * The organization's operational webhook (its notices' destination; its `iban` is empty): an address
   * of its own, whose health is stored apart from every account's endpoint's.
   */
  readonly operational?: true | undefined;
}

/** The key a store of endpoints by place uses: the IBAN, and `#` and the id for an extra endpoint. */
export function addressKey(endpoint: EndpointAddress): string {
  if (endpoint.operational) return `OPS#${endpoint.orgId}`;
  return endpoint.extra === undefined ? endpoint.iban : `${endpoint.iban}#${endpoint.extra}`;
}
