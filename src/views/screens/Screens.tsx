import { useEffect } from 'react';
import { useWiring } from '../wiring.ts';
import type { WalletTab } from '../wallet/tabs.ts';

/*
 * The screens whose flows arrive with later work: each has its real layout and its empty state now, so
 * routes, links and the back button work from the start.
 */

/** The wallet's old addresses (/wallet/deposit, ...): the wallet is a dialog over the lobby now (DESIGN.md). */
export function WalletRedirect({ tab }: { tab: WalletTab }) {
  const { navigate } = useWiring();
  useEffect(() => navigate(`/?wallet=open&tab=${tab}`, { replace: true }), [navigate, tab]);
  return null;
}

// The responsible-gambling page (its own file) and the app's reality check come with this chunk, so the app's
// first load names no chunk more for them (src/views/App.tsx and src/views/PlayerActions.tsx load it).
export { default as ResponsibleGamblingScreen, RealityCheck } from './ResponsibleGamblingScreen.tsx';
