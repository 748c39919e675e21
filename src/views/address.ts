/** An address of the app, path and query ('?dialog=login'), as the address bar has it. */
export interface Address {
  path: string;
  search: string;
}

/** The address with some query parameters set ('' removes one): a dialog over a page, a grid's filter. */
export function withParams(address: Address, changes: Record<string, string>): string {
  const params = new URLSearchParams(address.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === '') params.delete(name);
    else params.set(name, value);
  }
  const query = params.toString();
  return query ? `${address.path}?${query}` : address.path;
}

/** The page shown with the wallet dialog open over it on its Deposit tab (DESIGN.md). */
export function depositOver(address: Address): string {
  return withParams(address, { wallet: 'open', tab: 'deposit' });
}
