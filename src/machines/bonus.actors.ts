import type { ApiClient } from '../api/client.ts';
import { settle } from './actors.ts';
import { ApiFailure } from './failure.ts';
import type { Bonus, UserBonus } from './bonuses.machine.ts';
import type { ClaimRequest } from './bonusClaim.machine.ts';
import type { ForfeitRequest } from './bonusForfeit.machine.ts';

/*
 * The bonus screen's API calls (tag bonus of openapi.yaml), one per actor name. src/machines/actors.ts
 * makes them actors that load this module with their first call, so that the SPA's first load does not
 * carry them (the bonus screen is a lazily loaded page).
 */

/** The most rows one page may ask for (openapi.yaml, parameter Limit). */
const ALL = 100;

export const bonusCalls = {
  /** GET /bonus: the offers. */
  loadBonusOffers: async (client: ApiClient, _input: undefined, signal: AbortSignal): Promise<Bonus[]> => {
    const answer = await settle(client.GET('/bonus', { params: { query: { limit: ALL } }, signal }));
    return answer.data.bonus.rows;
  },
  /** GET /bonus/user: the player's bonuses, every status, most recently claimed first. */
  loadUserBonuses: async (client: ApiClient, _input: undefined, signal: AbortSignal): Promise<UserBonus[]> => {
    const answer = await settle(client.GET('/bonus/user', { params: { query: { limit: ALL } }, signal }));
    return answer.data.userBonus.rows;
  },
  /** GET /bonus/detail?bonusId= */
  loadBonusDetail: async (client: ApiClient, input: { bonusId: number }, signal: AbortSignal): Promise<Bonus> => {
    const answer = await settle(client.GET('/bonus/detail', { params: { query: { bonusId: input.bonusId } }, signal }));
    return answer.data.bonus;
  },
  /** POST /bonus/avail with the Idempotency-Key of the confirmed claim. */
  claimBonus: async (client: ApiClient, input: ClaimRequest, signal: AbortSignal): Promise<UserBonus> => {
    const { idempotencyKey, ...body } = input;
    const answer = await settle(client.POST('/bonus/avail', { body, params: { header: { 'Idempotency-Key': idempotencyKey } }, signal }));
    return answer.data.userBonus;
  },
  /** POST /bonus/cancel */
  forfeitBonus: async (client: ApiClient, input: ForfeitRequest, signal: AbortSignal): Promise<void> => {
    const answer = await settle(client.POST('/bonus/cancel', { body: input, signal }));
    // SPEC §4: a forfeit succeeds when the answer says success; any other answer is a failure (SPEC §8).
    if (answer.data?.success !== true) throw new ApiFailure(500, 'INTERNAL_SERVER_ERROR');
  },
};

export type BonusCalls = typeof bonusCalls;
