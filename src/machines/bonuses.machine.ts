import { assign, setup } from 'xstate';
import type { components } from '../api/schema.d.ts';
import { parseAmount } from '../money.ts';
import { notProvided, type ErrorCode } from './effects.ts';
import { toFailure } from './failure.ts';
import { liveEventsNotProvided, type Wallet } from './live.ts';

/*
 * The bonus screen's lists (SPEC §2, §4, §6): the offers (GET /bonus) and the player's bonuses (GET
 * /bonus/user, every status, split by the tabs All, Active, Queued, Completed, Forfeited). The tab is in
 * the address; the screen says when the address changed (SHOW: a tab picked, a dialog closed after a
 * claim or a forfeit), and the player's bonuses are read again then, quietly, the lists staying on
 * screen. A moving balance (LIVE.WALLETS: a bet advanced the wagering, a bonus was credited or ended) or a
 * stream back from a drop does the same, also while they are being read (that read may predate the
 * change). The player's bonuses are only asked for once a player is logged in (the screen is a
 * player's), and a 401 there is ignored (SPEC §6): the offers still show.
 */

export type Bonus = components['schemas']['Bonus'];
export type UserBonus = components['schemas']['UserBonus'];
export type UserBonusStatus = components['schemas']['UserBonusStatus'];

export const BONUS_TABS = ['all', 'active', 'queued', 'completed', 'forfeited'] as const;
export type BonusTab = (typeof BONUS_TABS)[number];

/** The tab an address names (`?tab=`); anything else is All. */
export function bonusTab(value: string | null): BonusTab {
  return (BONUS_TABS as readonly string[]).includes(value ?? '') ? (value as BonusTab) : 'all';
}

/** Whether a bonus of the player's is listed under a tab: an expired bonus is lost as a forfeited one is. */
export function inTab(bonus: Pick<UserBonus, 'status'>, tab: BonusTab): boolean {
  if (tab === 'all') return true;
  if (tab === 'forfeited') return bonus.status === 'forfeited' || bonus.status === 'expired';
  return bonus.status === tab;
}

/**
 * How much of the wagering is done, in whole percent (0 to 100), computed on units, never floats. Nothing
 * to wager is all done for a completed bonus, and none yet for one still waiting for its money (a deposit
 * bonus before the deposit).
 */
export function wageringPercent(bonus: Pick<UserBonus, 'wageredAmount' | 'amountToWager' | 'status'>): number {
  const total = parseAmount(bonus.amountToWager);
  if (total <= 0n) return bonus.status === 'completed' ? 100 : 0;
  const done = (parseAmount(bonus.wageredAmount) * 100n) / total;
  return Number(done > 100n ? 100n : done);
}

/** Whether the player can still forfeit a bonus of theirs (SPEC §4: an active one, or one queued). */
export function canForfeit(bonus: Pick<UserBonus, 'status'>): boolean {
  return bonus.status === 'active' || bonus.status === 'queued';
}

/**
 * The player's claim of an offer that makes it not claimable now (the server would refuse it): one running
 * or waiting; for a daily offer one made on this UTC day; for any other offer any claim (once each).
 */
export function claimOf(offer: Pick<Bonus, 'id' | 'type'>, mine: readonly UserBonus[], now: Date): UserBonus | null {
  const today = now.toISOString().slice(0, 10);
  const claims = mine.filter((bonus) => bonus.bonusId === offer.id);
  return (
    claims.find(canForfeit) ??
    claims.find((bonus) => offer.type !== 'daily' || bonus.claimedAt.slice(0, 10) === today) ??
    null
  );
}

export interface BonusesInput {
  tab: BonusTab;
}

export interface BonusesContext {
  tab: BonusTab;
  offers: Bonus[];
  mine: UserBonus[];
  errorCode: ErrorCode | null;
}

