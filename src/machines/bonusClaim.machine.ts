import { assign, setup } from 'xstate';
import { notProvided, type ErrorCode, type Notice, type User } from './effects.ts';
import { toFailure } from './failure.ts';
import type { Wallet } from './live.ts';
import type { Bonus, UserBonus } from './bonuses.machine.ts';

/*
 * One offer's dialog (SPEC §4, §8, §9): the offer (GET /bonus/detail), then the claim. An offer is in one
 * currency, so the player picks among their wallets in that currency (GET /user/get-wallets); a player
 * without one is told so, and a referral offer is claimed on the refer-a-friend page instead. CLAIM makes
 * a new Idempotency-Key (the app's `newIdempotencyKey`) and sends POST /bonus/avail with it, so that
 * sending it again after no answer (RETRY) can never claim twice. On success the player's details are
 * read again (GET /user/get-user) for the app, "Bonus Claimed." shows and the player lands on '/bonus';
 * a refusal shows its SPEC §8 message, or "Something went wrong.", and the offer stays to try again.
 */

export type ClaimRequest = { bonusId: number; currencyId: number; idempotencyKey: string };

export interface BonusClaimInput {
  bonusId: number;
}

export interface BonusClaimContext {
  bonusId: number;
  bonus: Bonus | null;
  /** The player's wallets in the offer's currency. */
  wallets: Wallet[];
  walletId: number | null;
  errorCode: ErrorCode | null;
  /** The key of the confirmed claim, kept while it may be sent again; null before a claim. */
  idempotencyKey: string | null;
  /** The browser could not make a key for the claim (nothing was sent). */
  keyRefused: boolean;
}

export type BonusClaimEvent =
  | { type: 'WALLET'; walletId: number }
  | { type: 'CLAIM' }
  | { type: 'RETRY' }
  | { type: 'BACK' };

/** The wallet the claim is made in. */
export function claimWallet(context: Pick<BonusClaimContext, 'wallets' | 'walletId'>): Wallet | null {
  return context.wallets.find((wallet) => wallet.id === context.walletId) ?? null;
}

const storeFailure = { type: 'storeFailure', params: ({ event }: { event: { error: unknown } }) => ({ code: toFailure(event.error).code }) } as const;

