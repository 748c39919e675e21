import { assign, setup } from 'xstate';
import { notProvided, type ErrorCode, type Notice } from './effects.ts';
import { toFailure } from './failure.ts';
import { liveEventsNotProvided, type Wallet } from './live.ts';

/*
 * The player's wallets (SPEC §3: pending and available per currency, one selected), for the top bar's
 * balance pill. They load once; the session's live updates replace them whenever a balance moves
 * (LIVE.WALLETS carries the whole list), so the pill never needs a reload; after the stream came back
 * from a drop (LIVE.RECONNECTED) they are fetched again, quietly, keeping what shows meanwhile. SELECT
 * makes another wallet the selected one (POST /user/select/wallet); a refusal keeps the old selection
 * and says why in a toast. A failed first load shows a retry in place of the pill.
 */

export type { Wallet };

export interface WalletsContext {
  wallets: Wallet[];
  errorCode: ErrorCode | null;
  /** The wallet a SELECT asked for, while it is being selected. */
  selecting: number | null;
}

export type WalletsEvent =
  | { type: 'SELECT'; walletId: number }
  | { type: 'RETRY' }
  | { type: 'LIVE.WALLETS'; wallets: Wallet[] }
  | { type: 'LIVE.RECONNECTED' };

/** The selected wallet, or the first when none says so (the server always marks one). */
export function selectedWallet(wallets: readonly Wallet[]): Wallet | null {
  return wallets.find((wallet) => wallet.selected) ?? wallets[0] ?? null;
}

const storeLive = { type: 'storeWallets', params: ({ event }: { event: { wallets: Wallet[] } }) => ({ wallets: event.wallets }) } as const;

export const walletsMachine = setup({
  types: {
    context: {} as WalletsContext,
    events: {} as WalletsEvent,
  },
  actors: {
    /** GET /user/get-wallets */
    loadWallets: notProvided<Wallet[]>('loadWallets'),
    /** POST /user/select/wallet: the wallets after the change. */
    selectWallet: notProvided<Wallet[], { walletId: number }>('selectWallet'),
    liveEvents: liveEventsNotProvided,
  },
  actions: {
    storeWallets: assign((_, params: { wallets: Wallet[] }) => ({ wallets: params.wallets, errorCode: null })),
    storeFailure: assign((_, params: { code: ErrorCode | null }) => ({ errorCode: params.code })),
    storeSelecting: assign((_, params: { walletId: number }) => ({ selecting: params.walletId })),
    clearSelecting: assign({ selecting: null }),
    notify: (_, _params: Notice) => {},
  },
  guards: {
    /** Selecting the wallet already selected changes nothing: no call. */
    otherWallet: ({ context }, params: { walletId: number }) =>
      selectedWallet(context.wallets)?.id !== params.walletId && context.wallets.some((wallet) => wallet.id === params.walletId),
  },
}).createMachine({
  id: 'wallets',
  context: { wallets: [], errorCode: null, selecting: null },
  // Subscribed from the start, so that a balance that moves while the list loads is not missed.
  invoke: { src: 'liveEvents' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadWallets',
        onDone: { target: 'ready', actions: { type: 'storeWallets', params: ({ event }) => ({ wallets: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
      },
      // The stream's list is newer than the answer on its way.
      on: { 'LIVE.WALLETS': { target: 'ready', actions: storeLive } },
    },
    failed: {
      on: {
        RETRY: 'loading',
        'LIVE.WALLETS': { target: 'ready', actions: storeLive },
      },
    },
    ready: {
      initial: 'idle',
      on: { 'LIVE.WALLETS': { actions: storeLive } },
      states: {
        idle: {
          on: {
            SELECT: {
              guard: { type: 'otherWallet', params: ({ event }) => ({ walletId: event.walletId }) },
              target: 'selecting',
              actions: { type: 'storeSelecting', params: ({ event }) => ({ walletId: event.walletId }) },
            },
            'LIVE.RECONNECTED': 'refreshing',
          },
        },
        /** After a reconnection: what shows stays until the fresh list arrives; a failure keeps it. */
        refreshing: {
          invoke: {
            src: 'loadWallets',
            onDone: { target: 'idle', actions: { type: 'storeWallets', params: ({ event }) => ({ wallets: event.output }) } },
            onError: { target: 'idle' },
          },
        },
        selecting: {
          invoke: {
            src: 'selectWallet',
            input: ({ context }) => ({ walletId: context.selecting ?? 0 }),
            onDone: {
              target: 'idle',
              actions: ['clearSelecting', { type: 'storeWallets', params: ({ event }) => ({ wallets: event.output }) }],
            },
            onError: {
              target: 'idle',
              actions: [
                'clearSelecting',
                {
                  type: 'notify',
                  params: ({ event }) => ({ tone: 'error' as const, code: toFailure(event.error).code, fallback: 'default' as const }),
                },
              ],
            },
          },
        },
      },
    },
  },
});
