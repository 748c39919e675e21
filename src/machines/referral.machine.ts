import { assign, setup } from 'xstate';
import type { components, operations } from '../api/schema.d.ts';
import { formatAmount, parseAmount } from '../money.ts';
import { notProvided, type ErrorCode, type NavigateParams, type Notice } from './effects.ts';
import { toFailure } from './failure.ts';
import type { Wallet } from './live.ts';

/*
 * Refer a friend (SPEC §1 "refer friends for a reward", §3 "Referral claim uses currencyId and yields
 * userBonusWallet", §8, §9). The player's referrals (GET /bonus/referral: code, friends pending and
 * qualified, what qualifies a friend, those paid for and claimable now) and wallets load first. Then the code and the link can be copied (the
 * clipboard may refuse: the page says so) and the link shared where the browser can share; the reward
 * for the friends not paid for yet is claimed into the wallet of the chosen currency. CLAIM makes a new
 * Idempotency-Key (the app's `newIdempotencyKey`) and sends the claim with it, so that sending it again
 * after no answer (RETRY) can never pay twice; success says "Referral Bonus Claimed." and goes to
 * '/bonus' (SPEC §2), a refusal stays with its SPEC §8 message.
 */

export type ReferralStatus = components['schemas']['ReferralStatus'];
export type ReferralClaim = components['schemas']['UserBonusWallet'];
export type ReferralClaimRequest = operations['bonusAvailReferral']['requestBody']['content']['application/json'] & { idempotencyKey: string };

/** What the player copies: the code alone, or the link that opens registration with it. */
export type CopyTarget = 'code' | 'link';

/** What is shared: the link, with a line that says what it is. */
export interface ShareRequest {
  url: string;
}

export interface ReferralInput {
  /** The site's address (`https://casino.example`), the start of the referral link. */
  origin: string;
  /** Whether the browser can share (the Web Share API); the Share button shows only then. */
  canShare: boolean;
}

export interface ReferralContext extends ReferralInput {
  referral: ReferralStatus | null;
  wallets: Wallet[];
  /** The wallet the reward is claimed into. */
  currencyId: number | null;
  errorCode: ErrorCode | null;
  /** What the last copy was of. */
  copyTarget: CopyTarget;
  /** How the last copy went; null before one, and while one is on its way. */
  copied: 'done' | 'failed' | null;
  /** The browser could not share (a player who closed the share sheet is not a failure). */
  shareFailed: boolean;
  /** The key of the confirmed claim, kept while it may be sent again; null before a claim. */
  idempotencyKey: string | null;
  /** The browser could not make a key for the claim (nothing was sent). */
  keyRefused: boolean;
}

export type ReferralEvent =
  | { type: 'COPY'; target: CopyTarget }
  | { type: 'SHARE' }
  | { type: 'CURRENCY'; currencyId: number }
  | { type: 'CLAIM' }
  | { type: 'RETRY' }
  | { type: 'BACK' };

/** The link a friend registers with: the register dialog over the lobby, the code filled in. */
export function referralLink(origin: string, code: string): string {
  return `${origin}/?dialog=register&ref=${encodeURIComponent(code)}`;
}

/** What a claim pays now: the reward for each friend not paid for yet, as a decimal string. */
export function claimableAmount(reward: string, claimableCount: number): string {
  return formatAmount(parseAmount(reward) * BigInt(claimableCount));
}

/** The wallet the reward goes to. */
export function claimWallet(context: Pick<ReferralContext, 'wallets' | 'currencyId'>): Wallet | null {
  return context.wallets.find((wallet) => wallet.currencyId === context.currencyId) ?? null;
}

/**
 * Why there is nothing to claim now (null when there is): the claim button says it beside itself. Only
 * qualified friends are paid for: friends still pending wait for themselves (`friendsPending`).
 */
export type ClaimBlocker = 'noWallet' | 'noFriendsYet' | 'friendsPending' | 'allPaid' | 'limitReached';

/** `limit` is the most friends a player is rewarded for (settings.referralLimit), null when unknown. */
export function claimBlocker(context: Pick<ReferralContext, 'referral' | 'wallets' | 'currencyId'>, limit: number | null): ClaimBlocker | null {
  const referral = context.referral;
  if (referral === null || referral.claimableCount > 0) return claimWallet(context) === null ? 'noWallet' : null;
  if (limit !== null && referral.paidCount >= limit) return 'limitReached';
  if (referral.referredCount === 0) return 'noFriendsYet';
  return referral.pendingCount > 0 ? 'friendsPending' : 'allPaid';
}

