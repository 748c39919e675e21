import type { AppContext } from '../context.ts';
import { claimBonus, claimReferralReward, forfeitBonus, getBonus, listBonuses, listUserBonuses, referralStatus } from '../domain/bonuses.ts';
import { player } from './auth-guard.ts';
import type { HandlerInput, JsonHandlers, OperationId } from './types.ts';

/** The optional Idempotency-Key header, already checked against openapi.yaml (1 to 200 characters). */
function idempotencyKey<O extends OperationId>(input: HandlerInput<O>): string | undefined {
  const key = input.req.headers['idempotency-key'];
  return typeof key === 'string' ? key : undefined;
}

export function bonusHandlers(ctx: AppContext): JsonHandlers {
  return {
    bonusList: async ({ query }) => ({
      bonus: await listBonuses(ctx.db, { page: query.page ?? 1, limit: query.limit ?? 24, ...(query.type ? { type: query.type } : {}) }),
    }),

    bonusDetail: async ({ query }) => ({ bonus: await getBonus(ctx.db, query.bonusId) }),

    bonusUserList: async (input) => ({
      userBonus: await listUserBonuses(ctx, player(input).userId, {
        page: input.query.page ?? 1,
        limit: input.query.limit ?? 24,
        ...(input.query.status ? { status: input.query.status } : {}),
      }),
    }),

    bonusAvail: async (input) => ({ userBonus: await claimBonus(ctx, player(input).userId, input.body, idempotencyKey(input)) }),

    bonusCancel: async (input) => forfeitBonus(ctx, player(input).userId, input.body.userBonusId, idempotencyKey(input)),

    bonusAvailReferral: async (input) => ({
      userBonusWallet: await claimReferralReward(ctx, player(input).userId, input.body, idempotencyKey(input)),
    }),

    bonusReferral: async (input) => ({ referral: await referralStatus(ctx, player(input).userId) }),
  };
}
