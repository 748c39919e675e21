/** The wallet dialog's tabs, in order (`?wallet=open&tab=`). */
export const WALLET_TABS = ['deposit', 'withdraw', 'transactions'] as const;
export type WalletTab = (typeof WALLET_TABS)[number];

export function isWalletTab(value: string | null): value is WalletTab {
  return (WALLET_TABS as readonly (string | null)[]).includes(value);
}