export const referralMachine = setup({
  types: {
    context: {} as ReferralContext,
    events: {} as ReferralEvent,
    input: {} as ReferralInput,
  },
  actors: {
    /** GET /bonus/referral */
    loadReferral: notProvided<ReferralStatus>('loadReferral'),
    /** GET /user/get-wallets */
    loadWallets: notProvided<Wallet[]>('loadWallets'),
    /** POST /bonus/avail-referral with the Idempotency-Key header. */
    claimReferral: notProvided<ReferralClaim, ReferralClaimRequest>('claimReferral'),
    /** A new random Idempotency-Key, for one claim. */
    newIdempotencyKey: notProvided<string>('newIdempotencyKey'),
    /** Puts the text on the clipboard; fails when the browser refuses. */
    copyText: notProvided<void, { text: string }>('copyText'),
    /** The browser's share sheet with the link (the Web Share API). */
    shareLink: notProvided<void, ShareRequest>('shareLink'),
  },
  actions: {
    notify: (_, _params: Notice) => {},
    navigate: (_, _params: NavigateParams) => {},
    storeReferral: assign((_, params: { referral: ReferralStatus }) => ({ referral: params.referral, errorCode: null })),
    storeWallets: assign((_, params: { wallets: Wallet[] }) => ({
      wallets: params.wallets,
      currencyId: (params.wallets.find((wallet) => wallet.selected) ?? params.wallets[0])?.currencyId ?? null,
    })),
    storeFailure: assign((_, params: { error: unknown }) => ({ errorCode: toFailure(params.error).code })),
    clearFailure: assign({ errorCode: null, keyRefused: false }),
    startCopy: assign((_, params: { target: CopyTarget }) => ({ copyTarget: params.target, copied: null })),
    storeCopied: assign((_, params: { copied: 'done' | 'failed' }) => ({ copied: params.copied })),
    storeShareFailed: assign((_, params: { failed: boolean }) => ({ shareFailed: params.failed })),
    chooseCurrency: assign((_, params: { currencyId: number }) => ({ currencyId: params.currencyId })),
    storeKey: assign((_, params: { idempotencyKey: string }) => ({ idempotencyKey: params.idempotencyKey, keyRefused: false })),
    storeKeyRefused: assign({ keyRefused: true }),
    forgetKey: assign({ idempotencyKey: null }),
  },
  guards: {
    /** Something to claim, and a wallet to claim it into. */
    canClaim: ({ context }) => (context.referral?.claimableCount ?? 0) > 0 && claimWallet(context) !== null,
    knownWallet: ({ context }, params: { currencyId: number }) => context.wallets.some((wallet) => wallet.currencyId === params.currencyId),
    noAnswer: (_, params: { error: unknown }) => toFailure(params.error).status === 0,
    /** The player closed the share sheet: nothing went wrong. */
    shareCancelled: (_, params: { error: unknown }) =>
      typeof params.error === 'object' && params.error !== null && (params.error as { name?: unknown }).name === 'AbortError',
  },
}).createMachine({
  id: 'referral',
  context: ({ input }) => ({
    origin: input.origin,
    canShare: input.canShare,
    referral: null,
    wallets: [],
    currencyId: null,
    errorCode: null,
    copyTarget: 'link',
    copied: null,
    shareFailed: false,
    idempotencyKey: null,
    keyRefused: false,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadReferral',
        onDone: { target: 'loadingWallets', actions: { type: 'storeReferral', params: ({ event }) => ({ referral: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    loadingWallets: {
      invoke: {
        src: 'loadWallets',
        onDone: { target: 'ready', actions: { type: 'storeWallets', params: ({ event }) => ({ wallets: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    ready: {
      on: {
        COPY: { target: 'copying', actions: { type: 'startCopy', params: ({ event }) => ({ target: event.target }) } },
        SHARE: { target: 'sharing', actions: { type: 'storeShareFailed', params: { failed: false } } },
        CURRENCY: {
          guard: { type: 'knownWallet', params: ({ event }) => ({ currencyId: event.currencyId }) },
          actions: ['clearFailure', { type: 'chooseCurrency', params: ({ event }) => ({ currencyId: event.currencyId }) }],
        },
        CLAIM: { guard: 'canClaim', target: 'keying', actions: 'clearFailure' },
      },
    },
    copying: {
      invoke: {
        src: 'copyText',
        input: ({ context }) => {
          const code = context.referral?.referralCode ?? '';
          return { text: context.copyTarget === 'code' ? code : referralLink(context.origin, code) };
        },
        onDone: { target: 'ready', actions: { type: 'storeCopied', params: { copied: 'done' } } },
        onError: { target: 'ready', actions: { type: 'storeCopied', params: { copied: 'failed' } } },
      },
    },
    sharing: {
      invoke: {
        src: 'shareLink',
        input: ({ context }) => ({ url: referralLink(context.origin, context.referral?.referralCode ?? '') }),
        onDone: 'ready',
        onError: [
          { guard: { type: 'shareCancelled', params: ({ event }) => ({ error: event.error }) }, target: 'ready' },
          { target: 'ready', actions: { type: 'storeShareFailed', params: { failed: true } } },
        ],
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
      entry: 'clearFailure',
      invoke: {
        src: 'claimReferral',
        input: ({ context }) => ({ currencyId: context.currencyId ?? 0, idempotencyKey: context.idempotencyKey ?? '' }),
        onDone: {
          target: 'claimed',
          actions: [
            'forgetKey',
            { type: 'notify', params: { tone: 'success', message: 'messages.referralClaimed' } },
            { type: 'navigate', params: { to: '/bonus' } },
          ],
        },
        onError: [
          // No answer: it may have gone through. The same claim, with the same key, can be sent again.
          {
            guard: { type: 'noAnswer', params: ({ event }) => ({ error: event.error }) },
            target: 'unanswered',
            actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) },
          },
          { target: 'ready', actions: ['forgetKey', { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) }] },
        ],
      },
    },
    unanswered: {
      on: {
        RETRY: 'claiming',
        BACK: { target: 'ready', actions: 'forgetKey' },
      },
    },
    claimed: { type: 'final' },
  },
});