export type BonusesEvent =
  | { type: 'SHOW'; tab: BonusTab }
  | { type: 'RETRY' }
  | { type: 'LIVE.WALLETS'; wallets: Wallet[] }
  | { type: 'LIVE.RECONNECTED' };

const storeFailure = { type: 'storeFailure', params: ({ event }: { event: { error: unknown } }) => ({ code: toFailure(event.error).code }) } as const;
const storeMine = { type: 'storeMine', params: ({ event }: { event: { output: UserBonus[] } }) => ({ mine: event.output }) } as const;
const showTab = { type: 'showTab', params: ({ event }: { event: { tab: BonusTab } }) => ({ tab: event.tab }) } as const;

export const bonusesMachine = setup({
  types: {
    context: {} as BonusesContext,
    events: {} as BonusesEvent,
    input: {} as BonusesInput,
  },
  actors: {
    /** GET /bonus */
    loadBonusOffers: notProvided<Bonus[], undefined>('loadBonusOffers'),
    /** GET /bonus/user */
    loadUserBonuses: notProvided<UserBonus[], undefined>('loadUserBonuses'),
    liveEvents: liveEventsNotProvided,
  },
  actions: {
    showTab: assign((_, params: { tab: BonusTab }) => ({ tab: params.tab })),
    storeOffers: assign((_, params: { offers: Bonus[] }) => ({ offers: params.offers, errorCode: null })),
    storeMine: assign((_, params: { mine: UserBonus[] }) => ({ mine: params.mine, errorCode: null })),
    storeFailure: assign((_, params: { code: ErrorCode | null }) => ({ errorCode: params.code })),
  },
  guards: {
    /** SPEC §6: a 401 on the player's bonuses is not an error to show. */
    unauthorized: (_, params: { error: unknown }) => toFailure(params.error).status === 401,
  },
}).createMachine({
  id: 'bonuses',
  context: ({ input }) => ({ tab: input.tab, offers: [], mine: [], errorCode: null }),
  invoke: { src: 'liveEvents' },
  // The tab picked while the lists load: they load for every tab at once.
  on: { SHOW: { actions: showTab } },
  initial: 'loadingOffers',
  states: {
    loadingOffers: {
      invoke: {
        src: 'loadBonusOffers',
        onDone: { target: 'loadingMine', actions: { type: 'storeOffers', params: ({ event }) => ({ offers: event.output }) } },
        onError: { target: 'failed', actions: storeFailure },
      },
    },
    failed: {
      on: { RETRY: 'loadingOffers' },
    },
    loadingMine: {
      invoke: {
        src: 'loadUserBonuses',
        onDone: { target: 'ready', actions: storeMine },
        onError: [
          { guard: { type: 'unauthorized', params: ({ event }) => ({ error: event.error }) }, target: 'ready' },
          { target: 'mineFailed', actions: storeFailure },
        ],
      },
    },
    /** The offers show; the player's bonuses could not be read. */
    mineFailed: {
      on: { RETRY: 'loadingMine' },
    },
    ready: {
      on: {
        SHOW: { target: 'refreshing', actions: showTab },
        'LIVE.WALLETS': 'refreshing',
        'LIVE.RECONNECTED': 'refreshing',
      },
    },
    /** The player's bonuses again, the lists on screen meanwhile; a failure keeps them (SPEC §8: only logged). */
    refreshing: {
      on: {
        // Asked again: the call in flight is stopped, its late answer never shown.
        SHOW: { target: 'refreshing', reenter: true, actions: showTab },
        // The balance moved again (a bet's win after its stake, the bonus it completed): the call in flight
        // may have read before that change, so it is asked again rather than shown stale.
        'LIVE.WALLETS': { target: 'refreshing', reenter: true },
        'LIVE.RECONNECTED': { target: 'refreshing', reenter: true },
      },
      invoke: {
        src: 'loadUserBonuses',
        onDone: { target: 'ready', actions: storeMine },
        onError: 'ready',
      },
    },
  },
});