export const bonusClaimMachine = setup({
  types: {
    context: {} as BonusClaimContext,
    events: {} as BonusClaimEvent,
    input: {} as BonusClaimInput,
  },
  actors: {
    /** GET /bonus/detail?bonusId= */
    loadBonusDetail: notProvided<Bonus, { bonusId: number }>('loadBonusDetail'),
    /** GET /user/get-wallets */
    loadWallets: notProvided<Wallet[]>('loadWallets'),
    /** A new random Idempotency-Key, for one claim. */
    newIdempotencyKey: notProvided<string>('newIdempotencyKey'),
    /** POST /bonus/avail with the Idempotency-Key header. */
    claimBonus: notProvided<UserBonus, ClaimRequest>('claimBonus'),
    /** GET /user/get-user: the player's details after the claim (SPEC §4). */
    fetchProfile: notProvided<User>('fetchProfile'),
  },
  actions: {
    notify: (_, _params: Notice) => {},
    navigate: (_, _params: { to: '/bonus' }) => {},
    /** The app's player, as just read. */
    updateUser: (_, _params: { user: User }) => {},
    storeBonus: assign((_, params: { bonus: Bonus }) => ({ bonus: params.bonus, errorCode: null })),
    storeWallets: assign(({ context }, params: { wallets: Wallet[] }) => {
      const wallets = params.wallets.filter((wallet) => wallet.currencyCode === context.bonus?.currencyCode);
      // The selected wallet when it is one of them, else the first.
      const walletId = (wallets.find((wallet) => wallet.selected) ?? wallets[0])?.id ?? null;
      return { wallets, walletId, errorCode: null };
    }),
    chooseWallet: assign((_, params: { walletId: number }) => ({ walletId: params.walletId })),
    storeFailure: assign((_, params: { code: ErrorCode | null }) => ({ errorCode: params.code })),
    storeKey: assign((_, params: { idempotencyKey: string }) => ({ idempotencyKey: params.idempotencyKey, keyRefused: false })),
    storeKeyRefused: assign({ keyRefused: true }),
    forgetKey: assign({ idempotencyKey: null }),
  },
  guards: {
    isReferral: (_, params: { bonus: Bonus }) => params.bonus.type === 'referral',
    noWallet: ({ context }, params: { wallets: Wallet[] }) => !params.wallets.some((wallet) => wallet.currencyCode === context.bonus?.currencyCode),
    noAnswer: (_, params: { error: unknown }) => toFailure(params.error).status === 0,
  },
}).createMachine({
  id: 'bonusClaim',
  context: ({ input }) => ({
    bonusId: input.bonusId,
    bonus: null,
    wallets: [],
    walletId: null,
    errorCode: null,
    idempotencyKey: null,
    keyRefused: false,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadBonusDetail',
        input: ({ context }) => ({ bonusId: context.bonusId }),
        onDone: [
          {
            guard: { type: 'isReferral', params: ({ event }) => ({ bonus: event.output }) },
            target: 'referral',
            actions: { type: 'storeBonus', params: ({ event }) => ({ bonus: event.output }) },
          },
          { target: 'loadingWallets', actions: { type: 'storeBonus', params: ({ event }) => ({ bonus: event.output }) } },
        ],
        onError: { target: 'failed', actions: storeFailure },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    /** A referral offer: claimed with the referral reward, on the refer-a-friend page. */
    referral: {},
    loadingWallets: {
      invoke: {
        src: 'loadWallets',
        onDone: [
          { guard: { type: 'noWallet', params: ({ event }) => ({ wallets: event.output }) }, target: 'noWallet' },
          { target: 'ready', actions: { type: 'storeWallets', params: ({ event }) => ({ wallets: event.output }) } },
        ],
        onError: { target: 'failed', actions: storeFailure },
      },
    },
    /** The player has no wallet in the offer's currency. */
    noWallet: {},
    ready: {
      on: {
        WALLET: { actions: { type: 'chooseWallet', params: ({ event }) => ({ walletId: event.walletId }) } },
        CLAIM: 'keying',
      },
    },
    /** The claim gets a key of its own, which every sending of it carries. */
    keying: {
      invoke: {
        src: 'newIdempotencyKey',
        onDone: { target: 'claiming', actions: { type: 'storeKey', params: ({ event }) => ({ idempotencyKey: event.output }) } },
        onError: { target: 'ready', actions: 'storeKeyRefused' },
      },
    },
    claiming: {
      entry: assign({ errorCode: null }),
      invoke: {
        src: 'claimBonus',
        input: ({ context }) => ({
          bonusId: context.bonusId,
          currencyId: claimWallet(context)?.currencyId ?? 0,
          idempotencyKey: context.idempotencyKey ?? '',
        }),
        onDone: { target: 'reloading', actions: 'forgetKey' },
        onError: [
          // No answer: it may have gone through. The same claim, with the same key, can be sent again.
          { guard: { type: 'noAnswer', params: ({ event }) => ({ error: event.error }) }, target: 'unanswered', actions: storeFailure },
          {
            target: 'ready',
            actions: [
              'forgetKey',
              storeFailure,
              { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, code: toFailure(event.error).code, fallback: 'bonus' as const }) },
            ],
          },
        ],
      },
    },
    unanswered: {
      on: {
        RETRY: 'claiming',
        BACK: { target: 'ready', actions: 'forgetKey' },
      },
    },
    /** SPEC §4: a claim is followed by the player's details read again; without an answer the app keeps its own. */
    reloading: {
      invoke: {
        src: 'fetchProfile',
        onDone: { target: 'done', actions: { type: 'updateUser', params: ({ event }) => ({ user: event.output }) } },
        onError: 'done',
      },
    },
    done: {
      type: 'final',
      entry: [
        { type: 'notify', params: { tone: 'success', message: 'messages.bonusClaimed' } },
        { type: 'navigate', params: { to: '/bonus' } },
      ],
    },
  },
});
